#include "H5Writer.h"
#include "ModelFixtures.h"
#include "TorchZipWriter.h"
#include "model/ModelInspector.h"
#include "model/TensorHistogramPlot.h"
#include "models/AttributeModel.h"
#include "models/H5TreeModel.h"

#include <QFile>
#include <QFontMetrics>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

#include <algorithm>
#include <cmath>
#include <sys/stat.h>

using namespace ckpt;
using ckpt::test::ModelFixtures;

class tst_ModelInspector : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void showsTreeAndHeader();
    void clickingADatasetFillsStatistics();
    void rootAttributesArePrettyJson();
    void torchArchiveShowsItsListing();
    void torchCheckpointListsTensorsWithStatistics();
    void garbageSaysWhy();
    void modelThatCrashesLibhdf5SaysWhy();
    void valuesInAnotherFileAreNotRead();

private:
    static void clickIndex(QTreeView* view, const QModelIndex& index);
    static bool showAndOpen(ModelInspector& inspector, const QString& file);
    QString m_model;
    QTemporaryDir m_dir;
};

void tst_ModelInspector::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_model = m_dir.filePath("model.h5");
    ModelFixtures::keras2Model(m_model.toStdString(), 3);
}

void tst_ModelInspector::clickIndex(QTreeView* view, const QModelIndex& index)
{
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
        view->expand(p);
    view->scrollTo(index);
    const QRect rect = view->visualRect(index);
    QVERIFY(rect.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
}

// Shows `inspector` at a size that fits its panes and opens `file`: true once
// it has loaded it.
bool tst_ModelInspector::showAndOpen(ModelInspector& inspector, const QString& file)
{
    inspector.resize(1000, 700);
    inspector.show();
    if (!QTest::qWaitForWindowExposed(&inspector))
        return false;
    QSignalSpy loaded(&inspector, &ModelInspector::loaded);
    inspector.open(file);
    return QTest::qWaitFor([&] { return loaded.count() == 1; }, 10000) &&
           loaded.at(0).at(0).toBool();
}

void tst_ModelInspector::showsTreeAndHeader()
{
    ModelInspector inspector;
    QSignalSpy loaded(&inspector, &ModelInspector::loaded);
    inspector.open(m_model);
    QTRY_COMPARE(loaded.count(), 1);
    QCOMPARE(loaded.at(0).at(0).toBool(), true);
    const QString header = inspector.header()->text();
    QVERIFY2(header.contains(QStringLiteral("HDF5")), qPrintable(header));
    QVERIFY2(header.contains(QStringLiteral("Keras ")), qPrintable(header));
    QVERIFY2(header.contains(QStringLiteral("3 layers")), qPrintable(header));
    // dense 4x3+3, dense_1 3x2+2.
    QVERIFY2(header.contains(QStringLiteral("23 parameters")), qPrintable(header));
    auto* tree = inspector.treeView();
    QCOMPARE(tree->model()->rowCount(), 1);
    const QModelIndex root = tree->model()->index(0, 0);
    QVERIFY(tree->model()->rowCount(root) >= 2);
    QVERIFY(tree->isExpanded(root));
}

void tst_ModelInspector::clickingADatasetFillsStatistics()
{
    ModelInspector inspector;
    QVERIFY(showAndOpen(inspector, m_model));
    auto* model = qobject_cast<H5TreeModel*>(inspector.treeView()->model());
    QVERIFY(model);
    const QModelIndex kernel =
        model->indexOfPath(QStringLiteral("/model_weights/dense/dense/kernel:0"));
    QVERIFY(kernel.isValid());
    QSignalSpy ready(&inspector, &ModelInspector::statisticsReady);
    clickIndex(inspector.treeView(), kernel);
    QCOMPARE(inspector.treeView()->currentIndex(), kernel);
    QTRY_COMPARE(ready.count(), 1);
    QCOMPARE(ready.at(0).at(0).toString(), QStringLiteral("/model_weights/dense/dense/kernel:0"));
    QCOMPARE(inspector.statistic(QStringLiteral("count")), QStringLiteral("12"));
    const auto values = ModelFixtures::values(12, 3);
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    // Shown with 7 significant digits.
    QVERIFY(std::abs(inspector.statistic(QStringLiteral("min")).toDouble() - *lo) < 1e-6);
    QVERIFY(std::abs(inspector.statistic(QStringLiteral("max")).toDouble() - *hi) < 1e-6);
    QCOMPARE(inspector.statistic(QStringLiteral("nan")), QStringLiteral("0"));
    QCOMPARE(inspector.histogram()->seriesCount(), 1);

    // A group has no statistics: they are cleared, not left stale.
    clickIndex(inspector.treeView(), kernel.parent());
    QTRY_VERIFY(inspector.statistic(QStringLiteral("count")).isEmpty());
    QCOMPARE(inspector.histogram()->seriesCount(), 0);
}

void tst_ModelInspector::rootAttributesArePrettyJson()
{
    ModelInspector inspector;
    QVERIFY(showAndOpen(inspector, m_model));
    QTableView* attrs = inspector.attributeView();
    QVERIFY(attrs->model()->rowCount() >= 3); // keras_version, backend, model_config, ...
    int configRow = -1;
    for (int r = 0; r < attrs->model()->rowCount(); ++r)
        if (attrs->model()->index(r, 0).data().toString() == QLatin1String("model_config"))
            configRow = r;
    QVERIFY(configRow >= 0);
    const QModelIndex value = attrs->model()->index(configRow, AttributeModel::ValueColumn);
    attrs->scrollTo(value);
    QTest::mouseClick(attrs->viewport(), Qt::LeftButton, {}, attrs->visualRect(value).center());
    const QString text = inspector.attributeText()->toPlainText();
    QVERIFY2(text.startsWith(QStringLiteral("{\n  \"")), qPrintable(text.left(80)));
    QVERIFY(text.contains(QStringLiteral("\"class_name\"")));
    // Monospaced as drawn: fontconfig calls some monospaced fonts (Noto Sans
    // Mono) "dual" spaced, so QFontInfo::fixedPitch() is no proof either way.
    const QFontMetrics metrics(inspector.attributeText()->font());
    QCOMPARE(metrics.horizontalAdvance(QStringLiteral("iiii")),
             metrics.horizontalAdvance(QStringLiteral("WWWW")));
}

void tst_ModelInspector::torchArchiveShowsItsListing()
{
    const QString torch = m_dir.filePath("model.pt");
    ModelFixtures::zip(torch.toStdString(), {{"archive/data.pkl", "pickle"},
                                             {"archive/version", "3\n"},
                                             {"archive/data/0", std::string(64, 'x')}});
    ModelInspector inspector;
    QSignalSpy loaded(&inspector, &ModelInspector::loaded);
    inspector.open(torch);
    QTRY_COMPARE(loaded.count(), 1);
    QCOMPARE(loaded.at(0).at(0).toBool(), true);
    QVERIFY2(inspector.header()->text().contains(QStringLiteral("PyTorch")),
             qPrintable(inspector.header()->text()));
    QVERIFY(inspector.header()->text().contains(QStringLiteral("3 entries")));
    QCOMPARE(inspector.treeView()->model()->rowCount(), 0);
}

// A Lightning .ckpt (a real torch.save zip): its tensors are listed, and
// clicking one computes its statistics in the background.
void tst_ModelInspector::torchCheckpointListsTensorsWithStatistics()
{
    const QString file = m_dir.filePath("epoch=0-step=100.ckpt");
    QVERIFY(ckpt::test::TorchZipWriter::write(
        file.toStdString(), ckpt::test::TorchZipWriter::lightningCheckpoint(0, 100)));
    ModelInspector inspector;
    inspector.resize(1000, 600);
    inspector.show();
    QSignalSpy loaded(&inspector, &ModelInspector::loaded);
    QSignalSpy ready(&inspector, &ModelInspector::statisticsReady);
    inspector.open(file);
    QTRY_COMPARE(loaded.count(), 1);
    QCOMPARE(loaded.at(0).at(0).toBool(), true);
    QVERIFY2(inspector.header()->text().contains(QStringLiteral("PyTorch checkpoint")),
             qPrintable(inspector.header()->text()));
    auto* list = inspector.findChild<QTreeWidget*>(QStringLiteral("tensorList"));
    QVERIFY(list);
    QVERIFY(list->isVisible());
    const auto found =
        list->findItems(QStringLiteral("state_dict/layer1.weight"), Qt::MatchExactly);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.front()->text(1), QStringLiteral("3 \u00d7 4"));
    // The first tensor is shown on opening; the click computes the clicked one.
    QTRY_COMPARE(ready.size(), 1);
    ready.clear();
    const QRect rect = list->visualItemRect(found.front());
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
    QTRY_COMPARE(ready.size(), 1);
    QCOMPARE(ready.last().at(0).toString(), QStringLiteral("state_dict/layer1.weight"));
    QCOMPARE(inspector.statistic(QStringLiteral("min")), QStringLiteral("-1"));
    QCOMPARE(inspector.statistic(QStringLiteral("max")), QStringLiteral("1.75"));
    QCOMPARE(inspector.statistic(QStringLiteral("count")), QStringLiteral("12"));
}

void tst_ModelInspector::garbageSaysWhy()
{
    const QString junk = m_dir.filePath("junk.h5");
    ModelFixtures::writeBytes(junk.toStdString(), "hello, not a model\n");
    ModelInspector inspector;
    QSignalSpy loaded(&inspector, &ModelInspector::loaded);
    inspector.open(junk);
    QTRY_COMPARE(loaded.count(), 1);
    QCOMPARE(loaded.at(0).at(0).toBool(), false);
    QVERIFY(inspector.header()->text().contains(QStringLiteral("junk.h5")));
}

void tst_ModelInspector::modelThatCrashesLibhdf5SaysWhy()
{
    // Before, opening this file in the inspector took the whole window down
    // (SIGSEGV inside libhdf5); now the header says what happened.
    const QString bad = m_dir.filePath("crashes-hdf5.h5");
    QVERIFY(QFile::copy(
        QString::fromStdString(ModelFixtures::crasher("global-heap-read.h5").string()), bad));
    ModelInspector inspector;
    inspector.resize(900, 600);
    inspector.show();
    QSignalSpy loaded(&inspector, &ModelInspector::loaded);
    inspector.open(bad);
    QTRY_COMPARE(loaded.count(), 1);
    QCOMPARE(loaded.at(0).at(0).toBool(), false);
    const QString shown = inspector.header()->text();
    QVERIFY2(shown.contains(QStringLiteral("crashes-hdf5.h5")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("crashed the HDF5 library")), qPrintable(shown));
}

void tst_ModelInspector::valuesInAnotherFileAreNotRead()
{
    // A tensor whose values HDF5 keeps in a FIFO: the inspector used to wait on it
    // forever. Now the tree says where the values are, and selecting the tensor
    // says they are not read, while the file's other tensors still get statistics.
    const QString pipe = m_dir.filePath("pipe");
    QCOMPARE(::mkfifo(pipe.toLocal8Bit().constData(), 0600), 0);
    const QString file = m_dir.filePath("elsewhere.h5");
    {
        test::H5Writer w(file.toStdString());
        w.floats("/dense/bias", {3}, {1, 2, 3});
        w.floatsElsewhere("/dense/kernel", 16, pipe.toStdString());
    }
    ModelInspector inspector;
    QVERIFY(showAndOpen(inspector, file));
    auto* model = qobject_cast<H5TreeModel*>(inspector.treeView()->model());
    QVERIFY(model);
    const QModelIndex kernel = model->indexOfPath(QStringLiteral("/dense/kernel"));
    QVERIFY(kernel.isValid());
    const QString storage =
        model->index(kernel.row(), H5TreeModel::StorageColumn, kernel.parent()).data().toString();
    QVERIFY2(storage.contains(
                 QStringLiteral("not read: its values are kept outside this file, in external "
                                "file ") +
                 pipe),
             qPrintable(storage));
    // The column is narrow: the tooltip has it whole.
    QCOMPARE(model->index(kernel.row(), H5TreeModel::StorageColumn, kernel.parent())
                 .data(Qt::ToolTipRole)
                 .toString(),
             storage);

    clickIndex(inspector.treeView(), kernel);
    QTRY_VERIFY(inspector.histogram()->message().contains(QStringLiteral("; not read.")));
    QVERIFY(inspector.histogram()->message().contains(pipe));
    QVERIFY(inspector.statistic(QStringLiteral("count")).isEmpty());

    QSignalSpy ready(&inspector, &ModelInspector::statisticsReady);
    clickIndex(inspector.treeView(), model->indexOfPath(QStringLiteral("/dense/bias")));
    QTRY_COMPARE(ready.count(), 1);
    QCOMPARE(inspector.statistic(QStringLiteral("max")), QStringLiteral("3"));
}

QTEST_MAIN(tst_ModelInspector)
#include "tst_ModelInspector.moc"
