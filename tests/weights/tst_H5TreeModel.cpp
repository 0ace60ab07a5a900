#include "ModelFixtures.h"
#include "hdf5/H5Inspector.h"
#include "models/H5TreeModel.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
using ckpt::test::ModelFixtures;

class tst_H5TreeModel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void passesModelTester();
    void columnsOfADataset_data();
    void columnsOfADataset();
    void indexOfPathRoundTrips();
    void shapeText_data();
    void shapeText();

private:
    QTemporaryDir m_dir;
    H5Report m_report;
};

void tst_H5TreeModel::initTestCase()
{
    const auto file = std::filesystem::path(m_dir.filePath("model.h5").toStdString());
    ModelFixtures::keras2Model(file);
    auto report = H5Inspector::inspect(file.string());
    QVERIFY2(report, report ? "" : report.error().message.c_str());
    m_report = report.value();
}

void tst_H5TreeModel::passesModelTester()
{
    H5TreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setRoot(m_report.root);
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex root = model.index(0, 0);
    QCOMPARE(root.data().toString(), QStringLiteral("/"));
    QCOMPARE(model.rowCount(root), int(m_report.root.children.size()));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void tst_H5TreeModel::columnsOfADataset_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");
    QTest::newRow("name") << int(H5TreeModel::NameColumn) << "kernel:0";
    QTest::newRow("shape") << int(H5TreeModel::ShapeColumn) << "(4, 3)";
    QTest::newRow("dtype") << int(H5TreeModel::DTypeColumn) << "float32";
    QTest::newRow("bytes") << int(H5TreeModel::BytesColumn) << "48 B";
    QTest::newRow("storage") << int(H5TreeModel::StorageColumn) << "contiguous";
}

void tst_H5TreeModel::columnsOfADataset()
{
    QFETCH(int, column);
    QFETCH(QString, text);
    H5TreeModel model;
    model.setRoot(m_report.root);
    const QModelIndex index =
        model.indexOfPath(QStringLiteral("/model_weights/dense/dense/kernel:0"));
    QVERIFY(index.isValid());
    QCOMPARE(model.index(index.row(), column, index.parent()).data().toString(), text);
    QVERIFY(index.data(H5TreeModel::IsDatasetRole).toBool());
    QVERIFY(index.data(H5TreeModel::NumericRole).toBool());
    QCOMPARE(model.index(index.row(), H5TreeModel::BytesColumn, index.parent())
                 .data(H5TreeModel::SortRole)
                 .toULongLong(),
             48u);
}

void tst_H5TreeModel::indexOfPathRoundTrips()
{
    H5TreeModel model;
    model.setRoot(m_report.root);
    for (const QString& path : {QStringLiteral("/"), QStringLiteral("/model_weights"),
                                QStringLiteral("/model_weights/dense_1/dense_1/bias:0")}) {
        const QModelIndex index = model.indexOfPath(path);
        QVERIFY2(index.isValid(), qPrintable(path));
        QCOMPARE(index.data(H5TreeModel::PathRole).toString(), path);
        // Walking up through parent() ends at the single root row.
        QModelIndex up = index;
        while (up.parent().isValid())
            up = up.parent();
        QCOMPARE(up, model.index(0, 0));
    }
    QVERIFY(!model.indexOfPath(QStringLiteral("/nope")).isValid());
    QVERIFY(!model.index(0, 0).data(H5TreeModel::IsDatasetRole).toBool());
}

void tst_H5TreeModel::shapeText_data()
{
    QTest::addColumn<std::vector<std::uint64_t>>("shape");
    QTest::addColumn<QString>("text");
    QTest::newRow("scalar") << std::vector<std::uint64_t>{} << "scalar";
    QTest::newRow("vector") << std::vector<std::uint64_t>{3} << "(3,)";
    QTest::newRow("matrix") << std::vector<std::uint64_t>{4, 3} << "(4, 3)";
}

void tst_H5TreeModel::shapeText()
{
    QFETCH(std::vector<std::uint64_t>, shape);
    QFETCH(QString, text);
    QCOMPARE(H5TreeModel::shapeText(shape), text);
}

QTEST_GUILESS_MAIN(tst_H5TreeModel)
#include "tst_H5TreeModel.moc"
