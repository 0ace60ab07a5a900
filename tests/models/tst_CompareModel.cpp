#include "layout/Layout.h"
#include "models/CompareModel.h"
#include "models/ModelRoles.h"

#include <QAbstractItemModelTester>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <LightningFixture.h>
#include <nlohmann/json.hpp>

using namespace ckpt;

class tst_CompareModel : public QObject
{
    Q_OBJECT
private slots:
    void sideBySideWithDifferences();
    void fieldOnlyOnOneSide();
    void parametersOfTwoLightningRuns();
};

static CompareSide side(const QString& run, int n, const std::string& json, double loss)
{
    CompareSide s;
    s.runName = run;
    s.epoch.number = n;
    s.epoch.dir = "/r/epochs/" + std::to_string(n);
    EpochFile model;
    model.name = "model.h5";
    model.bytes = 2048;
    model.present = true;
    model.model = true;
    s.epoch.files.push_back(model);
    s.epoch.recorded = true;
    const nlohmann::ordered_json record = nlohmann::ordered_json::parse(json);
    for (auto it = record.begin(); it != record.end(); ++it)
        s.epoch.metadata.set(it.key(), it.value().dump());
    s.recordName = QStringLiteral("ckpt-info.json");
    HistoryRow row;
    row.epoch = n;
    row.samples.push_back(MetricSample{"loss", loss, MetricSource::TrainingLog});
    row.samples.push_back(MetricSample{"loss", 99.0, MetricSource::CkptInfo});
    s.history = row;
    return s;
}

static int rowOf(const CompareModel& m, const QString& field)
{
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, 0).data().toString() == field)
            return r;
    return -1;
}

void tst_CompareModel::sideBySideWithDifferences()
{
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSides(
        side("r", 3, R"({"epoch": 3, "metadata": "job 1", "best_metric_last": 0.5})", 0.25),
        side("r", 7, R"({"epoch": 7, "metadata": "job 1", "best_metric_last": 0.5})", 0.125));
    const int epochRow = rowOf(model, "epoch");
    const int metaRow = rowOf(model, "metadata");
    const int lossRow = rowOf(model, "loss");
    QVERIFY(epochRow >= 0 && metaRow >= 0 && lossRow >= 0);
    QCOMPARE(model.index(epochRow, CompareModel::LeftColumn).data().toString(), QString("3"));
    QCOMPARE(model.index(epochRow, CompareModel::RightColumn).data().toString(), QString("7"));
    QCOMPARE(model.index(epochRow, 0).data(roles::DifferentRole).toBool(), true);
    QCOMPARE(model.index(metaRow, 0).data(roles::DifferentRole).toBool(), false);
    // The richest history source wins over ckpt-info's copy.
    QCOMPARE(model.index(lossRow, CompareModel::LeftColumn).data().toString(), QString("0.25"));
    QCOMPARE(model.index(lossRow, 0).data(roles::DifferentRole).toBool(), true);
    QVERIFY(model.headerData(CompareModel::RightColumn, Qt::Horizontal).toString().contains("7"));
    QVERIFY(model.differenceCount() >= 3); // epoch, epoch directory, loss
}

void tst_CompareModel::fieldOnlyOnOneSide()
{
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSides(side("a", 1, R"({"epoch": 1, "legacy_key": true})", 1.0),
                   side("b", 1, R"({"epoch": 1})", 1.0));
    const int row = rowOf(model, "legacy_key");
    QVERIFY(row >= 0);
    QCOMPARE(model.index(row, CompareModel::LeftColumn).data().toString(), QString("true"));
    QCOMPARE(model.index(row, CompareModel::RightColumn).data().toString(), QString("—"));
    QCOMPARE(model.index(row, 0).data(roles::DifferentRole).toBool(), true);
    model.clear();
    QVERIFY(model.isEmpty());
}

// Two Lightning runs compared: their hparams.yaml side by side in a
// "parameters" section, the changed learning rate marked.
void tst_CompareModel::parametersOfTwoLightningRuns()
{
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir tmp;
    const std::filesystem::path base(tmp.path().toStdString());
    test::LightningFixture a(base / "lightning_logs" / "version_0");
    test::LightningFixture b(base / "lightning_logs" / "version_1");
    a.addCheckpoint(0, 10);
    b.addCheckpoint(0, 10);
    a.writeHparams("lr: 0.01\nbatch_size: 32\n");
    b.writeHparams("lr: 0.001\nbatch_size: 32\ndropout: 0.1\n");
    const Run ra = layouts::lightning().loadRun(a.root());
    const Run rb = layouts::lightning().loadRun(b.root());
    auto left = CompareSide::of("version_0", ra, nullptr, 10);
    auto right = CompareSide::of("version_1", rb, nullptr, 10);
    QVERIFY(left && right);
    QCOMPARE(left->params.size(), std::size_t(2));
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSides(*left, *right);
    const int lr = rowOf(model, "lr");
    const int batch = rowOf(model, "batch_size");
    const int dropout = rowOf(model, "dropout");
    QVERIFY(lr >= 0 && batch >= 0 && dropout >= 0);
    QCOMPARE(model.headerData(lr, Qt::Vertical).toString(), QStringLiteral("parameters"));
    QCOMPARE(model.index(lr, CompareModel::LeftColumn).data().toString(), QStringLiteral("0.01"));
    QCOMPARE(model.index(lr, CompareModel::RightColumn).data().toString(), QStringLiteral("0.001"));
    QVERIFY(model.index(lr, 0).data(roles::DifferentRole).toBool());
    QVERIFY(!model.index(batch, 0).data(roles::DifferentRole).toBool());
    QCOMPARE(model.index(dropout, CompareModel::LeftColumn).data().toString(), QString("—"));
}

QTEST_GUILESS_MAIN(tst_CompareModel)
#include "tst_CompareModel.moc"
