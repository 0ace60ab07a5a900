#include "models/LayerRankingModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace ckpt;

namespace {

LayerDiff layer(const std::string& name, double rel, bool nonFinite = false)
{
    LayerDiff l;
    l.name = name;
    l.tensors = 2;
    l.changed = 1;
    l.same = 1;
    l.elements = 10;
    l.relChange = rel;
    l.l2Diff = rel * 2;
    l.cosine = 1.0 - rel;
    l.nonFiniteAppeared = nonFinite;
    return l;
}

} // namespace

class tst_LayerRankingModel : public QObject
{
    Q_OBJECT
private slots:
    void passesModelTester();
    void keepsTheRankingOrder();
};

void tst_LayerRankingModel::passesModelTester()
{
    LayerRankingModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLayers({layer("dense", 0.5), layer("dense_1", 0.01, true)});
    QCOMPARE(model.rowCount(), 2);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void tst_LayerRankingModel::keepsTheRankingOrder()
{
    LayerRankingModel model;
    model.setLayers({layer("dense", 0.5), layer("dense_1", 0.01, true)});
    QCOMPARE(model.index(0, LayerRankingModel::RankColumn).data().toInt(), 1);
    QCOMPARE(model.index(0, LayerRankingModel::LayerColumn).data().toString(),
             QStringLiteral("dense"));
    QCOMPARE(model.index(1, LayerRankingModel::LayerColumn).data().toString(),
             QStringLiteral("dense_1"));
    QCOMPARE(model.index(0, LayerRankingModel::RelChangeColumn)
                 .data(LayerRankingModel::BarValueRole)
                 .toDouble(),
             0.5);
    QVERIFY(model.index(1, 0).data(LayerRankingModel::BadRole).toBool());
    QVERIFY(!model.index(0, 0).data(LayerRankingModel::BadRole).toBool());
    QCOMPARE(model.index(0, LayerRankingModel::TensorsColumn).data().toString(),
             QStringLiteral("1 of 2 changed"));
    // A layer on one side only: nothing compared, no distance shown.
    LayerDiff only = layer("extra", 0.0);
    only.elements = 0;
    only.onlyB = 1;
    model.setLayers({only});
    QCOMPARE(model.index(0, LayerRankingModel::L2DiffColumn).data().toString(),
             QStringLiteral("\u2014"));
    QVERIFY(!model.index(0, LayerRankingModel::RelChangeColumn)
                 .data(LayerRankingModel::BarValueRole)
                 .isValid());
}

QTEST_GUILESS_MAIN(tst_LayerRankingModel)
#include "tst_LayerRankingModel.moc"
