// Every write path of `ckpt` on a file system that is full (no blocks, or no
// inodes) or read-only: a small tmpfs mounted by the test (as root; a user that
// is not root gets a user and mount namespace through `unshare -rm`). Each
// operation either completes (a change that needs no new block may) or fails
// with a message naming the file and the system's reason, and leaves the tree
// exactly as it was; once space is back, the same command works.
#include "CandleFixture.h"
#include "CliRunner.h"
#include "FileTree.h"
#include "VerifyCacheCase.h"
#include "candle/CandleLayout.h"
#include "checksum/Verifier.h"
#include "checksum/VerifyStore.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <map>
#include <sys/mount.h>
#include <unistd.h>

using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {

enum class Fault
{
    NoBlocks,
    NoInodes,
    ReadOnly
};

} // namespace

class tst_FullDisk : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void writesFailCleanly_data();
    void writesFailCleanly();
    void restartPutsBackWhatItMoved();
    void verifyCacheFailsCleanly_data();
    void verifyCacheFailsCleanly();
    void cleanupTestCase();

private:
    void mountTmpfs();
    void fill(Fault fault);
    void release(Fault fault);

    QTemporaryDir m_dir;
    fs::path m_mount;
    fs::path m_xdg;
    bool m_mounted = false;
    std::map<Fault, int> m_failures;
    int m_rows = 0;
};

void tst_FullDisk::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_mount = fs::path(m_dir.path().toStdString()) / "disk";
    m_xdg = fs::path(m_dir.path().toStdString()) / "xdg";
    fs::create_directories(m_mount);
    fs::create_directories(m_xdg);
    // Launch records go to the user's registry: keep it out of the test disk
    // and out of the real home.
    qputenv("XDG_DATA_HOME", QByteArray::fromStdString(m_xdg.string()));
    qputenv("XDG_STATE_HOME", QByteArray::fromStdString(m_xdg.string()));
    qputenv("XDG_CACHE_HOME", QByteArray::fromStdString(m_xdg.string()));
}

void tst_FullDisk::mountTmpfs()
{
    // 4 MiB and 256 inodes: room for the run, quickly filled.
    const int rc = ::mount("tmpfs", m_mount.c_str(), "tmpfs", 0, "size=4m,nr_inodes=256,mode=0755");
    QVERIFY2(rc == 0, qPrintable(QStringLiteral("mount tmpfs on %1: %2")
                                     .arg(QString::fromStdString(m_mount.string()),
                                          QString::fromLocal8Bit(std::strerror(errno)))));
    m_mounted = true;
}

void tst_FullDisk::cleanup()
{
    if (m_mounted) {
        ::umount2(m_mount.c_str(), MNT_DETACH);
        m_mounted = false;
    }
}

void tst_FullDisk::cleanupTestCase()
{
    // Each fault must have made at least one operation fail, or the test
    // proved nothing about it (when the whole table ran).
    if (m_rows < 18)
        return;
    QVERIFY2(m_failures[Fault::NoBlocks] > 0, "no operation met a full disk");
    QVERIFY2(m_failures[Fault::NoInodes] > 0, "no operation met a disk out of inodes");
    QVERIFY2(m_failures[Fault::ReadOnly] > 0, "no operation met a read-only disk");
}

void tst_FullDisk::fill(Fault fault)
{
    const fs::path filler = m_mount / "filler";
    fs::create_directories(filler);
    if (fault == Fault::ReadOnly) {
        QVERIFY(::mount(nullptr, m_mount.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0);
        return;
    }
    if (fault == Fault::NoInodes) {
        for (int i = 0;; ++i) {
            const int fd = ::open((filler / std::to_string(i)).c_str(), O_CREAT | O_WRONLY, 0644);
            if (fd < 0) {
                QCOMPARE(errno, ENOSPC);
                break;
            }
            ::close(fd);
        }
        return;
    }
    const int fd = ::open((filler / "blocks").c_str(), O_CREAT | O_WRONLY, 0644);
    QVERIFY(fd >= 0);
    const std::string chunk(4096, 'x');
    while (::write(fd, chunk.data(), chunk.size()) > 0) {
    }
    QCOMPARE(errno, ENOSPC);
    ::close(fd);
}

void tst_FullDisk::release(Fault fault)
{
    if (fault == Fault::ReadOnly)
        QVERIFY(::mount(nullptr, m_mount.c_str(), nullptr, MS_REMOUNT, nullptr) == 0);
    fs::remove_all(m_mount / "filler");
}

void tst_FullDisk::writesFailCleanly_data()
{
    QTest::addColumn<int>("fault");
    QTest::addColumn<QString>("op");
    const std::pair<Fault, const char*> faults[] = {{Fault::NoBlocks, "no space"},
                                                    {Fault::NoInodes, "no inodes"},
                                                    {Fault::ReadOnly, "read-only"}};
    for (const auto& [fault, name] : faults)
        for (const char* op : {"relink", "undo", "repair", "prune", "fork", "restart"})
            QTest::addRow("%s, %s", name, op) << int(fault) << QString::fromLatin1(op);
}

void tst_FullDisk::writesFailCleanly()
{
    QFETCH(int, fault);
    QFETCH(QString, op);
    ++m_rows;
    mountTmpfs();
    const fs::path root = m_mount / "RUN" / "ckpts";
    CandleFixture f(root);
    for (int e = 1; e <= 5; ++e)
        f.addEpoch(e, 1.0 / e, 64 * 1024, e == 1);
    f.linkAbsolute("last", 5);
    f.linkAbsolute("best", 5);
    CandleFixture::writeText(root / "ckpt.log", "");
    const fs::path config = m_mount / "RUN" / "run.ini";
    CandleFixture::writeText(config, "[Global_Params]\nlearning_rate = 0.01\nepochs = 5\n");
    const QString r = QString::fromStdString(root.string());
    const QStringList launch = {"--config",  QString::fromStdString(config.string()),
                                "--set",     "learning_rate=0.002",
                                "--detach",  "--",
                                "/bin/true", "{config}"};

    std::map<QString, QStringList> commands = {
        {"relink", {"relink", r, "--last", "3"}},
        {"undo", {"relink", r, "--undo"}},
        {"repair", {"relink", r, "--repair", "all"}},
        {"prune", {"prune", r, "--keep-limit", "1", "--yes"}},
        {"fork", QStringList{"launch", r, "--from", "3", "--fork"} + launch},
        {"restart", QStringList{"launch", r, "--from", "3"} + launch},
    };
    if (op == "undo")
        QCOMPARE(runCli({"relink", r, "--last", "2"}).exitCode, 0);
    if (op == "repair") {
        for (const char* name : {"last", "best"}) {
            fs::remove(root / name);
            fs::create_directory_symlink("/nonexistent/moved/ckpts/epochs/005", root / name);
        }
    }

    fill(Fault(fault));
    const FileTree before = treeOf(m_mount);
    const CliResult result = runCli(commands.at(op));
    const FileTree after = treeOf(m_mount);
    const QByteArray what = "exit " + QByteArray::number(result.exitCode) +
                            "\nstderr: " + result.err + "\n" + diffOf(before, after);
    if (result.exitCode == 0) {
        // Done without needing a new block (tmpfs appends into a page's slack).
        QVERIFY2(Fault(fault) != Fault::ReadOnly, what.constData());
    } else {
        ++m_failures[Fault(fault)];
        const char* reason =
            Fault(fault) == Fault::ReadOnly ? "Read-only file system" : "No space left on device";
        QVERIFY2(result.err.contains(reason), what.constData());
        QVERIFY2(result.err.contains(m_mount.string().c_str()), what.constData()); // names the file
        QVERIFY2(sameButBookkeeping(before, after), ("left behind:\n" + what).constData());
    }

    // Space back: the same command works (for a launch: once more, since a run
    // that was made is not made twice).
    release(Fault(fault));
    if (result.exitCode != 0) {
        const CliResult again = runCli(commands.at(op));
        QVERIFY2(again.exitCode == 0, again.err.constData());
    }
}

// A restart that fails after moving the later epochs aside (here the journal
// cannot be written: a folder stands where it goes) moves them back, removes
// its new configuration, and leaves the links as they were.
void tst_FullDisk::restartPutsBackWhatItMoved()
{
    const fs::path base = fs::path(m_dir.path().toStdString()) / "putback";
    const fs::path root = base / "RUN" / "ckpts";
    CandleFixture f(root);
    for (int e = 1; e <= 5; ++e)
        f.addEpoch(e, 1.0 / e, 1024, e == 1);
    f.linkAbsolute("last", 5);
    f.linkAbsolute("best", 5);
    CandleFixture::writeText(root / "ckpt.log", "");
    const fs::path config = base / "RUN" / "run.ini";
    CandleFixture::writeText(config, "[Global_Params]\nlearning_rate = 0.01\nepochs = 5\n");
    fs::create_directories(root / ".ckpt-studio" / "journal.jsonl");
    const FileTree before = treeOf(base);
    const CliResult r = runCli({"launch", QString::fromStdString(root.string()), "--from", "3",
                                "--config", QString::fromStdString(config.string()), "--detach",
                                "--", "/bin/true", "{config}"});
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains("journal.jsonl") && r.err.contains("the restart was not prepared"),
             r.err.constData());
    const FileTree after = treeOf(base);
    QVERIFY2(sameButBookkeeping(before, after), (r.err + "\n" + diffOf(before, after)).constData());
}

void tst_FullDisk::verifyCacheFailsCleanly_data()
{
    QTest::addColumn<int>("fault");
    QTest::newRow("no space") << int(Fault::NoBlocks);
    QTest::newRow("no inodes") << int(Fault::NoInodes);
    QTest::newRow("read-only") << int(Fault::ReadOnly);
}

// The window's own write: the verification cache (~/.cache/ckpt-studio). A
// full or read-only disk leaves the cache as it was and names the file.
void tst_FullDisk::verifyCacheFailsCleanly()
{
    QFETCH(int, fault);
    mountTmpfs();
    std::string error;
    auto made = VerifyCacheCase::make(m_mount, m_mount / "cache" / "verify-cache.json", error);
    QVERIFY2(made, error.c_str());
    auto& [run, store, cache, saved] = *made;
    fill(Fault(fault));
    const FileTree before = treeOf(m_mount);
    const ckpt::Status st = store.save(cache);
    QVERIFY(!st);
    const QString message = QString::fromStdString(st.error().message);
    QVERIFY2(message.contains(QString::fromStdString(cache.string())), qPrintable(message));
    QVERIFY2(message.contains(Fault(fault) == Fault::ReadOnly ? "Read-only file system"
                                                              : "No space left on device"),
             qPrintable(message));
    QVERIFY2(treeOf(m_mount) == before, diffOf(before, treeOf(m_mount)).constData());
    QCOMPARE(CandleFixture::readText(cache), saved);

    release(Fault(fault));
    QVERIFY(store.save(cache));
    ckpt::VerifyStore reloaded;
    QVERIFY(reloaded.load(cache));
    QCOMPARE(reloaded.size(), std::size_t(3));
}

int main(int argc, char** argv)
{
    // Mounting needs root; anyone else gets it inside a user and mount namespace.
    if (::geteuid() != 0 && qEnvironmentVariableIsEmpty("CKPT_IN_NAMESPACE")) {
        QCoreApplication app(argc, argv);
        QStringList args{"-r", "-m", "--", QCoreApplication::applicationFilePath()};
        for (int i = 1; i < argc; ++i)
            args << QString::fromLocal8Bit(argv[i]);
        qputenv("CKPT_IN_NAMESPACE", "1");
        QProcess p;
        p.setProcessChannelMode(QProcess::ForwardedChannels);
        p.start("unshare", args);
        if (!p.waitForStarted() || !p.waitForFinished(-1)) {
            std::fprintf(stderr, "tst_FullDisk: cannot run unshare -rm: %s\n",
                         qPrintable(p.errorString()));
            return 1;
        }
        return p.exitCode();
    }
    QCoreApplication app(argc, argv);
    tst_FullDisk test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_FullDisk.moc"
