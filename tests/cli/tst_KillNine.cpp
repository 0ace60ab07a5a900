// kill -9 at random points of every write path of `ckpt`: relink, undo, repair,
// prune and restart/fork preparation (`launch --prepare-only`) run as a user runs them (the real
// binary), each killed with SIGKILL after a seeded random delay spread over the operation's own
// duration, many times. Afterwards the run must be in the state before or the state after (each
// link at its old or its new epoch, each epoch whole or gone), a later `ckpt scan` must find no
// problem that neither state has, and the next command must work (an interrupted journal entry
// recovers or rolls back). `ckpt launch --detach` killed likewise while it writes the run's
// launch record and the registry: `ckpt runs --json` still parses, no record is torn.
#include "CandleFixture.h"
#include "CliRunner.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>

using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {

// What the test compares: where the links point, which epochs are whole, which
// problem kinds a scan reports.
struct RunState
{
    std::map<std::string, int> links; // name -> epoch it resolves to (-1 dangling)
    std::set<int> epochs;             // epoch directories present
    std::set<std::string> problems;   // kinds from `ckpt scan --json`

    bool operator==(const RunState&) const = default;
};

std::string describe(const RunState& s)
{
    std::string out = "links:";
    for (const auto& [name, epoch] : s.links)
        out += " " + name + "=" + std::to_string(epoch);
    out += " epochs:";
    for (int e : s.epochs)
        out += " " + std::to_string(e);
    out += " problems:";
    for (const std::string& p : s.problems)
        out += " " + p;
    return out;
}

RunState stateOf(const fs::path& root)
{
    RunState s;
    if (!fs::exists(root)) // a fork not made (yet)
        return s;
    for (const char* name : {"last", "best"}) {
        std::error_code ec;
        const fs::path target = fs::read_symlink(root / name, ec);
        if (ec)
            continue;
        const fs::path resolved = target.is_absolute() ? target : root / target;
        s.links[name] = fs::is_directory(resolved) && fs::exists(resolved / "ckpt-info.json")
                            ? std::stoi(resolved.filename().string())
                            : -1;
    }
    for (const auto& entry : fs::directory_iterator(root / "epochs")) {
        const std::string name = entry.path().filename().string();
        if (!name.empty() && std::isdigit(static_cast<unsigned char>(name.front())))
            s.epochs.insert(std::stoi(name));
    }
    const CliResult scan = runCli({"scan", QString::fromStdString(root.string()), "--json"});
    if (scan.exitCode == 0 || scan.exitCode == 1) {
        const nlohmann::json j = scan.json();
        for (const auto& run : j["runs"]) {
            for (const auto& p : run["problems"])
                s.problems.insert(p["kind"].get<std::string>());
            for (const auto& e : run["epochs"])
                for (const auto& p : e.value("problems", nlohmann::json::array()))
                    s.problems.insert(p["kind"].get<std::string>());
        }
    } else {
        s.problems.insert("scan failed: " + scan.err.toStdString());
    }
    return s;
}

struct Operation
{
    QString name;
    QStringList arguments;                        // after RUN
    std::function<void(const fs::path&)> prepare; // turns the template into the start state
};

} // namespace

class tst_KillNine : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void killedAnywhere_data();
    void killedAnywhere();
    void launchKilledAnywhere_data();
    void launchKilledAnywhere();

private:
    QTemporaryDir m_dir;
    fs::path m_template;
    unsigned m_seed = 0;
};

void tst_KillNine::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QByteArray seed = qgetenv("CKPT_KILL_SEED");
    m_seed = seed.isEmpty() ? 20261123u : seed.toUInt();
    qInfo("seed %u (CKPT_KILL_SEED repeats a run)", m_seed);
    // Launches (and the command templates they remember) go to a registry of
    // this test's own, never the user's.
    const QByteArray xdg = QByteArray::fromStdString(m_dir.path().toStdString() + "/xdg");
    for (const char* var : {"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"})
        qputenv(var, xdg);
    // Eight epochs with 256 KiB models, CANDLE's absolute links: last at 8, best at 6.
    m_template = fs::path(m_dir.path().toStdString()) / "template" / "ckpts";
    CandleFixture f(m_template);
    for (int e = 1; e <= 8; ++e)
        f.addEpoch(e, e <= 6 ? 1.0 / e : 0.5, 256 * 1024, e == 1);
    f.linkAbsolute("last", 8);
    f.linkAbsolute("best", 6);
    CandleFixture::writeText(m_template / "ckpt.log", "");
}

void tst_KillNine::killedAnywhere_data()
{
    QTest::addColumn<QString>("op");
    QTest::newRow("relink last") << "relink-last";
    QTest::newRow("relink best") << "relink-best";
    QTest::newRow("undo") << "undo";
    QTest::newRow("repair all") << "repair";
    QTest::newRow("prune") << "prune";
    QTest::newRow("restart") << "restart";
    QTest::newRow("restart past best") << "restart-past-best";
    QTest::newRow("fork") << "fork";
}

void tst_KillNine::killedAnywhere()
{
    QFETCH(QString, op);
    const auto argsFor = [](const fs::path& root, QStringList args) {
        args.replaceInStrings("{run.ini}",
                              QString::fromStdString((root.parent_path() / "run.ini").string()));
        return QStringList{args.front(), QString::fromStdString(root.string())} + args.mid(1);
    };
    const auto run = [&](const fs::path& root, const QStringList& args) {
        return runCli(argsFor(root, args));
    };
    std::map<QString, Operation> ops;
    ops["relink-last"] = {op, {"relink", "--last", "5"}, {}};
    ops["relink-best"] = {op, {"relink", "--best", "3"}, {}};
    ops["undo"] = {op, {"relink", "--undo"}, [&](const fs::path& root) {
                       QCOMPARE(run(root, {"relink", "--last", "4"}).exitCode, 0);
                   }};
    ops["repair"] = {op, {"relink", "--repair", "all"}, [](const fs::path& root) {
                         // A moved run: absolute links into where it used to be.
                         for (const char* name : {"last", "best"}) {
                             const fs::path link = root / name;
                             const fs::path old = fs::read_symlink(link);
                             fs::remove(link);
                             fs::create_directory_symlink(fs::path("/nonexistent/moved") / "ckpts" /
                                                              "epochs" / old.filename(),
                                                          link);
                         }
                     }};
    ops["prune"] = {op, {"prune", "--keep-limit", "2", "--yes"}, {}};
    // Restart and fork preparation as `ckpt launch --prepare-only` applies it
    // (epochs moved aside, links, the edited config; a fork's new folder).
    const auto launch = [](const QString& from, bool fork) {
        QStringList args{"launch", "--from", from};
        if (fork)
            args << "--fork";
        return args + QStringList{"--config",       "{run.ini}", "--set",     "learning_rate=0.002",
                                  "--prepare-only", "--",        "/bin/true", "{config}"};
    };
    ops["restart"] = {op, launch("6", false), {}};
    ops["restart-past-best"] = {op, launch("3", false), {}};
    ops["fork"] = {op, launch("3", true), {}};
    const Operation& o = ops.at(op);
    // What is looked at: the run itself, or the fork's new folder beside it.
    const auto watched = [&](const fs::path& root) {
        return op == "fork" ? root.parent_path().parent_path() /
                                  (root.parent_path().filename().string() + "-fork-e003") / "ckpts"
                            : root;
    };

    int made = 0;
    const auto fresh = [&]() {
        const fs::path root = fs::path(m_dir.path().toStdString()) /
                              (op.toStdString() + "-" + std::to_string(made++)) / "ckpts";
        fs::create_directories(root.parent_path());
        fs::copy(m_template, root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        CandleFixture::writeText(root.parent_path() / "run.ini",
                                 "[Global_Params]\nlearning_rate = 0.01\nepochs = 8\n");
        if (o.prepare)
            o.prepare(root);
        return root;
    };

    // The two states allowed afterwards, and how long the whole operation takes.
    const fs::path beforeRoot = fresh();
    const RunState before = stateOf(watched(beforeRoot));
    const fs::path afterRoot = fresh();
    QElapsedTimer clock;
    clock.start();
    const CliResult full = run(afterRoot, o.arguments);
    const qint64 fullUs = clock.nsecsElapsed() / 1000;
    QVERIFY2(full.exitCode == 0, full.err.constData());
    const RunState after = stateOf(watched(afterRoot));
    QVERIFY2(!(before == after), "the operation changed nothing");

    std::mt19937 rng(m_seed ^ static_cast<unsigned>(qHash(op)));
    const int iterations = qEnvironmentVariableIntValue("CKPT_KILL_ITERATIONS") > 0
                               ? qEnvironmentVariableIntValue("CKPT_KILL_ITERATIONS")
                               : 40;
    // Most of a run is start-up (loading libraries): aim at the rest, where the
    // files change, with some margin on both sides.
    std::vector<qint64> startups;
    for (int i = 0; i < 3; ++i) {
        clock.restart();
        (void)runCli({"--version"});
        startups.push_back(clock.nsecsElapsed() / 1000);
    }
    std::sort(startups.begin(), startups.end());
    const qint64 startupUs = std::min(startups[1], fullUs);
    // The window narrows onto where the files change: a kill after the end
    // lowers its top, one that found the run untouched raises its bottom.
    qint64 lo = startupUs * 4 / 5;
    qint64 hi = fullUs * 6 / 5;
    int killedMidway = 0;
    int endedBefore = 0, endedAfter = 0, endedBetween = 0;
    for (int i = 0; i < iterations; ++i) {
        const fs::path root = fresh();
        QProcess p;
        p.setProgram(cliPath());
        p.setArguments(argsFor(root, o.arguments));
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.setStandardOutputFile(QProcess::nullDevice());
        const qint64 waitUs = std::uniform_int_distribution<qint64>(lo, std::max(lo, hi))(rng);
        p.start();
        QVERIFY(p.waitForStarted());
        QThread::usleep(static_cast<unsigned long>(waitUs));
        const bool wasRunning = p.state() == QProcess::Running;
        p.kill();
        QVERIFY(p.waitForFinished(10000));
        const bool killed = wasRunning && p.exitStatus() == QProcess::CrashExit;
        killedMidway += killed;
        if (!killed)
            hi = std::max(lo + 1000, waitUs);

        const RunState now = stateOf(watched(root));
        if (killed && now == before)
            lo = std::min(hi - 1000, (lo + waitUs) / 2);
        (now == before ? endedBefore : now == after ? endedAfter : endedBetween) += 1;
        const QByteArray where =
            QByteArray("iteration ") + QByteArray::number(i) + ", killed after " +
            QByteArray::number(waitUs) + " us: " + describe(now).c_str() +
            "\n  before: " + describe(before).c_str() + "\n  after:  " + describe(after).c_str();
        // A fork's folder appears whole or not at all.
        if (op == "fork")
            QVERIFY2(now == before || now == after, where.constData());
        for (const auto& [name, epoch] : now.links) {
            const bool old = before.links.count(name) && before.links.at(name) == epoch;
            const bool done = after.links.count(name) && after.links.at(name) == epoch;
            // A restart past best walks best down through the epochs it passes,
            // always at the best one still there (the scan below finds no problem).
            const bool walking = op == "restart-past-best" && name == "best" &&
                                 epoch > after.links.at(name) && epoch < before.links.at(name) &&
                                 now.epochs.count(epoch);
            QVERIFY2(old || done || walking, where.constData());
        }
        if (op != "fork") { // epochs only go (prune, restart), links are only re-pointed
            QCOMPARE(now.links.size(), before.links.size());
            for (int e : now.epochs)
                QVERIFY2(before.epochs.count(e), where.constData());
            for (int e : after.epochs)
                QVERIFY2(now.epochs.count(e), where.constData());
        }
        // One window is left: between re-pointing best at the best epoch that
        // stays and moving the better one past it aside (the other order would
        // leave best dangling), a scan rightly says best_not_at_best; the same
        // restart run again (below) finishes it.
        const bool bestStep = op == "restart-past-best" && !(now == before) && !(now == after);
        for (const std::string& kind : now.problems)
            QVERIFY2(before.problems.count(kind) || after.problems.count(kind) ||
                         (bestStep && kind == "best_not_at_best"),
                     where.constData());

        // The next command works on what was left: the operation run again ends
        // in the after state (a prune also removes what an interrupted one left).
        const CliResult again = run(root, o.arguments);
        // (Nothing left to undo or repair is refused, rightly, once it is all done.)
        QVERIFY2(again.exitCode == 0 || now == after,
                 (where + "\n  again: " + again.err).constData());
        if (op != "undo")
            QVERIFY2(stateOf(watched(root)) == after,
                     (where + "\n  again: " + again.err).constData());
        if (op == "fork") // what a killed fork left aside is gone once the next one is made
            for (const auto& entry : fs::directory_iterator(root.parent_path().parent_path()))
                QVERIFY2(entry.path().filename().string().find(".forking-") == std::string::npos,
                         (where + "\n  left: " + entry.path().string().c_str()).constData());
        if (op.startsWith("restart") || op == "fork") // the parent of a fork is never changed
            QVERIFY2(op != "fork" || stateOf(root) == stateOf(beforeRoot), where.constData());
    }
    qInfo("%s: %d of %d kills landed while ckpt ran (the whole operation takes %lld us, "
          "start-up %lld us); left as before %d, as after %d, part-way (epoch by epoch) %d",
          qPrintable(op), killedMidway, iterations, static_cast<long long>(fullUs),
          static_cast<long long>(startupUs), endedBefore, endedAfter, endedBetween);
    QVERIFY(killedMidway > 0);
}

void tst_KillNine::launchKilledAnywhere_data()
{
    QTest::addColumn<bool>("fork");
    QTest::newRow("restart") << false;
    QTest::newRow("fork") << true;
}

// `ckpt launch --detach` (local backend, a trainer that exits at once) killed
// anywhere: while it prepares, starts the supervisor, writes the run's
// record.json or adds the run to the registry.
void tst_KillNine::launchKilledAnywhere()
{
    QFETCH(bool, fork);
    const fs::path base = fs::path(m_dir.path().toStdString());
    const fs::path registry = base / "xdg" / "ckpt-studio" / "launched-runs.json";
    int made = 0;
    const auto fresh = [&]() {
        const fs::path root =
            base / ((fork ? "launch-fork-" : "launch-restart-") + std::to_string(made++)) / "ckpts";
        fs::create_directories(root.parent_path());
        fs::copy(m_template, root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        CandleFixture::writeText(root.parent_path() / "run.ini",
                                 "[Global_Params]\nlearning_rate = 0.01\nepochs = 8\n");
        return root;
    };
    const auto argsFor = [&](const fs::path& root) {
        QStringList args{"launch", QString::fromStdString(root.string()), "--from",
                         fork ? "3" : "6"};
        if (fork)
            args << "--fork";
        return args +
               QStringList{
                   "--config",  QString::fromStdString((root.parent_path() / "run.ini").string()),
                   "--set",     "learning_rate=0.002",
                   "--detach",  "--",
                   "/bin/true", "{config}"};
    };
    const auto watched = [&](const fs::path& root) {
        return fork ? root.parent_path().parent_path() /
                          (root.parent_path().filename().string() + "-fork-e003") / "ckpts"
                    : root;
    };
    const auto parses = [](const fs::path& file) {
        std::error_code ec;
        return !fs::exists(file, ec) ||
               !nlohmann::json::parse(CandleFixture::readText(file), nullptr, false).is_discarded();
    };

    const RunState before = stateOf(watched(fresh()));
    const fs::path afterRoot = fresh();
    QElapsedTimer clock;
    clock.start();
    const CliResult full = runCli(argsFor(afterRoot));
    const qint64 fullUs = clock.nsecsElapsed() / 1000;
    QVERIFY2(full.exitCode == 0, full.err.constData());
    const RunState after = stateOf(watched(afterRoot));
    std::vector<qint64> startups;
    for (int i = 0; i < 3; ++i) {
        clock.restart();
        (void)runCli({"--version"});
        startups.push_back(clock.nsecsElapsed() / 1000);
    }
    std::sort(startups.begin(), startups.end());
    const qint64 lo = std::min(startups[1], fullUs) * 4 / 5;
    const qint64 hi = std::max(lo + 1000, fullUs * 6 / 5);

    std::mt19937 rng(m_seed ^ (fork ? 0x5f0u : 0x5e5u));
    const int iterations = qEnvironmentVariableIntValue("CKPT_KILL_ITERATIONS") > 0
                               ? qEnvironmentVariableIntValue("CKPT_KILL_ITERATIONS")
                               : 25;
    int killedMidway = 0, listed = 0;
    for (int i = 0; i < iterations; ++i) {
        const fs::path root = fresh();
        QProcess p;
        p.setProgram(cliPath());
        p.setArguments(argsFor(root));
        p.setStandardOutputFile(QProcess::nullDevice());
        p.setStandardErrorFile(QProcess::nullDevice());
        // Every other kill aims at the last part, where the record and the
        // registry are written.
        const qint64 from = i % 2 ? std::max(lo, fullUs * 7 / 10) : lo;
        const qint64 waitUs = std::uniform_int_distribution<qint64>(from, hi)(rng);
        p.start();
        QVERIFY(p.waitForStarted());
        QThread::usleep(static_cast<unsigned long>(waitUs));
        const bool wasRunning = p.state() == QProcess::Running;
        p.kill();
        QVERIFY(p.waitForFinished(10000));
        killedMidway += wasRunning && p.exitStatus() == QProcess::CrashExit;

        const fs::path run = watched(root);
        const fs::path record = run / ".ckpt-studio" / "launch" / "record.json";
        const RunState now = stateOf(run);
        const QByteArray where =
            QByteArray("iteration ") + QByteArray::number(i) + ", killed after " +
            QByteArray::number(waitUs) + " us: " + describe(now).c_str() +
            "\n  before: " + describe(before).c_str() + "\n  after:  " + describe(after).c_str();
        // Written whole or not at all: the registry and the record parse.
        QVERIFY2(parses(registry), (where + "\n  torn registry").constData());
        QVERIFY2(parses(record), (where + "\n  torn record").constData());
        const CliResult runs = runCli({"runs", "--json"});
        QVERIFY2(runs.exitCode == 0 || runs.exitCode == 1, (where + "\n" + runs.err).constData());
        const nlohmann::json j = nlohmann::json::parse(runs.out.toStdString(), nullptr, false);
        QVERIFY2(!j.is_discarded(), (where + "\n" + runs.out).constData());
        for (const auto& r : j["runs"]) {
            if (r["run"].get<std::string>() != run.string())
                continue;
            ++listed; // listed only once recorded: the record is there and read
            QVERIFY2(fs::exists(record) && r["error"].is_null(),
                     (where + "\n" + QByteArray::fromStdString(r.dump())).constData());
        }
        // A trainer that started is listed (its supervisor wrote the start
        // event): never one that no record names.
        const fs::path events = run / ".ckpt-studio" / "launch" / "attempt-1.events";
        std::error_code ec;
        if (fs::file_size(events, ec) > 0 && !ec)
            QVERIFY2(runs.out.contains(QByteArray::fromStdString("\"" + run.string() + "\"")),
                     (where + "\n  a started trainer is not listed:\n" + runs.out).constData());
        // The run as it was or as launched (a restart: epoch by epoch between).
        if (fork)
            QVERIFY2(now == before || now == after, where.constData());
        for (const auto& [name, epoch] : now.links)
            QVERIFY2((before.links.count(name) && before.links.at(name) == epoch) ||
                         (after.links.count(name) && after.links.at(name) == epoch),
                     where.constData());
        for (int e : after.epochs)
            QVERIFY2(fork || now.epochs.count(e), where.constData());
        for (const std::string& kind : now.problems)
            QVERIFY2(before.problems.count(kind) || after.problems.count(kind), where.constData());
    }
    qInfo("launch %s: %d of %d kills landed while ckpt ran (%lld us in all), %d runs listed",
          fork ? "fork" : "restart", killedMidway, iterations, static_cast<long long>(fullUs),
          listed);
    QVERIFY(killedMidway > 0);
}

QTEST_GUILESS_MAIN(tst_KillNine)
#include "tst_KillNine.moc"
