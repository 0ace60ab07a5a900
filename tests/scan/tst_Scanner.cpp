#include "CandleFixture.h"
#include "UnprivilegedScope.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"

#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <map>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace ckpt;
using test::CandleFixture;
using test::UnprivilegedScope;
namespace fs = std::filesystem;

namespace {

void makeRun(const fs::path& root, int epochs = 3)
{
    CandleFixture f(root);
    for (int e = 1; e <= epochs; ++e)
        f.addEpoch(e, 1.0 / e, 32, e == 1);
    f.linkAbsolute("last", epochs);
    f.linkAbsolute("best", epochs);
}

QString roots(const Scanner::Outcome& outcome, const fs::path& base)
{
    QStringList items;
    for (const auto& run : outcome.runs)
        items << QString::fromStdString(fs::path(run.root).lexically_relative(base).string());
    return items.join(';');
}

} // namespace

class tst_Scanner : public QObject
{
    Q_OBJECT
private slots:
    void discovery_data();
    void discovery();
    void badFilesDoNotStopTheScan();
    void unreadableSubfolder();
    void errors();
    void onRunAndProgress();
    void cancel();
    void sameResultOnAnyThreadCount();
    void consumeTakesEachRunOnce();
};

void tst_Scanner::discovery_data()
{
    QTest::addColumn<QStringList>("runs"); // run roots to create, relative to base
    QTest::addColumn<QString>("drop");     // the folder dropped, relative to base
    QTest::addColumn<int>("maxDepth");
    QTest::addColumn<QString>("expected"); // roots found, relative to base, sorted

    const QStringList gen1{"exp/run/node01/save/ckpts", "exp/run/node02/save/ckpts"};
    const QStringList gen2{"Output/EXP000/RUN000/ckpts", "Output/EXP000/RUN001/ckpts",
                           "Output/EXP001/RUN000/ckpts"};
    const QStringList gen3{"out/ckpts"};
    QTest::newRow("gen 1: .../run/<node>/save/ckpts") << gen1 << "." << 64 << gen1.join(';');
    QTest::newRow("gen 2: Output/EXP/RUN/ckpts") << gen2 << "." << 64 << gen2.join(';');
    QTest::newRow("gen 3: <out>/ckpts") << gen3 << "." << 64 << gen3.join(';');
    QStringList all = gen1 + gen2 + gen3;
    all.sort();
    QTest::newRow("all generations, deep") << (gen3 + gen1 + gen2) << "." << 64 << all.join(';');
    QTest::newRow("nothing") << QStringList{} << "." << 64 << "";
    QTest::newRow("dropped the run root") << gen3 << "out/ckpts" << 64 << "out/ckpts";
    QTest::newRow("dropped epochs/") << gen3 << "out/ckpts/epochs" << 64 << "out/ckpts";
    QTest::newRow("dropped epochs/002") << gen3 << "out/ckpts/epochs/002" << 64 << "out/ckpts";
    QTest::newRow("dropped a sibling of the run")
        << QStringList{"a/ckpts", "b/ckpts"} << "b" << 64 << "b/ckpts";
    QTest::newRow("maxDepth reached") << QStringList{"a/b/c/ckpts"} << "." << 3 << "";
    QTest::newRow("maxDepth just enough")
        << QStringList{"a/b/c/ckpts"} << "." << 4 << "a/b/c/ckpts";
    QTest::newRow("a fork being made aside (or a killed one's leftover) is not a run")
        << QStringList{"RUN/ckpts", ".RUN-fork-e003.forking-4242/ckpts"} << "." << 64
        << "RUN/ckpts";
    QTest::newRow("other hidden folders are")
        << QStringList{".hidden/ckpts"} << "." << 64 << ".hidden/ckpts";
    QTest::newRow("run inside a run's folder, not in epochs/")
        << QStringList{"out/ckpts", "out/ckpts/sub"} << "." << 64 << "out/ckpts;out/ckpts/sub";
}

void tst_Scanner::discovery()
{
    QFETCH(QStringList, runs);
    QFETCH(QString, drop);
    QFETCH(int, maxDepth);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    for (const QString& r : runs)
        makeRun(base / r.toStdString());
    // Decoys the walk must not be fooled by: an epochs/ without digit dirs, and
    // an epoch holding something that looks like a run (never descended into).
    fs::create_directories(base / "decoy" / "epochs" / "tmp");
    if (!runs.isEmpty())
        makeRun(base / runs.front().toStdString() / "epochs" / "001" / "inner");

    Scanner::Options options;
    options.maxDepth = maxDepth;
    auto result = Scanner::scan(base / drop.toStdString(), options);
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    QCOMPARE(roots(*result, base), expected);
    QVERIFY(result->walkProblems.empty());
    for (const auto& run : result->runs) {
        QCOMPARE(run.epochs.size(), std::size_t(3));
        QVERIFY(run.allProblems().empty());
    }
}

void tst_Scanner::badFilesDoNotStopTheScan()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    makeRun(base / "a" / "ckpts");
    makeRun(base / "b" / "ckpts");
    CandleFixture b(base / "b" / "ckpts");
    b.writeInfo(2, "{\"epoch\": 2, \"best_metric_last\": Infinity,");
    // Symlink loops: a directory link to an ancestor and one to itself.
    fs::create_directory_symlink(base, base / "a" / "loop");
    fs::create_symlink("self", base / "b" / "self");
    // A link to a run outside the dropped folder is not followed either.
    QTemporaryDir outside;
    makeRun(fs::path(outside.path().toStdString()) / "ckpts");
    fs::create_directory_symlink(outside.path().toStdString(), base / "elsewhere");

    auto result = Scanner::scan(base);
    QVERIFY(result.ok());
    QCOMPARE(roots(*result, base), QString("a/ckpts;b/ckpts"));
    const Run& bad = result->runs[1];
    QCOMPARE(bad.epochs.size(), std::size_t(3));
    QVERIFY(!bad.epochs[1].hasRecord());
    QCOMPARE(bad.epochs[1].problems.size(), std::size_t(1));
    QVERIFY(bad.epochs[1].problems[0].kind == ProblemKind::BadInfo);
    const std::string& message = bad.epochs[1].problems[0].message;
    QVERIFY2(message.find((b.epochDir(2) / "ckpt-info.json").string() +
                          ": unexpected end of file at 1:43 (truncated?)") != std::string::npos,
             message.c_str());
}

void tst_Scanner::unreadableSubfolder()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    makeRun(base / "a" / "ckpts");
    makeRun(base / "locked" / "ckpts");
    makeRun(base / "shut" / "ckpts");
    ::chmod((base / "locked").c_str(), 0);
    // A run whose epochs/ cannot be read is still found, with the problem on it.
    ::chmod((base / "shut" / "ckpts" / "epochs").c_str(), 0);
    UnprivilegedScope asUser(base);
    QVERIFY2(asUser.ok(), asUser.error().c_str());
    auto result = Scanner::scan(base);
    asUser.restore();
    ::chmod((base / "locked").c_str(), 0755);
    ::chmod((base / "shut" / "ckpts" / "epochs").c_str(), 0755);
    QVERIFY(result.ok());
    QCOMPARE(roots(*result, base), QString("a/ckpts;shut/ckpts"));
    const Run& shut = result->runs[1];
    QVERIFY(shut.epochs.empty());
    QCOMPARE(shut.problems.size(), std::size_t(3)); // epochs/ unreadable, last and best too
    QVERIFY(shut.problems[0].kind == ProblemKind::Unreadable);
    QCOMPARE(shut.problems[0].path, (base / "shut" / "ckpts" / "epochs").string());
    QCOMPARE(result->walkProblems.size(), std::size_t(1));
    QVERIFY(result->walkProblems[0].kind == ProblemKind::Unreadable);
    QCOMPARE(result->walkProblems[0].path, (base / "locked").string());
    QVERIFY(result->walkProblems[0].message.find("Permission denied") != std::string::npos);
}

void tst_Scanner::errors()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    auto missing = Scanner::scan(base / "nope");
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().message, (base / "nope").string() + ": no such folder");
    CandleFixture::writeText(base / "file", "x");
    auto file = Scanner::scan(base / "file");
    QVERIFY(!file.ok());
    QVERIFY(file.error().message.starts_with((base / "file").string() + ": not a folder"));
    // A relative path is made absolute against the working directory.
    makeRun(base / "ckpts");
    const fs::path cwd = fs::current_path();
    fs::current_path(base);
    auto relative = Scanner::scan("ckpts");
    fs::current_path(cwd);
    QVERIFY(relative.ok());
    QCOMPARE(relative->runs.size(), std::size_t(1));
    QCOMPARE(relative->runs[0].root, (base / "ckpts").string());
}

void tst_Scanner::onRunAndProgress()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    for (int i = 0; i < 8; ++i)
        makeRun(base / ("r" + std::to_string(i)) / "ckpts", 2 + i);

    std::atomic_int inside{0};
    std::atomic_bool overlapped{false};
    int calls = 0;
    std::vector<ProgressUpdate> updates;
    Progress progress([&](const ProgressUpdate& u) { updates.push_back(u); });
    Scanner::Options options;
    options.threads = 4;
    auto result = Scanner::scan(base, options, progress, [&](const Run&) {
        if (inside.fetch_add(1) != 0)
            overlapped = true;
        ++calls;
        std::this_thread::yield();
        inside.fetch_sub(1);
    });
    QVERIFY(result.ok());
    QVERIFY(!overlapped);
    QCOMPARE(calls, 8);
    QCOMPARE(result->runs.size(), std::size_t(8));
    std::uint64_t lastRuns = 0, lastEpochs = 0;
    for (const auto& u : updates) {
        if (u.unit == "runs") {
            QCOMPARE(u.done, lastRuns + 1);
            lastRuns = u.done;
        } else {
            QCOMPARE(QString::fromStdString(u.unit), QString("epochs"));
            QVERIFY(u.done > lastEpochs);
            lastEpochs = u.done;
        }
    }
    QCOMPARE(lastRuns, std::uint64_t(8));
    QCOMPARE(lastEpochs, std::uint64_t(2 + 3 + 4 + 5 + 6 + 7 + 8 + 9));
}

void tst_Scanner::cancel()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    for (int i = 0; i < 4; ++i)
        makeRun(base / ("r" + std::to_string(i)) / "ckpts");
    std::atomic_bool cancelFlag{true};
    Progress cancelled({}, &cancelFlag);
    auto before = Scanner::scan(base, Scanner::Options{}, cancelled);
    QVERIFY(!before.ok());
    QVERIFY(before.error().message.find("cancelled") != std::string::npos);

    std::atomic_bool later{false};
    Progress cancelLater([](const ProgressUpdate&) {}, &later);
    auto during =
        Scanner::scan(base, Scanner::Options{}, cancelLater, [&](const Run&) { later = true; });
    QVERIFY(!during.ok());
    QVERIFY(during.error().message.find("cancelled") != std::string::npos);
}

void tst_Scanner::sameResultOnAnyThreadCount()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    for (int i = 0; i < 6; ++i)
        makeRun(base / ("r" + std::to_string(i)) / "save" / "ckpts", 3 + i);
    CandleFixture(base / "r2" / "save" / "ckpts").writeInfo(1, "garbage");
    Scanner::Options one;
    one.threads = 1;
    Scanner::Options many;
    many.threads = 5;
    auto a = Scanner::scan(base, one);
    auto b = Scanner::scan(base, many);
    QVERIFY(a.ok() && b.ok());
    QCOMPARE(RunJson::toJson(*a).dump(), RunJson::toJson(*b).dump());
}

// With `consume`, runs are handed over as they load and not kept; `rootsFound`
// gives every root, sorted, before the last run is loaded. The runs handed over
// equal those a plain scan returns.
void tst_Scanner::consumeTakesEachRunOnce()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    for (const char* name : {"b", "a", "a/x", "a-2"})
        makeRun(base / name / "ckpts", std::string(name) == "a-2" ? 300 : 2);
    const auto plain = Scanner::scan(base);
    QVERIFY(plain.ok());
    QCOMPARE(plain->runs.size(), std::size_t(4));

    std::mutex mutex;
    std::map<std::string, std::string> consumed; // root -> the run as JSON
    std::vector<std::string> found;
    std::size_t consumedWhenFound = 0;
    int rootsCalls = 0;
    Scanner::Options options;
    options.threads = 3;
    options.consume = [&](Run&& run) {
        const std::string json = RunJson::toJson(run).dump();
        std::lock_guard lock(mutex);
        QVERIFY(consumed.emplace(run.root, json).second);
    };
    options.rootsFound = [&](const std::vector<std::string>& roots) {
        std::lock_guard lock(mutex);
        ++rootsCalls;
        found = roots;
        consumedWhenFound = consumed.size();
    };
    int onRunCalls = 0;
    auto result = Scanner::scan(base, options, Progress::none(), [&](const Run&) { ++onRunCalls; });
    QVERIFY(result.ok());
    QVERIFY(result->runs.empty());
    QCOMPARE(onRunCalls, 0);
    QCOMPARE(rootsCalls, 1);
    QVERIFY(consumedWhenFound < 4); // the 300-epoch run was still loading
    std::vector<std::string> sorted;
    for (const Run& run : plain->runs)
        sorted.push_back(run.root);
    QCOMPARE(found, sorted);
    QCOMPARE(consumed.size(), std::size_t(4));
    for (const Run& run : plain->runs)
        QCOMPARE(consumed[run.root], RunJson::toJson(run).dump());

    // A run dropped by name goes the same way.
    std::vector<std::string> one;
    consumed.clear();
    options.rootsFound = [&](const std::vector<std::string>& roots) { one = roots; };
    auto single = Scanner::scan(base / "a-2" / "ckpts" / "epochs", options);
    QVERIFY(single.ok());
    QVERIFY(single->runs.empty());
    QCOMPARE(one, std::vector<std::string>{(base / "a-2" / "ckpts").string()});
    QCOMPARE(consumed.size(), std::size_t(1));
}

QTEST_GUILESS_MAIN(tst_Scanner)
#include "tst_Scanner.moc"
