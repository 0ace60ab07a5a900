#include "H5Writer.h"
#include "ModelFixtures.h"
#include "WeightsFixtures.h"
#include "compare/ChangeBarDelegate.h"
#include "compare/TensorOverlayDialog.h"
#include "compare/WeightsDiffView.h"
#include "model/TensorHistogramPlot.h"
#include "models/TensorDiffFilterModel.h"
#include "models/TensorDiffModel.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
using ckpt::test::H5Writer;
using ckpt::test::ModelFixtures;
using ckpt::test::WeightsFixtures;

class tst_WeightsDiffView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void fillsTheTable();
    void optimizerStateIsAToggle();
    void sortingByRelChangePutsTheChangedLayerFirst();
    void nanRowIsFlagged();
    void statusFilterHidesRows();
    void doubleClickOpensOverlay();
    void missingFileSaysWhich();
    void unreadableTensorSaysWhy();
    void barFraction_data();
    void barFraction();
    void badColoursReadInBothPalettes();

private:
    int rowOf(const QString& key) const;
    QTemporaryDir m_dir;
    QString m_a, m_b;
    WeightsDiffView* m_view = nullptr;
};

void tst_WeightsDiffView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_a = m_dir.filePath("epoch5.h5");
    m_b = m_dir.filePath("epoch9.h5");
    WeightsFixtures::write(m_a.toStdString(), m_b.toStdString());
}

void tst_WeightsDiffView::init()
{
    m_view = new WeightsDiffView;
    m_view->resize(1100, 700);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    QSignalSpy finished(m_view, &WeightsDiffView::finished);
    m_view->compare(m_a, QStringLiteral("RUN000 epoch 5"), m_b, QStringLiteral("epoch 9"));
    QVERIFY(m_view->isRunning() || finished.count() == 1);
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), true);
}

void tst_WeightsDiffView::cleanup()
{
    delete m_view;
    m_view = nullptr;
}

int tst_WeightsDiffView::rowOf(const QString& key) const
{
    const auto* model = m_view->tensorView()->model();
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, TensorDiffModel::PathColumn).data().toString() == key)
            return r;
    return -1;
}

void tst_WeightsDiffView::optimizerStateIsAToggle()
{
    // Adam's moments and the step counter change far more than the weights do.
    const QString a = m_dir.filePath("opt-a.h5"), b = m_dir.filePath("opt-b.h5");
    {
        H5Writer w(a.toStdString());
        w.floats("/model_weights/dense/dense/kernel:0", {2}, {1, 2});
        w.floats("/optimizer_weights/Adam/dense/kernel/m:0", {2}, {0, 0});
        w.floats("/optimizer_weights/Adam/iterations:0", {1}, {10});
    }
    {
        H5Writer w(b.toStdString());
        w.floats("/model_weights/dense/dense/kernel:0", {2}, {1, 2.5});
        w.floats("/optimizer_weights/Adam/dense/kernel/m:0", {2}, {5, 7});
        w.floats("/optimizer_weights/Adam/iterations:0", {1}, {90});
    }
    QSignalSpy finished(m_view, &WeightsDiffView::finished);
    m_view->compare(a, QStringLiteral("epoch 1"), b, QStringLiteral("epoch 9"));
    QTRY_COMPARE(finished.count(), 1);
    // Model weights by default: one tensor, one layer, the rest counted as hidden.
    QCOMPARE(m_view->tensorView()->model()->rowCount(), 1);
    QCOMPARE(m_view->layerView()->model()->rowCount(), 1);
    QVERIFY(m_view->summary()->text().contains("2 optimizer tensors hidden"));
    QVERIFY(!m_view->optimizerBox()->isChecked());
    QTest::mouseClick(m_view->optimizerBox(), Qt::LeftButton, {},
                      QPoint(8, m_view->optimizerBox()->height() / 2));
    QVERIFY(m_view->optimizerBox()->isChecked());
    QCOMPARE(m_view->tensorView()->model()->rowCount(), 3);
    QCOMPARE(m_view->layerView()->model()->rowCount(), 2);
    QVERIFY(!m_view->summary()->text().contains("hidden"));
}

void tst_WeightsDiffView::fillsTheTable()
{
    QCOMPARE(m_view->tensorView()->model()->rowCount(), WeightsFixtures::kTensors);
    QVERIFY(m_view->layerView()->model()->rowCount() >= 4);
    const QString summary = m_view->summary()->text();
    QVERIFY2(summary.contains(QStringLiteral("RUN000 epoch 5")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("1 with NaN/Inf")), qPrintable(summary));
    QVERIFY(!m_view->cancelButton()->isVisible());
}

void tst_WeightsDiffView::sortingByRelChangePutsTheChangedLayerFirst()
{
    QTableView* view = m_view->tensorView();
    QHeaderView* header = view->horizontalHeader();
    view->sortByColumn(TensorDiffModel::PathColumn, Qt::AscendingOrder);
    QCOMPARE(view->model()->index(0, 0).data().toString(), QStringLiteral("big/kernel"));
    view->sortByColumn(TensorDiffModel::PathColumn, Qt::DescendingOrder);
    QVERIFY(view->model()->index(0, 0).data().toString() != QLatin1String("big/kernel"));
    // Real clicks on the header until the column sorts descending.
    const int x = header->sectionViewportPosition(TensorDiffModel::RelChangeColumn) +
                  header->sectionSize(TensorDiffModel::RelChangeColumn) / 2;
    for (int i = 0; i < 2 && !(header->sortIndicatorSection() == TensorDiffModel::RelChangeColumn &&
                               header->sortIndicatorOrder() == Qt::DescendingOrder);
         ++i)
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    QCOMPARE(header->sortIndicatorSection(), int(TensorDiffModel::RelChangeColumn));
    QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
    QCOMPARE(view->model()->index(0, 0).data().toString(), QStringLiteral("big/kernel"));
    QCOMPARE(view->model()->index(1, 0).data().toString(), QStringLiteral("small/kernel"));
    QCOMPARE(view->model()->index(0, TensorDiffModel::RelChangeColumn).data().toString(),
             QStringLiteral("2"));
    // The layer ranking agrees.
    QCOMPARE(m_view->layerView()->model()->index(0, 1).data().toString(), QStringLiteral("big"));
}

void tst_WeightsDiffView::nanRowIsFlagged()
{
    const int row = rowOf(QStringLiteral("nanlayer/bias"));
    QVERIFY(row >= 0);
    const auto* model = m_view->tensorView()->model();
    QVERIFY(model->index(row, 0).data(TensorDiffModel::BadRole).toBool());
    QCOMPARE(model->index(row, TensorDiffModel::NonFiniteBColumn).data().toString(),
             QStringLiteral("1 NaN"));
    QVERIFY(!model->index(rowOf(QStringLiteral("big/kernel")), 0)
                 .data(TensorDiffModel::BadRole)
                 .toBool());
    // The row is painted with the red tint (not selected).
    m_view->tensorView()->clearSelection();
    m_view->tensorView()->setCurrentIndex({});
    const QRect cell =
        m_view->tensorView()->visualRect(model->index(row, TensorDiffModel::LayerColumn));
    const QImage image = m_view->tensorView()->viewport()->grab().toImage();
    const QColor pixel = image.pixelColor(cell.right() - 3, cell.center().y());
    QCOMPARE(pixel.rgb(), ChangeBarDelegate::badBackground(m_view->tensorView()->palette()).rgb());
}

void tst_WeightsDiffView::statusFilterHidesRows()
{
    QCheckBox* same = m_view->statusFilter(TensorDiffFilterModel::Same);
    QVERIFY(same && same->isChecked());
    QTest::mouseClick(same, Qt::LeftButton);
    QVERIFY(!same->isChecked());
    QCOMPARE(m_view->tensorView()->model()->rowCount(), WeightsFixtures::kTensors - 1);
    QCOMPARE(rowOf(QStringLiteral("same/w")), -1);
    QCheckBox* onlyA = m_view->statusFilter(TensorDiffFilterModel::OnlyA);
    QTest::mouseClick(onlyA, Qt::LeftButton);
    QCOMPARE(m_view->tensorView()->model()->rowCount(), WeightsFixtures::kTensors - 2);
    QVERIFY(m_view->summary()->text().contains(QStringLiteral("showing 4")));
}

void tst_WeightsDiffView::doubleClickOpensOverlay()
{
    QTableView* view = m_view->tensorView();
    const int row = rowOf(QStringLiteral("big/kernel"));
    const QModelIndex index = view->model()->index(row, TensorDiffModel::PathColumn);
    view->scrollTo(index);
    const QPoint at = view->visualRect(index).center();
    QVERIFY(!m_view->overlayDialog());
    // A double-click is a press, release, then the double-click event.
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
    QTRY_VERIFY(m_view->overlayDialog());
    TensorOverlayDialog* dialog = m_view->overlayDialog();
    QTRY_COMPARE(dialog->histogram()->seriesCount(), 2);
    dialog->close();
    QTRY_VERIFY(!m_view->overlayDialog());
}

void tst_WeightsDiffView::missingFileSaysWhich()
{
    QSignalSpy finished(m_view, &WeightsDiffView::finished);
    const QString missing = m_dir.filePath("nope.h5");
    m_view->compare(m_a, QStringLiteral("a"), missing, QStringLiteral("b"));
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY2(m_view->summary()->text().contains(QStringLiteral("nope.h5")),
             qPrintable(m_view->summary()->text()));
    QCOMPARE(m_view->tensorView()->model()->rowCount(), 0);
}

// A tensor whose chunk does not inflate is one row that says so (its tooltip
// says why, naming the file), and the rest of the comparison is there.
void tst_WeightsDiffView::unreadableTensorSaysWhy()
{
    const QString a = m_dir.filePath("good.h5"), b = m_dir.filePath("torn.h5");
    ModelFixtures::denseModel(a.toStdString(), 0.25f, 3);
    ModelFixtures::denseModel(b.toStdString(), 0.5f, 4, true);
    QSignalSpy finished(m_view, &WeightsDiffView::finished);
    m_view->compare(a, QStringLiteral("epoch 1"), b, QStringLiteral("epoch 2"));
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    const QString summary = m_view->summary()->text();
    QVERIFY2(summary.contains(QStringLiteral("2 tensors, 1 changed")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("1 unreadable")), qPrintable(summary));
    const auto* model = m_view->tensorView()->model();
    const int torn = rowOf(QStringLiteral("dense/kernel"));
    QVERIFY(torn >= 0);
    QCOMPARE(model->index(torn, TensorDiffModel::StatusColumn).data().toString(),
             QStringLiteral("unreadable"));
    const QString why =
        model->index(torn, TensorDiffModel::StatusColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(why.startsWith(b + QStringLiteral(": dataset /dense/kernel")), qPrintable(why));
    // Drawn as alarming as a NaN, without being counted as one.
    QVERIFY(model->index(torn, 0).data(TensorDiffModel::BadRole).toBool());
    QVERIFY(!summary.contains(QStringLiteral("NaN")));
    QVERIFY(rowOf(QStringLiteral("dense/bias")) >= 0);
}

void tst_WeightsDiffView::barFraction_data()
{
    QTest::addColumn<double>("rel");
    QTest::addColumn<double>("fraction");
    QTest::newRow("zero") << 0.0 << 0.0;
    QTest::newRow("noise") << 1e-9 << 0.0;
    QTest::newRow("1e-6") << 1e-6 << 0.0;
    QTest::newRow("1e-3 is half") << 1e-3 << 0.5;
    QTest::newRow("1 is full") << 1.0 << 1.0;
    QTest::newRow("above is full") << 5.0 << 1.0;
    QTest::newRow("nan") << std::nan("") << 0.0;
}

void tst_WeightsDiffView::barFraction()
{
    QFETCH(double, rel);
    QFETCH(double, fraction);
    QCOMPARE(ChangeBarDelegate::barFraction(rel) + 1.0, fraction + 1.0);
}

void tst_WeightsDiffView::badColoursReadInBothPalettes()
{
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    // Text on the tint keeps a readable lightness gap in both palettes.
    for (const QPalette& p : {light, dark}) {
        const QColor bg = ChangeBarDelegate::badBackground(p);
        const QColor fg = ChangeBarDelegate::badText(p);
        QVERIFY(bg.red() > bg.green());
        QVERIFY2(std::abs(bg.lightness() - fg.lightness()) > 90,
                 qPrintable(QStringLiteral("%1 vs %2").arg(bg.name(), fg.name())));
    }
    QVERIFY(ChangeBarDelegate::badBackground(dark).lightness() < 128);
}

QTEST_MAIN(tst_WeightsDiffView)
#include "tst_WeightsDiffView.moc"
