#include "io/AtomicFile.h"
#include "launch/LaunchEvents.h"
#include "launch/LaunchRecord.h"
#include "launch/LaunchRegistry.h"
#include "launch/RunConfigFinder.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace ckpt;
namespace fs = std::filesystem;

class tst_LaunchRecord : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void roundTrip();
    void rejectsForeignAndNewerFiles();
    void events_data();
    void events();
    void registryAddsUpdatesAndForgets();
    void registryDefaultsToXdgData();
    void configFinderUsesRecordThenRegistry();
};

namespace {

LaunchRecord sampleRecord(const std::string& root)
{
    LaunchRecord rec;
    rec.runRoot = root;
    rec.name = "RUN001";
    LaunchAttempt a;
    a.index = 1;
    a.submitted = "2026-11-23T10:00:00Z";
    a.plan.runRoot = root;
    a.plan.mode = LaunchPlan::Mode::Fork;
    a.plan.backend = LaunchPlan::Backend::Slurm;
    a.plan.commandTemplate = "train --config_file {config}";
    a.plan.argv = {"train", "--config_file", "/r/c.ini"};
    a.plan.workingDir = "/r";
    a.plan.environment = {{"OMP_NUM_THREADS", "2"}};
    a.plan.configFile = "/r/c.ini";
    a.plan.parameters = {{"learning_rate", "0.0003"}, {"epochs", "10"}};
    a.plan.parent = LaunchParent{"/runs/RUN000",
                                 6,
                                 "3117815349",
                                 {{"learning_rate", "0.001", "0.0003"}, {"warmup", "", "True"}},
                                 2};
    a.plan.slurm.partition = "debug";
    a.plan.slurm.time = "00:10:00";
    a.plan.slurm.extraLines = {"--qos=low"};
    a.jobId = "42";
    a.slurmState = "COMPLETED";
    a.state = RunState::Completed;
    a.logPath = root + "/.ckpt-studio/launch/attempt-1.log";
    LaunchSegment s1;
    s1.restart = 0;
    s1.pid = 100;
    s1.host = "node1";
    s1.started = "2026-11-23T10:00:01Z";
    s1.ended = "2026-11-23T10:01:00Z";
    s1.state = RunState::Requeued;
    LaunchSegment s2 = s1;
    s2.restart = 1;
    s2.pid = 200;
    s2.exitStatus = 0;
    s2.state = RunState::Completed;
    a.segments = {s1, s2};
    rec.attempts.push_back(a);
    return rec;
}

} // namespace

void tst_LaunchRecord::roundTrip()
{
    QTemporaryDir dir;
    const std::string root = dir.path().toStdString() + "/run";
    const LaunchRecord rec = sampleRecord(root);
    QVERIFY(rec.save());
    QVERIFY(fs::exists(root + "/.ckpt-studio/launch/record.json"));
    auto loaded = LaunchRecord::load(LaunchRecord::pathFor(root));
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    QCOMPARE(loaded->toJson().dump(), rec.toJson().dump());
    const LaunchAttempt& a = loaded->attempts.front();
    QCOMPARE(a.plan.parent->epoch, 6);
    QCOMPARE(a.plan.parent->checksum, std::string("3117815349"));
    QCOMPARE(a.plan.parent->changes.size(), std::size_t(2));
    QCOMPARE(a.plan.parent->changes[0].from, std::string("0.001"));
    QCOMPARE(a.plan.parent->changes[1].key, std::string("warmup"));
    QCOMPARE(a.plan.parent->changes[1].from, std::string());
    QCOMPARE(a.plan.parent->changes[1].to, std::string("True"));
    QCOMPARE(a.plan.parent->supersededBefore, std::optional<int>(2));
    QCOMPARE(a.plan.mode, LaunchPlan::Mode::Fork);
    QCOMPARE(a.plan.slurm.extraLines, std::vector<std::string>{"--qos=low"});
    QCOMPARE(a.pids(), (std::vector<std::int64_t>{100, 200}));
    const auto json = rec.toJson();
    QCOMPARE(json["state"].get<std::string>(), std::string("completed"));
    QCOMPARE(json["attempts"][0]["pids"].size(), std::size_t{2});
    QCOMPARE(json["attempts"][0]["job_id"].get<std::string>(), std::string("42"));
}

void tst_LaunchRecord::rejectsForeignAndNewerFiles()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("record.json").toStdString();
    QVERIFY(writeFileAtomically(path, "{\"epoch\": 3}"));
    auto foreign = LaunchRecord::load(path);
    QVERIFY(!foreign);
    QVERIFY(foreign.error().message.find(path) == 0);
    QVERIFY(writeFileAtomically(path, "{\"ckpt_studio_launch_record\": 99}"));
    auto newer = LaunchRecord::load(path);
    QVERIFY(!newer);
    QVERIFY(newer.error().message.find("newer") != std::string::npos);
}

void tst_LaunchRecord::events_data()
{
    QTest::addColumn<QString>("lines");
    QTest::addColumn<QString>("states");
    QTest::addColumn<QString>("exits");
    QTest::newRow("running") << R"({"event":"start","time":100,"pid":7,"host":"h","restart":0})"
                             << "running"
                             << "-";
    QTest::newRow("completed") << R"({"event":"start","time":100,"pid":7,"host":"h","restart":0}
{"event":"exit","time":160,"pid":7,"status":0})"
                               << "completed"
                               << "0";
    QTest::newRow("failed") << R"({"event":"start","time":100,"pid":7,"host":"h","restart":0}
{"event":"exit","time":160,"pid":7,"status":3})"
                            << "failed"
                            << "3";
    QTest::newRow("killed by TERM")
        << R"({"event":"start","time":100,"pid":7,"host":"h","restart":0}
{"event":"exit","time":160,"pid":7,"status":143})"
        << "stopped"
        << "143";
    QTest::newRow("preempted and requeued")
        << R"({"event":"start","time":100,"pid":7,"host":"h","restart":0}
{"event":"preempt","time":150}
{"event":"exit","time":160,"pid":7,"status":143}
{"event":"requeue","time":161}
{"event":"start","time":300,"pid":9,"host":"h2","restart":1}
{"event":"exit","time":400,"pid":9,"status":0})"
        << "requeued,completed"
        << "143,0";
    QTest::newRow("requeued by scontrol (no exit)")
        << R"({"event":"start","time":100,"pid":7,"host":"h","restart":0}
{"event":"start","time":300,"pid":9,"host":"h","restart":1})"
        << "requeued,running"
        << "-,-";
    QTest::newRow("partial last line ignored") << "{\"event\":\"start\",\"time\":100,\"pid\":7,"
                                                  "\"host\":\"h\",\"restart\":0}\n{\"event\":\"ex"
                                               << "running"
                                               << "-";
}

void tst_LaunchRecord::events()
{
    QFETCH(QString, lines);
    QFETCH(QString, states);
    QFETCH(QString, exits);
    QTemporaryDir dir;
    const std::string path = dir.filePath("a.events").toStdString();
    std::string text = lines.toStdString();
    if (!lines.endsWith(QLatin1String("\"ex")))
        text += "\n";
    QVERIFY(writeFileAtomically(path, text));
    LaunchAttempt attempt;
    QVERIFY(LaunchEvents::apply(LaunchEvents::read(path), attempt));
    QStringList gotStates;
    QStringList gotExits;
    for (const LaunchSegment& s : attempt.segments) {
        gotStates << QString::fromLatin1(runStateName(s.state));
        gotExits << (s.exitStatus ? QString::number(*s.exitStatus) : QStringLiteral("-"));
    }
    QCOMPARE(gotStates.join(','), states);
    QCOMPARE(gotExits.join(','), exits);
    QCOMPARE(attempt.segments.front().started, isoFromUnix(100));
    // Folding the same events again changes nothing.
    QVERIFY(!LaunchEvents::apply(LaunchEvents::read(path), attempt));
}

void tst_LaunchRecord::registryAddsUpdatesAndForgets()
{
    QTemporaryDir dir;
    const fs::path file = dir.filePath("reg/launched-runs.json").toStdString();
    LaunchRegistry a(file);
    LaunchRegistry b(file); // a second process's view of the same file
    QVERIFY(a.launched()->empty());
    QVERIFY(a.addLaunched({"/runs/A/", "A", {}}));
    QVERIFY(b.addLaunched({"/runs/B", "B", {}}));
    QVERIFY(a.addLaunched({"/runs/A", "A renamed", {}}));
    auto listed = b.launched();
    QVERIFY(listed);
    QCOMPARE(listed->size(), std::size_t{2});
    QCOMPARE(listed->at(0).runRoot, std::string("/runs/A"));
    QCOMPARE(listed->at(0).name, std::string("A renamed"));
    QCOMPARE(listed->at(1).runRoot, std::string("/runs/B"));
    QVERIFY(!listed->at(0).added.empty());

    QVERIFY(a.rememberExternal({"/runs/X", "/cfg/x.ini", {}}));
    QVERIFY(b.rememberExternal({"/runs/X", {}, "python3 x.py --config_file {config}"}));
    auto x = a.external("/runs/X");
    QVERIFY(x && *x);
    QCOMPARE((*x)->configFile, std::string("/cfg/x.ini"));
    QCOMPARE((*x)->command, std::string("python3 x.py --config_file {config}"));
    QVERIFY(!*a.external("/runs/Y"));

    QVERIFY(a.forget("/runs/B"));
    QCOMPARE(b.launched()->size(), std::size_t{1});
    QVERIFY(*b.external("/runs/X")); // forgetting a launch keeps external entries
}

void tst_LaunchRecord::registryDefaultsToXdgData()
{
    const std::string path = LaunchRegistry::defaultPath().string();
    const std::string data =
        QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation).toStdString();
    QCOMPARE(path, data + "/ckpt-studio/launched-runs.json");
}

void tst_LaunchRecord::configFinderUsesRecordThenRegistry()
{
    QTemporaryDir dir;
    LaunchRegistry registry(dir.filePath("reg.json").toStdString());
    const std::string launched = dir.path().toStdString() + "/launched";
    QVERIFY(sampleRecord(launched).save());
    QCOMPARE(RunConfigFinder::configFor(launched, registry).value(), std::string("/r/c.ini"));

    const std::string external = dir.path().toStdString() + "/external";
    auto none = RunConfigFinder::configFor(external, registry);
    QVERIFY(!none);
    QVERIFY(none.error().message.find("--config") != std::string::npos);
    QVERIFY(registry.rememberExternal({external, "/cfg/e.ini", {}}));
    QCOMPARE(RunConfigFinder::configFor(external, registry).value(), std::string("/cfg/e.ini"));
}

QTEST_GUILESS_MAIN(tst_LaunchRecord)
#include "tst_LaunchRecord.moc"
