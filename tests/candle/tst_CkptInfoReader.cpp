#include "CandleFixture.h"
#include "candle/CandleEpochInfo.h"
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
    void flatReadMatchesParse_data();
    void flatReadMatchesParse();
    void flatReadsInARowMatchParse();
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

namespace {

// Equal, NaN equal to NaN (a record may hold it).
bool same(const std::optional<double>& a, const std::optional<double>& b)
{
    if (!a || !b)
        return a.has_value() == b.has_value();
    return (std::isnan(*a) && std::isnan(*b)) || *a == *b ||
           (std::isinf(*a) && std::isinf(*b) && (*a > 0) == (*b > 0));
}

} // namespace

void tst_CkptInfoReader::flatReadMatchesParse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("flat"); // read without a document
    QTest::newRow("current writer") << QString(kCurrent) << true;
    QTest::newRow("first save, Infinity")
        << R"({"epoch": 1, "best_metric_last": Infinity, "time_elapsed": "__FIRST__"})" << true;
    QTest::newRow("-Infinity, NaN metadata")
        << R"({"epoch": 2, "best_metric_last": -Infinity, "metadata": NaN})" << true;
    QTest::newRow("NaN best, number metadata")
        << R"({"best_metric_last": NaN, "metadata": 12, "x": -0, "y": -0.0})" << true;
    QTest::newRow("checksum as a number")
        << R"({"checksum": 3117815349, "checksum_model": "1"})" << true;
    QTest::newRow("oldest writer")
        << R"({"save_best_stat": "loss", "best_stat_last": 0.5, "checksum_model": "7"})" << true;
    QTest::newRow("save_best_only false")
        << R"({"save_best_stat": "loss", "save_best_only": false})" << true;
    QTest::newRow("save_best_only number") << R"({"save_best_only": 1})" << true;
    QTest::newRow("quoted number") << R"({"best_metric_last": " 0.25 "})" << true;
    QTest::newRow("big integers")
        << R"({"a": 9223372036854775807, "b": 9223372036854775808, "c": 18446744073709551616,
              "d": -9223372036854775809, "e": 1e400, "f": -1e400, "g": 1E5, "h": 1.5e-7})"
        << true;
    QTest::newRow("below double's range")
        << R"({"best_metric_last": 1e-400, "a": -1e-400, "b": 2.5e-324, "c": 0.0e-999})" << true;
    QTest::newRow("null values")
        << R"({"epoch": null, "model_file": null, "metadata": null, "timestamp": null})" << true;
    QTest::newRow("bool metadata") << R"({"metadata": true, "k": false})" << true;
    QTest::newRow("empty object") << " \n{ }\n" << true;
    QTest::newRow("spacing") << "\t{\"epoch\" :3 ,\r\n\"k\":\"v\"}  \n" << true;
    // Left to parse():
    QTest::newRow("long plain strings")
        << R"({"a_key_of_many_bytes": "a value of more than eight bytes", "k": "12345678"})"
        << true;
    QTest::newRow("escaped string") << R"({"metadata": "a\"b", "epoch": 1})" << false;
    QTest::newRow("escape after a word") << R"({"metadata": "abcdefghij\"k"})" << false;
    QTest::newRow("tab in a long key") << "{\"abcdefghi\tj\": 1}" << false;
    QTest::newRow("non-ASCII after two words") << "{\"k\": \"abcdefghijklmnop\xc3\xa9\"}" << false;
    QTest::newRow("string to the end") << R"({"k": "abcdefghijklmnopq)" << false;
    QTest::newRow("non-ASCII") << "{\"metadata\": \"n\xc3\xa9\"}" << false;
    QTest::newRow("replacement character") << "{\"metadata\": \"\xef\xbf\xbdx\"}" << false;
    QTest::newRow("nested") << R"({"epoch": 1, "extra": {"a": [1, NaN]}})" << false;
    QTest::newRow("repeated key") << R"({"epoch": 1, "epoch": 2})" << false;
    QTest::newRow("epoch 12.0") << R"({"epoch": 12.0})" << false;
    QTest::newRow("epoch as text") << R"({"epoch": "12"})" << false;
    QTest::newRow("epoch out of range") << R"({"epoch": 4294967296})" << false;
    QTest::newRow("wrong type") << R"({"epoch": 1, "model_file": 5})" << false;
    QTest::newRow("bad number text") << R"({"best_metric_last": "abc"})" << false;
    QTest::newRow("bool best") << R"({"best_metric_last": true})" << false;
    QTest::newRow("save_best_only text") << R"({"save_best_only": "yes"})" << false;
    QTest::newRow("negative checksum") << R"({"checksum": -1})" << false;
    QTest::newRow("leading zero") << R"({"epoch": 012})" << false;
    QTest::newRow("truncated") << R"({"epoch": 1, "best)" << false;
    QTest::newRow("trailing junk") << R"({"epoch": 1} x)" << false;
    QTest::newRow("array") << "[1, 2]" << false;
    QTest::newRow("empty") << "" << false;
}

// The flat reader is a shortcut, never a second opinion: where it answers, it
// gives every field and every record entry parse() + CandleEpochInfo give.
void tst_CkptInfoReader::flatReadMatchesParse()
{
    QFETCH(QString, text);
    QFETCH(bool, flat);
    const std::string bytes = text.toStdString();
    CkptInfoView info;
    KeyValues record;
    QCOMPARE(CkptInfoReader::readFlat(bytes, info, record), flat);
    if (!flat)
        return;
    auto full = CkptInfoReader::parse(bytes, "ckpt-info.json");
    QVERIFY2(full.ok(), full ? "" : full.error().message.c_str());
    const auto owned = [](const std::optional<std::string_view>& v) {
        return v ? std::optional<std::string>(std::in_place, *v) : std::nullopt;
    };
    QCOMPARE(info.epoch, full->epoch);
    QCOMPARE(owned(info.saveBestMetric), full->saveBestMetric);
    QVERIFY(same(info.bestMetricLast, full->bestMetricLast));
    QCOMPARE(owned(info.modelFile), full->modelFile);
    QCOMPARE(owned(info.checksum), full->checksum);
    QCOMPARE(owned(info.timestamp), full->timestamp);
    QVERIFY(same(info.timeElapsed, full->timeElapsed));
    QCOMPARE(info.firstSave, full->firstSave);
    QCOMPARE(owned(info.metadata), full->metadata);

    Epoch viaParse;
    CandleEpochInfo::apply(*full, viaParse);
    Epoch viaFlat;
    CandleEpochInfo::apply(info, record, viaFlat);
    std::string a, b;
    for (const auto& [k, v] : viaParse.metadata)
        a += std::string(k) + "=" + std::string(v) + ";";
    for (const auto& [k, v] : viaFlat.metadata)
        b += std::string(k) + "=" + std::string(v) + ";";
    QCOMPARE(b, a);
    QVERIFY(viaFlat.metadata == viaParse.metadata);
    QCOMPARE(viaFlat.savedAt, viaParse.savedAt);
    QCOMPARE(viaFlat.monitored, viaParse.monitored);
    QCOMPARE(viaFlat.firstSave, viaParse.firstSave);
    QVERIFY(same(viaFlat.elapsed, viaParse.elapsed));
    QVERIFY(same(viaFlat.metric(kBestSoFar), viaParse.metric(kBestSoFar)));
    QCOMPARE(viaFlat.hasRecord(), viaParse.hasRecord());
}

// readFlat remembers the last double read at each place of the object (a
// run's files share one layout): whatever came before, each record is what
// parse() gives for its own text.
void tst_CkptInfoReader::flatReadsInARowMatchParse()
{
    const char* values[] = {"0.5",
                            "0.5",
                            "0.6",
                            "0.50",
                            "5e-1",
                            "1e-05",
                            "0.00001",
                            "NaN",
                            "0.5",
                            "12",
                            "0.125",
                            "-0.5",
                            "0.125",
                            "Infinity",
                            "0.125",
                            "56.58779799244047",
                            "56.58779799244048",
                            "5.0E-1"};
    for (const char* v : values) {
        for (const char* elapsed : {"52.123456789012345", "0.5", "52.123456789012346"}) {
            const std::string text = std::string("{\"epoch\": 3, \"best_metric_last\": ") + v +
                                     ", \"time_elapsed\": " + elapsed + "}";
            CkptInfoView info;
            KeyValues record;
            QVERIFY2(CkptInfoReader::readFlat(text, info, record), text.c_str());
            auto full = CkptInfoReader::parse(text, "ckpt-info.json");
            QVERIFY(full.ok());
            Epoch viaParse;
            CandleEpochInfo::apply(*full, viaParse);
            QVERIFY2(record == viaParse.metadata, text.c_str());
        }
    }
}

QTEST_GUILESS_MAIN(tst_CkptInfoReader)
#include "tst_CkptInfoReader.moc"
