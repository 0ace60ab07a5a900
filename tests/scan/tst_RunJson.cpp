#include "CandleFixture.h"
#include "LightningFixture.h"
#include "OrbaxFixture.h"
#include "ProtobufFixture.h"
#include "candle/CandleLayout.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
using test::CandleFixture;
namespace fs = std::filesystem;

class tst_RunJson : public QObject
{
    Q_OBJECT
private slots:
    void runSchema();
    void problemsAndNulls();
    void outcome();
    void nonUtf8FileNames();
    void streamedEqualsDocument_data();
    void streamedEqualsDocument();
};

void tst_RunJson::runSchema()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    CandleFixture f(base / "out" / "ckpts");
    f.addEpoch(1, HUGE_VAL, 10, true);
    f.addEpoch(2, 0.25, 20);
    f.linkAbsolute("last", 2);
    f.linkAbsolute("best", 2);
    CandleFixture::writeText(f.root() / "ckpt.log", "");
    const Run run = CandleLayout::instance().loadRun(f.root());
    const auto j = RunJson::toJson(run);

    QCOMPARE(j["root"].get<std::string>(), f.root().string());
    QCOMPARE(j["layout"].get<std::string>(), std::string("candle"));
    QCOMPARE(j["last"].get<int>(), 2);
    QCOMPARE(j["best"].get<int>(), 2);
    QCOMPARE(j["links"]["last"]["target"].get<std::string>(), f.epochDir(2).string());
    QCOMPARE(j["links"]["last"]["relocated"].get<bool>(), false);
    QCOMPARE(j["ckpt_log"].get<std::string>(), (f.root() / "ckpt.log").string());
    QVERIFY(j["training_log"].is_null());
    QCOMPARE(j["epochs"].size(), std::size_t(2));

    const auto& e1 = j["epochs"][0];
    QCOMPARE(e1["epoch"].get<int>(), 1);
    QCOMPARE(e1["dir"].get<std::string>(), f.epochDir(1).string());
    QCOMPARE(e1["model_bytes"].get<int>(), 10);
    // Infinity cannot be JSON: null, and keys in the file's order.
    QVERIFY(e1["info"]["best_metric_last"].is_null());
    QCOMPARE(e1["info"]["time_elapsed"].get<std::string>(), std::string("__FIRST__"));
    std::string keys;
    for (const auto& [k, v] : e1["info"].items())
        keys += k + ",";
    QCOMPARE(keys, std::string("epoch,save_best_metric,best_metric_last,model_file,checksum,"
                               "timestamp,time_elapsed,metadata,"));
    QVERIFY(e1["problems"].is_array() && e1["problems"].empty());
    QCOMPARE(j["epochs"][1]["info"]["best_metric_last"].get<double>(), 0.25);
    // The values as written travel as text beside them (for remote clients).
    QCOMPARE(e1["info_raw"]["best_metric_last"].get<std::string>(), std::string("Infinity"));
    QCOMPARE(e1["metrics_nonfinite"]["best_so_far"].get<std::string>(), std::string("Infinity"));
    // The dump is strict JSON: no bare Infinity anywhere.
    auto strict = j;
    strict["epochs"][0].erase("info_raw");
    strict["epochs"][0].erase("metrics_nonfinite");
    QVERIFY(strict.dump().find("Infinity") == std::string::npos);
    QVERIFY(nlohmann::json::accept(j.dump()));
}

void tst_RunJson::problemsAndNulls()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    CandleFixture f(base / "ckpts");
    f.addEpoch(1, 0.5);
    f.writeInfo(2, "{");
    fs::create_directories(f.root() / "work");
    CandleFixture::backdate(f.root() / "work", 3600); // a crashed save, an hour ago
    const Run run = CandleLayout::instance().loadRun(f.root());
    const auto j = RunJson::toJson(run);
    QVERIFY(j["last"].is_null());
    QVERIFY(j["best"].is_null());
    QVERIFY(j["links"].is_object() && j["links"].empty());
    QCOMPARE(j["in_progress"][0].get<std::string>(), (f.root() / "work").string());
    const auto& runProblem = j["problems"][0];
    QCOMPARE(runProblem["kind"].get<std::string>(), std::string("interrupted_save"));
    QVERIFY(runProblem["epoch"].is_null());
    QCOMPARE(runProblem["severity"].get<std::string>(), std::string("error"));
    QCOMPARE(runProblem["path"].get<std::string>(), (f.root() / "work").string());
    const auto& e2 = j["epochs"][1];
    QVERIFY(e2["info"].is_null());
    QVERIFY(e2["model_bytes"].is_null());
    QCOMPARE(e2["problems"][0]["kind"].get<std::string>(), std::string("bad_info"));
    QCOMPARE(e2["problems"][0]["epoch"].get<int>(), 2);
    QVERIFY(e2["problems"][0]["message"].get<std::string>().find("1:2") != std::string::npos);
}

void tst_RunJson::outcome()
{
    Scanner::Outcome outcome;
    Run a;
    a.root = "/x/a";
    a.layout = "candle";
    outcome.runs.push_back(a);
    outcome.walkProblems.push_back(Problem{ProblemKind::Unreadable, "m", "/x/locked", {}});
    const auto j = RunJson::toJson(outcome);
    QCOMPARE(j.begin().key(), std::string("runs"));
    QCOMPARE(j["runs"].size(), std::size_t(1));
    QCOMPARE(j["runs"][0]["root"].get<std::string>(), std::string("/x/a"));
    QCOMPARE(j["walk_problems"][0]["kind"].get<std::string>(), std::string("unreadable"));
}

void tst_RunJson::nonUtf8FileNames()
{
    QTemporaryDir tmp;
    // A Latin-1 folder name ("caf\xe9"): legal on Linux, not valid UTF-8.
    const fs::path root = fs::path(tmp.path().toStdString()) / "caf\xe9" / "ckpts";
    CandleFixture f(root);
    f.addEpoch(1, 0.5);
    f.writeInfo(2, "{");
    const Run run = CandleLayout::instance().loadRun(root);
    const auto j = RunJson::toJson(run);
    std::string dumped;
    try {
        dumped = j.dump();
    } catch (const std::exception& e) {
        QFAIL(e.what());
    }
    // QTemporaryDir cannot name the folder through QString: remove it here.
    fs::remove_all(root.parent_path());
    QVERIFY(dumped.find("caf\xef\xbf\xbd") != std::string::npos);
    QVERIFY(nlohmann::json::accept(dumped));
}

namespace {

using Json = nlohmann::ordered_json;
constexpr auto kReplace = Json::error_handler_t::replace;

// What `ckpt scan --json` prints for a run: the run's members, `extra`, then
// the epochs one per line and the problems.
std::string documentText(const Run& run, const Json& extra)
{
    Json head = RunJson::toJson(run);
    for (const auto& [key, value] : extra.items())
        head[key] = value;
    head.erase("epochs");
    head.erase("problems");
    std::string text = head.dump(-1, ' ', false, kReplace);
    text.pop_back();
    text += ",\n\"epochs\": [";
    for (std::size_t i = 0; i < run.epochs.size(); ++i) {
        text += i == 0 ? "\n" : ",\n";
        text += RunJson::toJson(run, run.epochs[i]).dump(-1, ' ', false, kReplace);
    }
    return text +
           "],\n\"problems\": " + RunJson::toJson(run.problems).dump(-1, ' ', false, kReplace) +
           "}";
}

void writeFile(const fs::path& path, const std::string& bytes)
{
    fs::create_directories(path.parent_path());
    CandleFixture::writeText(path, bytes);
}

// One folder per layout, with the values that are easy to get wrong: non-finite
// numbers, records that are not flat, escapes, non-ASCII and invalid UTF-8,
// problems, links, saves in progress.
void buildLayout(const QString& layout, const fs::path& root)
{
    if (layout == QLatin1String("candle")) {
        CandleFixture a(root / "A" / "ckpts");
        a.addEpoch(1, HUGE_VAL, 100, true);
        a.addEpoch(2, 0.5, 200);
        a.addEpoch(3, 0.4, std::nullopt);
        a.writeInfo(4, "{\"epoch\": 4, trunc");
        a.writeInfo(5,
                    R"({"epoch": 5, "best_metric_last": NaN, "metadata": "tab\there \"q\" \u00e9",
                           "extra": {"list": [1, -Infinity, 2.5e-8, "x"], "nested": {"a": null}},
                           "big": 18446744073709551615, "huge": 1e400, "neg": -0.0,
                           "minus_zero": -0, "int18": 123456789012345678, "int19": 1234567890123456789,
                           "int19neg": -923372036854775808, "min": -9223372036854775808})");
        a.writeInfo(6, "{\"epoch\": 6, \"metadata\": \"caf\xe9 \x01\x7f\", \"caf\xe9\": 1, "
                       "\"checksum\": \"__DISABLED__\", \"save_best_only\": false}");
        a.writeInfo(7,
                    R"({"epoch": 7, "epoch": 8, "model_file": "../x", "best_stat_last": "0.75"})");
        // Flat: the fast reader's record, copied out as it holds it but for the
        // non-finite numbers, must still equal the document's.
        a.writeInfo(8, R"({"epoch": 8, "best_metric_last": -Infinity, "e5": 1E5, "small": 2.5e-08,
                           "zeros": 0.1000, "big": 18446744073709551615, "neg": -0.0, "m0": -0,
                           "int19": 1234567890123456789, "nan": NaN, "inf": Infinity, "t": true,
                           "nul": null, "s": "plain", "huge": 1e400})");
        // Flat records whose numbers are the epoch's too (its best so far, its
        // elapsed time): written from the record's text, they must be what the
        // document writes for each number, whatever the record spells alike.
        a.writeInfo(11, R"({"epoch": 11, "best_metric_last": 0.25, "time_elapsed": 0.25,
                            "x": 1e16, "timestamp": "2026-11-22 13:00:11"})");
        a.writeInfo(12, R"({"epoch": 12, "best_metric_last": -0.0, "time_elapsed": 7, "y": 7.0,
                            "z": 0.0})");
        a.writeInfo(13, R"({"epoch": 13, "best_metric_last": 1e-05, "t": true,
                            "time_elapsed": 12345678901234567890.5, "w": 0.30000000000000004})");
        a.linkAbsolute("last", 2);
        a.linkRelative("best", 9);
        fs::create_directories(root / "A" / "ckpts" / "work");
        CandleFixture::writeText(root / "A" / "training.log", "epoch,loss\n0,1\n");
        // A Latin-1 folder name: legal on Linux, not valid UTF-8.
        CandleFixture b(root / "caf\xe9" / "ckpts");
        b.addEpoch(1, 0.5);
        b.addEpoch(2, -HUGE_VAL);
    } else if (layout == QLatin1String("orbax")) {
        test::OrbaxFixture o(root / "orbax");
        o.addStep(100, {{"loss", 0.5}});
        o.addStep(200, {{"loss", 0.25}, {"acc", 0.9}});
        o.writeMetadata(300, R"({"metrics": {"loss": NaN, "acc": Infinity}, "x": "\u0001"})");
        o.addTmp(400);
    } else if (layout == QLatin1String("lightning")) {
        test::LightningFixture l(root / "lightning");
        l.addCheckpoint(0, 10);
        l.addCheckpoint(1, 20);
        l.linkLast(test::LightningFixture::ckptName(1, 20));
        l.writeMetrics("epoch,step,val_loss\n0,9,0.5\n1,19,nan\n");
        l.writeHparams("lr: 0.001\nname: caf\xc3\xa9\n");
    } else if (layout == QLatin1String("mindspore")) {
        for (int e = 1; e <= 3; ++e)
            test::ProtobufFixture::write(
                root / "ms" / ("net-" + std::to_string(e) + "_10.ckpt"),
                test::ProtobufFixture::mindspore(test::ProtobufFixture::network(e, 10), e != 2));
    } else if (layout == QLatin1String("keras")) {
        // Names as ModelCheckpoint writes them; the bodies are not HDF5 (half-written saves).
        for (int e = 1; e <= 3; ++e)
            writeFile(root / "keras" /
                          ("weights.0" + std::to_string(e) + "-0.5" + std::to_string(e) + ".h5"),
                      std::string(64, 'x'));
    }
}

} // namespace

void tst_RunJson::streamedEqualsDocument_data()
{
    QTest::addColumn<QString>("layout");
    for (const char* layout : {"candle", "orbax", "lightning", "mindspore", "keras"})
        QTest::newRow(layout) << QString::fromLatin1(layout);
}

// `ckpt scan --json` prints each run an epoch at a time: the bytes must be
// those of the documents toJson builds, member for member.
void tst_RunJson::streamedEqualsDocument()
{
    QFETCH(QString, layout);
    QTemporaryDir tmp;
    const fs::path root(tmp.path().toStdString());
    buildLayout(layout, root);
    auto scanned = Scanner::scan(root);
    QVERIFY2(scanned, scanned ? "" : scanned.error().message.c_str());
    QVERIFY(!scanned->runs.empty());
    const Json extra = {{"liveness", "idle"}, {"note", "caf\xc3\xa9"}};
    for (const Run& run : scanned->runs) {
        // After what the string already holds.
        std::string appended = ",\n";
        RunJson::append(run, appended, extra);
        const std::string streamed = appended.substr(2);
        QCOMPARE(streamed, documentText(run, extra));
        if (layout == QLatin1String("candle") && run.root.ends_with("/A/ckpts")) {
            QVERIFY(streamed.find(R"("e5":100000.0,"small":2.5e-08,"zeros":0.1,)") !=
                    std::string::npos);
            QVERIFY(streamed.find(R"("info_raw":{"best_metric_last":"-Infinity","nan":"NaN",)"
                                  R"("inf":"Infinity","huge":"Infinity"})") != std::string::npos);
            QVERIFY(streamed.find(R"("metrics":{"best_so_far":-0.0},"problems")") !=
                    std::string::npos);
            QVERIFY(streamed.find(R"("elapsed":7.0,)") != std::string::npos);
            QVERIFY(streamed.find(R"("elapsed":1.2345678901234567e+19,)") != std::string::npos);
        }
        QVERIFY(nlohmann::json::accept(streamed));
    }
    // QTemporaryDir cannot name a Latin-1 folder through QString.
    fs::remove_all(root / "caf\xe9");
}

QTEST_GUILESS_MAIN(tst_RunJson)
#include "tst_RunJson.moc"
