#include "CandleFixture.h"
#include "candle/CkptInfoReader.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace ckpt;

namespace {
const char* kCurrent =
    R"({"epoch": 12, "save_best_metric": "val_loss", "best_metric_last": 0.1129, )"
    R"("model_file": "model.h5", "checksum": "3117815349", "timestamp": "2026-11-22 13:47:07", )"
    R"("time_elapsed": 0.0041, "metadata": "job 4242"})";
}

class tst_CkptInfoReader : public QObject
{
    Q_OBJECT
private slots:
    void currentWriter();
    void fields_data();
    void fields();
    void wrongTypes_data();
    void wrongTypes();
    void readFileNamesFile();
    void unknownKeysKept();
};

void tst_CkptInfoReader::currentWriter()
{
    auto r = CkptInfoReader::parse(kCurrent, "ckpt-info.json");
    QVERIFY(r.ok());
    QCOMPARE(r->epoch, std::optional<int>(12));
    QCOMPARE(r->saveBestMetric, std::optional<std::string>("val_loss"));
    QCOMPARE(r->bestMetricLast, std::optional<double>(0.1129));
    QCOMPARE(r->modelFile, std::optional<std::string>("model.h5"));
    QCOMPARE(r->checksum, std::optional<std::string>("3117815349"));
    QCOMPARE(r->timestamp, std::optional<std::string>("2026-11-22 13:47:07"));
    QCOMPARE(r->timeElapsed, std::optional<double>(0.0041));
    QVERIFY(!r->firstSave);
    QCOMPARE(r->metadata, std::optional<std::string>("job 4242"));
    QVERIFY(!r->checksumDisabled());
    QCOMPARE(r->raw.size(), std::size_t(8));
    QCOMPARE(r->raw.begin().key(), std::string("epoch"));
}

// Each row: the JSON text, then the expected fields rendered as one string so a
// table row states the whole outcome.
static QString render(const CkptInfo& i)
{
    auto opt = [](const auto& o) -> QString {
        if (!o)
            return "-";
        if constexpr (std::is_same_v<std::decay_t<decltype(*o)>, std::string>)
            return QString::fromStdString(*o);
        else if constexpr (std::is_same_v<std::decay_t<decltype(*o)>, double>)
            return std::isnan(*o)   ? "nan"
                   : std::isinf(*o) ? (*o > 0 ? "inf" : "-inf")
                                    : QString::number(*o);
        else
            return QString::number(*o);
    };
    return QStringList{opt(i.epoch),          opt(i.saveBestMetric),
                       opt(i.bestMetricLast), opt(i.modelFile),
                       opt(i.checksum),       opt(i.timestamp),
                       opt(i.timeElapsed),    i.firstSave ? "first" : "-",
                       opt(i.metadata),       i.checksumDisabled() ? "disabled" : "-"}
        .join('|');
}

void tst_CkptInfoReader::fields_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");

    QTest::newRow("Infinity best, first save, disabled checksum")
        << R"({"epoch": 1, "save_best_metric": "val_loss", "best_metric_last": Infinity, "model_file": "model.h5", "checksum": "__DISABLED__", "timestamp": "2026-11-22 13:00:01", "time_elapsed": "__FIRST__", "metadata": null})"
        << "1|val_loss|inf|model.h5|__DISABLED__|2026-11-22 13:00:01|-|first|-|disabled";
    QTest::newRow("-Infinity and NaN")
        << R"({"epoch": 2, "best_metric_last": -Infinity, "time_elapsed": NaN})"
        << "2|-|-inf|-|-|-|nan|-|-|-";
    QTest::newRow("save_best off: null metric")
        << R"({"epoch": 3, "save_best_metric": null, "best_metric_last": Infinity})"
        << "3|-|inf|-|-|-|-|-|-|-";
    QTest::newRow("no model file keys")
        << R"({"epoch": 4, "save_best_metric": "loss", "best_metric_last": 0.5, "timestamp": "t", "time_elapsed": 1.5, "metadata": "m"})"
        << "4|loss|0.5|-|-|t|1.5|-|m|-";
    QTest::newRow("oldest writer keys")
        << R"({"epoch": 5, "save_best_only": true, "save_best_stat": "val_loss", "best_stat_last": 0.25, "model_file": "model.h5", "checksum_model": "123", "timestamp": "t", "time_elapsed": "__FIRST__"})"
        << "5|val_loss|0.25|model.h5|123|t|-|first|-|-";
    QTest::newRow("oldest writer, save_best_only false")
        << R"({"epoch": 6, "save_best_only": false, "save_best_stat": "val_loss", "best_stat_last": Infinity})"
        << "6|-|inf|-|-|-|-|-|-|-";
    QTest::newRow("numbers as strings")
        << R"({"epoch": "7", "best_metric_last": "0.75", "time_elapsed": "2.5", "checksum": 42})"
        << "7|-|0.75|-|42|-|2.5|-|-|-";
    QTest::newRow("python str(inf)") << R"({"epoch": 8.0, "best_metric_last": "inf"})"
                                     << "8|-|inf|-|-|-|-|-|-|-";
    QTest::newRow("metadata not text") << R"({"epoch": 9, "metadata": {"job": 4242}})"
                                       << R"(9|-|-|-|-|-|-|-|{"job":4242}|-)";
    QTest::newRow("empty object") << "{}"
                                  << "-|-|-|-|-|-|-|-|-|-";
}

void tst_CkptInfoReader::fields()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    auto r = CkptInfoReader::parse(text.toStdString(), "ckpt-info.json");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(render(r.value()), expected);
}

void tst_CkptInfoReader::wrongTypes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    const QString f = "e/012/ckpt-info.json: ";
    QTest::newRow("epoch array") << R"({"epoch": [12]})"
                                 << f + R"(key "epoch": expected an integer, found an array)";
    QTest::newRow("epoch fractional")
        << R"({"epoch": 1.5})" << f + R"(key "epoch": expected an integer, found the number 1.5)";
    QTest::newRow("epoch word")
        << R"({"epoch": "twelve"})"
        << f + R"(key "epoch": expected an integer, found the string "twelve")";
    QTest::newRow("best bool") << R"({"best_metric_last": true})"
                               << f + R"(key "best_metric_last": expected a number, found true)";
    QTest::newRow("model_file number")
        << R"({"model_file": 3})"
        << f + R"(key "model_file": expected a string, found the number 3)";
    QTest::newRow("elapsed word")
        << R"({"time_elapsed": "__LAST__"})"
        << f + R"(key "time_elapsed": expected a number, found the string "__LAST__")";
    QTest::newRow("not an object")
        << "[1, 2]" << f + "expected a JSON object ({...}), found an array";
    QTest::newRow("truncated")
        << R"({"epoch": 12, "save_best_metric": "val_loss", "best_metric_last": 0.11)"
        << f + "unexpected end of file at 1:71 (truncated?)";
    QTest::newRow("empty") << "" << f + "file is empty";
}

void tst_CkptInfoReader::wrongTypes()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    auto r = CkptInfoReader::parse(text.toStdString(), "e/012/ckpt-info.json");
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().message), message);
    QCOMPARE(r.error().path, std::string("e/012/ckpt-info.json"));
}

void tst_CkptInfoReader::readFileNamesFile()
{
    QTemporaryDir tmp;
    const auto path = std::filesystem::path(tmp.path().toStdString()) / "ckpt-info.json";
    test::CandleFixture::writeText(path, kCurrent);
    auto ok = CkptInfoReader::readFile(path);
    QVERIFY(ok.ok());
    QCOMPARE(ok->epoch, std::optional<int>(12));

    test::CandleFixture::writeText(path, "{\"epoch\": 12,");
    auto bad = CkptInfoReader::readFile(path);
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().message.starts_with(path.string() + ": unexpected end of file at 1:14"));

    auto missing = CkptInfoReader::readFile(path.parent_path() / "nope.json");
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.find("nope.json") != std::string::npos);
}

void tst_CkptInfoReader::unknownKeysKept()
{
    auto r =
        CkptInfoReader::parse(R"({"epoch": 1, "host": "n01", "best_metric_last": Infinity})", "");
    QVERIFY(r.ok());
    QCOMPARE(r->raw["host"].get<std::string>(), std::string("n01"));
    QVERIFY(std::isinf(r->raw["best_metric_last"].get<double>()));
    std::string keys;
    for (const auto& [k, v] : r->raw.items())
        keys += k + ",";
    QCOMPARE(keys, std::string("epoch,host,best_metric_last,"));
}

QTEST_GUILESS_MAIN(tst_CkptInfoReader)
#include "tst_CkptInfoReader.moc"
