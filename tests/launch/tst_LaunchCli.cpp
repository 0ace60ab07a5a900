#include "CliRunner.h"
#include "io/AtomicFile.h"
#include "launch/Launcher.h"
#include "launch/ProcessProbe.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

// `ckpt params`, `ckpt runs`, `ckpt stop` through the real executable, with
// its registry in a private XDG data folder.
class tst_LaunchCli : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void paramsListsAFile();
    void paramsDiffIsTyped();
    void paramsMalformedValueNamesFileLineKey();
    void paramsOfARunNeedsItsConfigOnce();
    void runsListsAndStopStops();
    void aDeletedRunIsGoneNotAnError();

private:
    std::string write(const char* name, const std::string& text);
    Launcher launcher() const;

    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_LaunchCli::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    qputenv("XDG_DATA_HOME", m_dir->filePath(QStringLiteral("xdg")).toUtf8());
}

std::string tst_LaunchCli::write(const char* name, const std::string& text)
{
    const std::string path = m_dir->filePath(QString::fromLatin1(name)).toStdString();
    fs::create_directories(fs::path(path).parent_path());
    if (Status st = writeFileAtomically(path, text); !st)
        qFatal("%s", st.error().message.c_str());
    return path;
}

Launcher tst_LaunchCli::launcher() const
{
    return Launcher(LaunchRegistry(
        m_dir->filePath(QStringLiteral("xdg/ckpt-studio/launched-runs.json")).toStdString()));
}

void tst_LaunchCli::paramsListsAFile()
{
    const std::string ini =
        write("a.ini", "[Global_Params]\nepochs = 10\nlearning_rate = 1e-3\n[Extra]\nseed = 1\n");
    const CliResult r =
        runCli({QStringLiteral("params"), QString::fromStdString(ini), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const auto j = r.json();
    QCOMPARE(j["file"].get<std::string>(), ini);
    QCOMPARE(j["format"].get<std::string>(), std::string("ini"));
    QCOMPARE(j["sections"].size(), std::size_t{2});
    QCOMPARE(j["sections"][0]["parameters"][1]["key"].get<std::string>(),
             std::string("learning_rate"));
    QCOMPARE(j["sections"][0]["parameters"][1]["value"].get<double>(), 1e-3);
    QCOMPARE(j["sections"][0]["parameters"][1]["line"].get<int>(), 3);
    const CliResult text = runCli({QStringLiteral("params"), QString::fromStdString(ini)});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("[Extra]"));
    QVERIFY(text.out.contains("0.001"));
}

void tst_LaunchCli::paramsDiffIsTyped()
{
    const std::string a = write("a.ini", "[Global_Params]\nlearning_rate = 1e-3\nsave = True\n"
                                         "dense = (32, 16)\nepochs = 10\n");
    const std::string b = write("b.json", "{\"learning_rate\": 0.001, \"save\": true, "
                                          "\"dense\": [32, 16], \"epochs\": 20, \"seed\": 3}");
    const CliResult r =
        runCli({QStringLiteral("params"), QString::fromStdString(a), QStringLiteral("--diff"),
                QString::fromStdString(b), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const auto changes = r.json()["changes"];
    QCOMPARE(changes.size(), std::size_t{2});
    QCOMPARE(changes[0]["key"].get<std::string>(), std::string("epochs"));
    QCOMPARE(changes[0]["before"].get<int>(), 10);
    QCOMPARE(changes[0]["after"].get<int>(), 20);
    QCOMPARE(changes[1]["change"].get<std::string>(), std::string("added"));
    const CliResult text = runCli({QStringLiteral("params"), QString::fromStdString(a),
                                   QStringLiteral("--diff"), QString::fromStdString(b)});
    QVERIFY2(text.out.contains("2 differences"), text.out.constData());
}

void tst_LaunchCli::paramsMalformedValueNamesFileLineKey()
{
    const std::string bad = write("bad.ini", "[Global_Params]\nepochs = 10\noptimizer = adam\n");
    const CliResult r = runCli({QStringLiteral("params"), QString::fromStdString(bad)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QByteArray::fromStdString(bad + ":3: value of 'optimizer'")),
             r.err.constData());
}

void tst_LaunchCli::paramsOfARunNeedsItsConfigOnce()
{
    const std::string ini = write("cfg/x.ini", "[Global_Params]\nepochs = 7\n");
    // A launched-looking run folder without a record of ours: a CANDLE tree.
    const std::string root = m_dir->path().toStdString() + "/RUN9/ckpts";
    write("RUN9/ckpts/epochs/001/ckpt-info.json",
          "{\"epoch\": 1, \"save_best_metric\": null, \"best_metric_last\": Infinity, "
          "\"timestamp\": \"2026-11-22 13:47:07\", \"time_elapsed\": \"__FIRST__\", "
          "\"metadata\": null}");
    const QString run = QString::fromStdString(root);
    const CliResult unknown = runCli({QStringLiteral("params"), run});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("--config"), unknown.err.constData());
    const CliResult named = runCli({QStringLiteral("params"), run, QStringLiteral("--config"),
                                    QString::fromStdString(ini), QStringLiteral("--json")});
    QCOMPARE(named.exitCode, 0);
    const CliResult remembered = runCli({QStringLiteral("params"), run, QStringLiteral("--json")});
    QCOMPARE(remembered.exitCode, 0);
    QCOMPARE(remembered.json()["file"].get<std::string>(), ini);
}

void tst_LaunchCli::runsListsAndStopStops()
{
    const CliResult empty = runCli({QStringLiteral("runs")});
    QCOMPARE(empty.exitCode, 0);
    QVERIFY(empty.out.contains("no launched runs"));

    LaunchPlan plan;
    plan.runRoot = m_dir->path().toStdString() + "/exp/RUN000/ckpts";
    plan.argv = {"/bin/sh", "-c", "echo hello; exec sleep 60"};
    plan.commandTemplate = "shell:echo hello; exec sleep 60";
    plan.parent = LaunchParent{
        "/exp/PARENT/ckpts", 6, "123", {{"learning_rate", "0.01", "0.001"}}, std::nullopt};
    plan.mode = LaunchPlan::Mode::Fork;
    auto record = launcher().launch(plan);
    QVERIFY2(record, record ? "" : record.error().message.c_str());
    const std::int64_t pid = record->attempts.back().segments.front().pid;

    const CliResult listed =
        runCli({QStringLiteral("runs"), m_dir->path(), QStringLiteral("--json")});
    QCOMPARE(listed.exitCode, 0);
    const auto runs = listed.json()["runs"];
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0]["run"].get<std::string>(), plan.runRoot);
    QCOMPARE(runs[0]["state"].get<std::string>(), std::string("running"));
    QCOMPARE(runs[0]["backend"].get<std::string>(), std::string("local"));
    QCOMPARE(runs[0]["mode"].get<std::string>(), std::string("fork"));
    QCOMPARE(runs[0]["pids"][0].get<std::int64_t>(), pid);
    QVERIFY(runs[0]["job_id"].is_null());
    QCOMPARE(runs[0]["parent"]["epoch"].get<int>(), 6);
    QVERIFY(runs[0]["started"].is_string());
    const CliResult text = runCli({QStringLiteral("runs")});
    QVERIFY2(text.out.contains("running") && text.out.contains("/exp/PARENT/ckpts@6"),
             text.out.constData());
    QCOMPARE(runCli({QStringLiteral("runs"), m_dir->filePath(QStringLiteral("nowhere"))})
                 .out.contains("no launched runs"),
             true);

    const CliResult stopped =
        runCli({QStringLiteral("stop"), QString::fromStdString(plan.runRoot),
                QStringLiteral("--grace"), QStringLiteral("2"), QStringLiteral("--json")});
    QCOMPARE(stopped.exitCode, 0);
    QCOMPARE(stopped.json()["state"].get<std::string>(), std::string("stopped"));
    QCOMPARE(stopped.json()["exit_status"].get<int>(), 143);
    QVERIFY(!ProcessProbe::alive(pid));
    const CliResult again = runCli({QStringLiteral("stop"), QString::fromStdString(plan.runRoot)});
    QCOMPARE(again.exitCode, 1);
    QVERIFY(again.err.contains("nothing to stop"));

    // Forgetting takes it off the list, not off the disk.
    const QString root = QString::fromStdString(plan.runRoot);
    const CliResult forgot = runCli(
        {QStringLiteral("runs"), QStringLiteral("--forget"), root, QStringLiteral("--json")});
    QCOMPARE(forgot.exitCode, 0);
    QCOMPARE(forgot.json()["forgotten"].get<std::string>(), plan.runRoot);
    QVERIFY(runCli({QStringLiteral("runs")}).out.contains("no launched runs"));
    QVERIFY(std::filesystem::exists(LaunchRecord::pathFor(plan.runRoot)));
    const CliResult twice = runCli({QStringLiteral("runs"), QStringLiteral("--forget"), root});
    QCOMPARE(twice.exitCode, 2);
    QVERIFY2(twice.err.contains("is not in the registry"), twice.err.constData());
}

void tst_LaunchCli::aDeletedRunIsGoneNotAnError()
{
    // Two launched runs; the user deletes one's folder by hand.
    std::vector<std::string> roots;
    for (const char* name : {"RUN000", "RUN001"}) {
        LaunchPlan plan;
        plan.runRoot = m_dir->path().toStdString() + "/exp/" + name + "/ckpts";
        plan.argv = {"/bin/true"};
        plan.commandTemplate = "shell:true";
        QVERIFY(launcher().launch(plan));
        roots.push_back(plan.runRoot);
    }
    std::filesystem::remove_all(std::filesystem::path(roots[0]).parent_path());

    const CliResult text = runCli({QStringLiteral("runs"), m_dir->path()});
    QCOMPARE(text.exitCode, 0); // nothing failed to be read
    const QByteArray goneLine = QByteArray::fromStdString(roots[0]);
    QVERIFY2(text.out.contains(goneLine + "  gone"), text.out.constData());
    QVERIFY2(!text.err.contains("warning"), text.err.constData());
    QVERIFY2(text.err.contains("1 run is gone") && text.err.contains("--forget-gone"),
             text.err.constData());
    const CliResult json =
        runCli({QStringLiteral("runs"), m_dir->path(), QStringLiteral("--json")});
    QCOMPARE(json.exitCode, 0);
    const auto runs = json.json()["runs"];
    QCOMPARE(runs.size(), std::size_t{2});
    for (const auto& r : runs)
        if (r["run"] == roots[0]) {
            QCOMPARE(r["state"].get<std::string>(), std::string("gone"));
            QVERIFY(r["error"].is_null());
        }

    const CliResult forgot =
        runCli({QStringLiteral("runs"), QStringLiteral("--forget-gone"), QStringLiteral("--json")});
    QCOMPARE(forgot.exitCode, 0);
    QCOMPARE(forgot.json()["forgotten"].size(), std::size_t{1});
    QCOMPARE(forgot.json()["forgotten"][0].get<std::string>(), roots[0]);
    const CliResult after =
        runCli({QStringLiteral("runs"), m_dir->path(), QStringLiteral("--json")});
    QCOMPARE(after.json()["runs"].size(), std::size_t{1});
    QCOMPARE(after.json()["runs"][0]["run"].get<std::string>(), roots[1]);
    QVERIFY(runCli({QStringLiteral("runs"), QStringLiteral("--forget-gone")})
                .out.contains("no gone runs"));
}

QTEST_GUILESS_MAIN(tst_LaunchCli)
#include "tst_LaunchCli.moc"
