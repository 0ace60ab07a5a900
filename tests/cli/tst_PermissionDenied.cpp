// Every write path of `ckpt` where the user may not write (EACCES): a folder
// made 0555 or a file made 0444 in the run, in its .ckpt-studio/, where a fork
// goes, in the launch registry. Root is never denied, so as root the tree is
// handed to nobody and the real `ckpt` runs as nobody (setpriv): CI runs these
// rows, they never skip. Each operation fails with a message naming the file
// and "Permission denied", leaves the tree exactly as it was (no temporary
// file, no link moved; a lock and whole journal lines aside), and the same
// command works once the permission is back.
#include "CandleFixture.h"
#include "CliRunner.h"
#include "FileTree.h"
#include "UnprivilegedScope.h"
#include "VerifyCacheCase.h"
#include "candle/CandleLayout.h"
#include "checksum/Verifier.h"
#include "checksum/VerifyStore.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace ckpt::test;
namespace fs = std::filesystem;

class tst_PermissionDenied : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void writesFailCleanly_data();
    void writesFailCleanly();
    void verifyCacheFailsCleanly();

private:
    QTemporaryDir m_dir;
    fs::path m_base;
    int m_rows = 0;
};

void tst_PermissionDenied::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_base = fs::path(m_dir.path().toStdString());
}

void tst_PermissionDenied::writesFailCleanly_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("denied");   // relative to the row's folder
    QTest::addColumn<bool>("bookkeeping"); // .ckpt-studio/ made before
    const auto row = [](const char* name, const char* op, const char* denied, bool made) {
        QTest::newRow(name) << QString::fromLatin1(op) << QString::fromLatin1(denied) << made;
    };
    row("relink, run folder", "relink", "RUN/ckpts", true);
    row("relink, no .ckpt-studio yet", "relink", "RUN/ckpts", false);
    row("relink, .ckpt-studio", "relink", "RUN/ckpts/.ckpt-studio", true);
    row("relink, ckpt.log", "relink", "RUN/ckpts/ckpt.log", true);
    row("relink, journal", "relink", "RUN/ckpts/.ckpt-studio/journal.jsonl", true);
    row("undo, run folder", "undo", "RUN/ckpts", true);
    row("repair, run folder", "repair", "RUN/ckpts", true);
    row("prune, epochs", "prune", "RUN/ckpts/epochs", true);
    row("prune, .ckpt-studio", "prune", "RUN/ckpts/.ckpt-studio", true);
    row("restart, run folder", "restart", "RUN/ckpts", true);
    row("restart, .ckpt-studio", "restart", "RUN/ckpts/.ckpt-studio", true);
    row("restart, configs", "restart", "RUN/ckpts/.ckpt-studio/configs", true);
    row("restart, epochs", "restart", "RUN/ckpts/epochs", true);
    row("fork, parent folder", "fork", ".", true);
    row("fork, --into folder", "fork-into", "into", true);
    row("launch, record", "launch", "RUN/ckpts/.ckpt-studio/launch", true);
    row("launch, registry", "launch", "xdg/ckpt-studio", true);
}

void tst_PermissionDenied::writesFailCleanly()
{
    QFETCH(QString, op);
    QFETCH(QString, denied);
    QFETCH(bool, bookkeeping);
    const fs::path base = m_base / ("row" + std::to_string(m_rows++));
    const fs::path root = base / "RUN" / "ckpts";
    CandleFixture f(root);
    for (int e = 1; e <= 5; ++e)
        f.addEpoch(e, 1.0 / e, 16 * 1024, e == 1);
    f.linkAbsolute("last", 5);
    f.linkAbsolute("best", 5);
    CandleFixture::writeText(root / "ckpt.log", "");
    if (bookkeeping) {
        fs::create_directories(root / ".ckpt-studio" / "configs");
        fs::create_directories(root / ".ckpt-studio" / "launch");
        CandleFixture::writeText(root / ".ckpt-studio" / "journal.jsonl", "");
    }
    fs::create_directories(base / "into");
    fs::create_directories(base / "xdg" / "ckpt-studio");
    CandleFixture::writeText(base / "xdg" / "ckpt-studio" / "launched-runs.json",
                             "{\"launched\": [], \"external\": []}\n");
    const fs::path config = base / "RUN" / "run.ini";
    CandleFixture::writeText(config, "[Global_Params]\nlearning_rate = 0.01\nepochs = 5\n");
    // The registry and caches of this row, never the user's.
    for (const char* var : {"XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"})
        qputenv(var, QByteArray::fromStdString((base / "xdg").string()));

    const QString r = QString::fromStdString(root.string());
    const QStringList launch = {"--config", QString::fromStdString(config.string()), "--set",
                                "learning_rate=0.002"};
    const QStringList trainer = {"--", "/bin/true", "{config}"};
    const QString into = QString::fromStdString((base / "into" / "FORK").string());
    const std::map<QString, QStringList> commands = {
        {"relink", {"relink", r, "--last", "3"}},
        {"undo", {"relink", r, "--undo"}},
        {"repair", {"relink", r, "--repair", "all"}},
        {"prune", {"prune", r, "--keep-limit", "1", "--yes"}},
        {"restart", QStringList{"launch", r, "--from", "3"} + launch +
                        QStringList{"--prepare-only"} + trainer},
        {"fork", QStringList{"launch", r, "--from", "3", "--fork"} + launch +
                     QStringList{"--prepare-only"} + trainer},
        {"fork-into", QStringList{"launch", r, "--from", "3", "--fork", "--into", into} + launch +
                          QStringList{"--prepare-only"} + trainer},
        {"launch",
         QStringList{"launch", r, "--from", "3"} + launch + QStringList{"--detach"} + trainer},
    };
    if (op == "undo")
        QCOMPARE(runCli({"relink", r, "--last", "2"}).exitCode, 0);
    if (op == "repair") {
        for (const char* name : {"last", "best"}) {
            fs::remove(root / name);
            fs::create_directory_symlink("/nonexistent/moved/ckpts/epochs/005", root / name);
        }
    }

    // The whole folder is nobody's (as root; else the test's user owns it and
    // runs ckpt itself); one thing in it is not writable.
    if (::geteuid() == 0) {
        const std::string handed = UnprivilegedScope::handToNobody(m_base);
        QVERIFY2(handed.empty(), handed.c_str());
    }
    const fs::path target = (base / denied.toStdString()).lexically_normal();
    const bool isDir = fs::is_directory(target);
    QCOMPARE(::chmod(target.c_str(), isDir ? 0555 : 0444), 0);

    const FileTree before = treeOf(base);
    const CliResult result = runCliAsNobody(commands.at(op));
    const FileTree after = treeOf(base);
    // (The tree's changes first: Qt Test cuts long messages.)
    const QByteArray what = diffOf(before, after) + "exit " + QByteArray::number(result.exitCode) +
                            "\nstderr: " + result.err.right(600);
    QVERIFY2(result.exitCode == 1 || result.exitCode == 2, what.constData());
    QVERIFY2(result.err.contains("Permission denied"), what.constData());
    // Names the file: the denied one, or the one it could not make inside it.
    const std::string named = target.string();
    QVERIFY2(result.err.contains(QByteArray::fromStdString(
                 named.ends_with("/.") ? named.substr(0, named.size() - 2) : named)),
             what.constData());
    QVERIFY2(sameButBookkeeping(before, after), ("left behind:\n" + what).constData());

    // Permission back: the same command works.
    QCOMPARE(::chmod(target.c_str(), isDir ? 0755 : 0644), 0);
    const CliResult again = runCliAsNobody(commands.at(op));
    QVERIFY2(again.exitCode == 0, again.err.constData());
    if (op == "launch") {
        const CliResult runs = runCliAsNobody({"runs", "--json"});
        QVERIFY2(runs.exitCode == 0 && runs.out.contains(r.toUtf8()), runs.out.constData());
    }
}

// The window's own write: the verification cache (~/.cache/ckpt-studio) where
// the user may not write keeps its old contents and names the file.
void tst_PermissionDenied::verifyCacheFailsCleanly()
{
    const fs::path base = m_base / "cache";
    std::string error;
    auto made = VerifyCacheCase::make(base, base / "cache" / "verify-cache.json", error);
    QVERIFY2(made, error.c_str());
    auto& [run, store, cache, saved] = *made;

    // (A read-only cache file in a writable folder is replaced, as an editor
    // or git replaces one: the folder is what denies.)
    {
        const fs::path denied = cache.parent_path();
        QCOMPARE(::chmod(denied.c_str(), 0555), 0);
        const FileTree before = treeOf(base);
        UnprivilegedScope asUser(m_base);
        QVERIFY2(asUser.ok(), asUser.error().c_str());
        const ckpt::Status st = store.save(cache);
        asUser.restore();
        QVERIFY(!st);
        const QString message = QString::fromStdString(st.error().message);
        QVERIFY2(message.contains(QString::fromStdString(cache.string())), qPrintable(message));
        QVERIFY2(message.contains("Permission denied"), qPrintable(message));
        QVERIFY2(treeOf(base) == before, diffOf(before, treeOf(base)).constData());
        QCOMPARE(CandleFixture::readText(cache), saved);
        QCOMPARE(::chmod(denied.c_str(), 0755), 0);
    }

    UnprivilegedScope asUser(m_base);
    QVERIFY2(asUser.ok(), asUser.error().c_str());
    QVERIFY(store.save(cache));
    asUser.restore();
    ckpt::VerifyStore reloaded;
    QVERIFY(reloaded.load(cache));
    QCOMPARE(reloaded.size(), std::size_t(3));
}

QTEST_GUILESS_MAIN(tst_PermissionDenied)
#include "tst_PermissionDenied.moc"
