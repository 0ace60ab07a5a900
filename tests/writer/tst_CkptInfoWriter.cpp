#include "PythonRunner.h"
#include "candle/CkptInfoWriter.h"

#include <QTest>

#include <limits>

Q_DECLARE_METATYPE(ckpt::CkptInfo)

using ckpt::CkptInfo;
using ckpt::CkptInfoWriter;

namespace {

CkptInfo candleInfo()
{
    CkptInfo info;
    info.epoch = 12;
    info.saveBestMetric = "val_loss";
    info.bestMetricLast = 0.1129;
    info.modelFile = "model.h5";
    info.checksum = "3117815349";
    info.timestamp = "2026-11-22 13:47:07";
    info.timeElapsed = 0.0041;
    info.metadata = "job 4242";
    return info;
}

} // namespace

class tst_CkptInfoWriter : public QObject
{
    Q_OBJECT

private slots:
    void literal_data();
    void literal();
    void unknownKeysFollowKnownOnes();
    void keysMissingFromReadFileStayMissing();
    void matchesPythonJsonDump();
};

void tst_CkptInfoWriter::literal_data()
{
    QTest::addColumn<CkptInfo>("info");
    QTest::addColumn<QString>("expected");

    QTest::newRow("formats.md example")
        << candleInfo()
        << R"({"epoch": 12, "save_best_metric": "val_loss", "best_metric_last": 0.1129, "model_file": "model.h5", "checksum": "3117815349", "timestamp": "2026-11-22 13:47:07", "time_elapsed": 0.0041, "metadata": "job 4242"})";

    CkptInfo first = candleInfo();
    first.epoch = 1;
    first.bestMetricLast = std::numeric_limits<double>::infinity();
    first.saveBestMetric.reset();
    first.checksum = "__DISABLED__";
    first.firstSave = true;
    first.timeElapsed.reset();
    first.metadata.reset();
    QTest::newRow("first save, save_best off")
        << first
        << R"({"epoch": 1, "save_best_metric": null, "best_metric_last": Infinity, "model_file": "model.h5", "checksum": "__DISABLED__", "timestamp": "2026-11-22 13:47:07", "time_elapsed": "__FIRST__", "metadata": null})";

    CkptInfo odd = candleInfo();
    odd.bestMetricLast = 1e-05;
    odd.timeElapsed = 123.0;
    odd.metadata = "h\xc3\xb4te \"n1\"";
    QTest::newRow("exponent, integral float, escapes")
        << odd
        << R"({"epoch": 12, "save_best_metric": "val_loss", "best_metric_last": 1e-05, "model_file": "model.h5", "checksum": "3117815349", "timestamp": "2026-11-22 13:47:07", "time_elapsed": 123.0, "metadata": "h\u00f4te \"n1\""})";

    CkptInfo nan = candleInfo();
    nan.bestMetricLast = std::numeric_limits<double>::quiet_NaN();
    nan.timeElapsed = 1e16;
    QTest::newRow("NaN and 1e+16")
        << nan
        << R"({"epoch": 12, "save_best_metric": "val_loss", "best_metric_last": NaN, "model_file": "model.h5", "checksum": "3117815349", "timestamp": "2026-11-22 13:47:07", "time_elapsed": 1e+16, "metadata": "job 4242"})";
}

void tst_CkptInfoWriter::literal()
{
    QFETCH(CkptInfo, info);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(CkptInfoWriter::toJson(info)), expected);
}

void tst_CkptInfoWriter::unknownKeysFollowKnownOnes()
{
    CkptInfo info = candleInfo();
    info.raw["epoch"] = 12;
    info.raw["host"] = "n0042";
    info.raw["save_best_only"] = true;
    info.raw["stats"] =
        nlohmann::ordered_json::array({1.5, -std::numeric_limits<double>::infinity()});
    const std::string json = CkptInfoWriter::toJson(info);
    QVERIFY(json.ends_with(
        R"("metadata": "job 4242", "host": "n0042", "save_best_only": true, "stats": [1.5, -Infinity]})"));
    QVERIFY(json.starts_with(R"({"epoch": 12, "save_best_metric": "val_loss",)"));
}

void tst_CkptInfoWriter::keysMissingFromReadFileStayMissing()
{
    // A writer that wrote no model file: no model_file/checksum keys.
    CkptInfo info;
    info.epoch = 3;
    info.bestMetricLast = 0.5;
    info.raw["epoch"] = 3;
    info.raw["best_metric_last"] = 0.5;
    QCOMPARE(QString::fromStdString(CkptInfoWriter::toJson(info)),
             QString(R"({"epoch": 3, "best_metric_last": 0.5})"));
}

void tst_CkptInfoWriter::matchesPythonJsonDump()
{
    CkptInfo info = candleInfo();
    info.bestMetricLast = 0.6851901412010193;
    info.timeElapsed = 0.018214;
    info.metadata = "caf\xc3\xa9 / \xf0\x9f\x98\x80";
    const auto r = ckpt::test::runPython("import json, sys\n"
                                         "D = {}\n"
                                         "D['epoch'] = 12\n"
                                         "D['save_best_metric'] = 'val_loss'\n"
                                         "D['best_metric_last'] = 0.6851901412010193\n"
                                         "D['model_file'] = 'model.h5'\n"
                                         "D['checksum'] = '3117815349'\n"
                                         "D['timestamp'] = '2026-11-22 13:47:07'\n"
                                         "D['time_elapsed'] = 0.018214\n"
                                         "D['metadata'] = 'caf\\u00e9 / \\U0001F600'\n"
                                         "json.dump(D, sys.stdout)\n"
                                         "sys.stdout.write('\\n')\n"
                                         "D['best_metric_last'] = float('inf'); D['time_elapsed'] "
                                         "= '__FIRST__'; D['metadata'] = None\n"
                                         "json.dump(D, sys.stdout)\n");
    if (!r.started)
        QSKIP("python3 is not available");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    CkptInfo second = info;
    second.bestMetricLast = std::numeric_limits<double>::infinity();
    second.timeElapsed.reset();
    second.firstSave = true;
    second.metadata.reset();
    QCOMPARE(r.out, QString::fromStdString(CkptInfoWriter::toJson(info) + "\n" +
                                           CkptInfoWriter::toJson(second)));
}

QTEST_GUILESS_MAIN(tst_CkptInfoWriter)
#include "tst_CkptInfoWriter.moc"
