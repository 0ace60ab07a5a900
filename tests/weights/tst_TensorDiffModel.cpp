#include "models/TensorDiffFilterModel.h"
#include "models/TensorDiffModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

#include <cmath>
#include <limits>

using namespace ckpt;
using St = TensorDiffEntry::Status;

namespace {

TensorDiffEntry entry(const std::string& key, St status, double rel, std::uint64_t nanB = 0)
{
    TensorDiffEntry e;
    e.key = key;
    e.pathA = status == St::OnlyB ? "" : "/" + key;
    e.pathB = status == St::OnlyA ? "" : "/" + key;
    e.layer = key.substr(0, key.find('/'));
    e.shapeA = e.shapeB = {2, 2};
    e.dtypeA = e.dtypeB = DType::of(DTypeKind::Float32);
    e.status = status;
    e.compared = !std::isnan(rel);
    e.relChange = rel;
    e.l2Diff = rel;
    e.cosine = std::isnan(rel) ? rel : 1.0 - rel;
    e.nanB = nanB;
    e.nonFiniteAppeared = nanB > 0;
    return e;
}

std::vector<TensorDiffEntry> sample()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {entry("a/w", St::Changed, 1e-3),     entry("b/w", St::Changed, 0.5),
            entry("c/w", St::Same, 0.0),         entry("d/w", St::OnlyA, nan),
            entry("e/w", St::OnlyB, nan),        entry("f/w", St::Changed, 1e-5, 2),
            entry("g/w", St::ShapeMismatch, nan)};
}

} // namespace

class tst_TensorDiffModel : public QObject
{
    Q_OBJECT
private slots:
    void passesModelTester();
    void sortsByRelChangeWithNaNLast();
    void filterByStatus_data();
    void filterByStatus();
    void roles();
    void numberText_data();
    void numberText();
};

void tst_TensorDiffModel::passesModelTester()
{
    TensorDiffModel model;
    TensorDiffFilterModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDiff(sample());
    QCOMPARE(model.rowCount(), 7);
    QCOMPARE(model.columnCount(), int(TensorDiffModel::ColumnCount));
    proxy.sort(TensorDiffModel::RelChangeColumn, Qt::DescendingOrder);
    proxy.setFilterEnabled(TensorDiffFilterModel::Same, false);
    model.clear();
    QCOMPARE(proxy.rowCount(), 0);
}

void tst_TensorDiffModel::sortsByRelChangeWithNaNLast()
{
    TensorDiffModel model;
    model.setDiff(sample());
    TensorDiffFilterModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(TensorDiffModel::RelChangeColumn, Qt::DescendingOrder);
    QStringList order;
    for (int r = 0; r < proxy.rowCount(); ++r)
        order << proxy.index(r, 0).data().toString();
    QCOMPARE(order.mid(0, 4), (QStringList{"b/w", "a/w", "f/w", "c/w"}));
    // Not compared (only A/B, mismatch) come last.
    QCOMPARE(QSet<QString>(order.begin() + 4, order.end()), (QSet<QString>{"d/w", "e/w", "g/w"}));
}

void tst_TensorDiffModel::filterByStatus_data()
{
    QTest::addColumn<int>("filters");
    QTest::addColumn<int>("rows");
    QTest::newRow("all") << int(TensorDiffFilterModel::All) << 7;
    QTest::newRow("changed") << int(TensorDiffFilterModel::Changed) << 3;
    QTest::newRow("same") << int(TensorDiffFilterModel::Same) << 1;
    QTest::newRow("only a or b") << int(TensorDiffFilterModel::OnlyA | TensorDiffFilterModel::OnlyB)
                                 << 2;
    QTest::newRow("mismatch") << int(TensorDiffFilterModel::Mismatch) << 1;
    QTest::newRow("none") << 0 << 0;
}

void tst_TensorDiffModel::filterByStatus()
{
    QFETCH(int, filters);
    QFETCH(int, rows);
    TensorDiffModel model;
    model.setDiff(sample());
    TensorDiffFilterModel proxy;
    proxy.setSourceModel(&model);
    proxy.setFilters(filters);
    QCOMPARE(proxy.rowCount(), rows);
}

void tst_TensorDiffModel::roles()
{
    TensorDiffModel model;
    model.setDiff(sample());
    QCOMPARE(model.badCount(), 1);
    const QModelIndex bad = model.index(5, TensorDiffModel::PathColumn);
    QVERIFY(bad.data(TensorDiffModel::BadRole).toBool());
    QVERIFY(!model.index(0, 0).data(TensorDiffModel::BadRole).toBool());
    QCOMPARE(model.index(5, TensorDiffModel::NonFiniteBColumn).data().toString(),
             QStringLiteral("2 NaN"));
    QCOMPARE(model.index(1, TensorDiffModel::RelChangeColumn)
                 .data(TensorDiffModel::BarValueRole)
                 .toDouble(),
             0.5);
    // Only the rel. change column has a bar, only compared tensors have a value.
    QVERIFY(!model.index(1, TensorDiffModel::L2DiffColumn)
                 .data(TensorDiffModel::BarValueRole)
                 .isValid());
    QVERIFY(!model.index(3, TensorDiffModel::RelChangeColumn)
                 .data(TensorDiffModel::BarValueRole)
                 .isValid());
    QCOMPARE(model.index(3, TensorDiffModel::StatusColumn).data().toString(),
             QStringLiteral("only in A"));
    QCOMPARE(model.index(4, TensorDiffModel::ShapeColumn).data().toString(),
             QStringLiteral("(2, 2)"));
}

void tst_TensorDiffModel::numberText_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "\u2014";
    QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "\u221e";
    QTest::newRow("zero") << 0.0 << "0";
    QTest::newRow("plain") << 0.12345 << "0.1235";
    QTest::newRow("tiny") << 1.5e-7 << "1.50e-07";
}

void tst_TensorDiffModel::numberText()
{
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(TensorDiffModel::numberText(value), text);
}

QTEST_GUILESS_MAIN(tst_TensorDiffModel)
#include "tst_TensorDiffModel.moc"
