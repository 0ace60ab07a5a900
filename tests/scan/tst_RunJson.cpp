#include "CandleFixture.h"
#include "candle/CandleLayout.h"
#include "report/RunJson.h"

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

QTEST_GUILESS_MAIN(tst_RunJson)
#include "tst_RunJson.moc"
