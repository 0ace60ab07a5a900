#include "CandleFixture.h"
#include "candle/CandleLayout.h"
#include "ops/Pruner.h"

#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <map>
#include <memory>
#include <sys/stat.h>

using namespace ckpt;
using ckpt::test::CandleFixture;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(ckpt::KeepMode)

namespace {

// Evaluates `expr` once (an action must not run twice) and shows its error.
#define VERIFY_OK(expr)                                                                            \
    do {                                                                                           \
        const auto& result_ = (expr);                                                              \
        QVERIFY2(result_.ok(), result_.ok() ? "" : result_.error().message.c_str());               \
    } while (false)

QString numbers(const std::vector<int>& v)
{
    QStringList parts;
    for (int e : v)
        parts << QString::number(e);
    return parts.join(',');
}

QString deleted(const PrunePlan& plan)
{
    std::vector<int> v;
    for (const auto& c : plan.toDelete)
        v.push_back(c.epoch);
    return numbers(v);
}

QString kept(const PrunePlan& plan)
{
    QStringList parts;
    for (const auto& k : plan.kept) {
        QStringList reasons;
        for (const auto& r : k.reasons)
            reasons << QString::fromStdString(r);
        parts << QString::number(k.epoch) + ":" + reasons.join('+');
    }
    return parts.join(' ');
}

// Independent of the code under test: bytes of every regular file below `dir`.
std::uint64_t duBytes(const fs::path& dir)
{
    std::uint64_t total = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file() && !entry.is_symlink())
            total += entry.file_size();
    return total;
}

// Everything below `dir` that a change would show: names, types, sizes, link
// texts and modification times.
QStringList fullListing(const fs::path& dir)
{
    QStringList out;
    auto describe = [&](const fs::path& p) {
        struct stat st
        {};
        ::lstat(p.c_str(), &st);
        QString line = QString::fromStdString(fs::relative(p, dir).string()) +
                       " mode=" + QString::number(st.st_mode) +
                       " size=" + QString::number(st.st_size) +
                       " mtime=" + QString::number(st.st_mtim.tv_sec) + "." +
                       QString::number(st.st_mtim.tv_nsec) + " ino=" + QString::number(st.st_ino);
        if (S_ISLNK(st.st_mode))
            line += " -> " + QString::fromStdString(fs::read_symlink(p).string());
        out << line;
    };
    describe(dir);
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        describe(entry.path());
    out.sort();
    return out;
}

QStringList epochDirsOnDisk(const fs::path& root)
{
    QStringList out;
    for (const auto& entry : fs::directory_iterator(root / "epochs"))
        out << QString::fromStdString(entry.path().filename().string());
    out.sort();
    return out;
}

} // namespace

class tst_Pruner : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_root;
    std::unique_ptr<CandleFixture> m_fx;

    // Epochs 1..n with models of 1000*e bytes; last/best absolute like CANDLE.
    void build(int n, int last, int best)
    {
        for (int e = 1; e <= n; ++e)
            m_fx->addEpoch(e, 1.0 / e, 1000 * static_cast<std::size_t>(e), e == 1);
        if (last)
            m_fx->linkAbsolute("last", last);
        if (best)
            m_fx->linkAbsolute("best", best);
    }
    Run load() const { return CandleLayout::instance().loadRun(m_root); }
    static KeepPolicy linear(int limit) { return KeepPolicy{KeepMode::Linear, limit}; }
    QStringList logLines() const
    {
        const fs::path log = m_root / "ckpt.log";
        if (!fs::exists(log))
            return {};
        return QString::fromStdString(CandleFixture::readText(log)).split('\n', Qt::SkipEmptyParts);
    }

private slots:
    // The home trash of the tests is ~/.qttest/share/Trash, not the user's.
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        m_root = fs::path(m_tmp->path().toStdString()) / "run" / "ckpts";
        m_fx = std::make_unique<CandleFixture>(m_root);
    }

    void plan_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("last");
        QTest::addColumn<int>("best");
        QTest::addColumn<bool>("moved");
        QTest::addColumn<KeepMode>("mode");
        QTest::addColumn<int>("limit");
        QTest::addColumn<QString>("toDelete");
        QTest::addColumn<QString>("kept");

        const auto L = KeepMode::Linear;
        const auto X = KeepMode::Exponential;
        QTest::newRow("linear 2, old best") << 8 << 8 << 3 << false << L << 2 << "1,2,4,5,6"
                                            << "3:best 7:policy 8:newest+last+policy";
        QTest::newRow("linear 2, last rolled back") << 8 << 4 << 3 << false << L << 2 << "1,2,5,6"
                                                    << "3:best 4:last 7:policy 8:newest+policy";
        QTest::newRow("exponential 4")
            << 16 << 16 << 2 << false << X << 4 << "1,3,4,5,6,7,8,9,10,11,13"
            << "2:best 12:policy 14:policy 15:policy "
               "16:newest+last+policy";
        QTest::newRow("relocated links still protect") << 6 << 5 << 2 << true << L << 1 << "1,3,4"
                                                       << "2:best 5:last 6:newest+policy";
        QTest::newRow("no links, keep 0: the newest survives")
            << 3 << 0 << 0 << false << L << 0 << "1,2"
            << "3:newest";
        QTest::newRow("keep everything") << 4 << 4 << 1 << false << L << 100 << ""
                                         << "1:best+policy 2:policy 3:policy 4:newest+last+policy";
    }

    void plan()
    {
        QFETCH(int, count);
        QFETCH(int, last);
        QFETCH(int, best);
        QFETCH(bool, moved);
        QFETCH(KeepMode, mode);
        QFETCH(int, limit);
        QFETCH(QString, toDelete);
        QFETCH(QString, kept);
        build(count, last, best);
        if (moved) {
            const fs::path to = m_root.parent_path().parent_path() / "moved";
            fs::rename(m_root.parent_path(), to);
            m_root = to / "ckpts";
            QVERIFY(!fs::exists(m_root / "last")); // dangling absolute link
        }
        const Run run = load();
        const PrunePlan plan = Pruner::plan(run, KeepPolicy{mode, limit});
        QCOMPARE(deleted(plan), toDelete);
        QCOMPARE(::kept(plan), kept);
        std::uint64_t sum = 0;
        for (const auto& c : plan.toDelete) {
            QCOMPARE(c.bytes, duBytes(c.dir));
            sum += c.bytes;
        }
        QCOMPARE(plan.bytesFreed, sum);
        QCOMPARE(plan.root, run.root);
    }

    // The rule on the run as held (a remote run's state): the same epochs go and
    // stay for the same reasons, sizes from the recorded files, nothing read.
    void planHeldMatchesThePlan_data() { plan_data(); }
    void planHeldMatchesThePlan()
    {
        QFETCH(int, count);
        QFETCH(int, last);
        QFETCH(int, best);
        QFETCH(bool, moved);
        QFETCH(KeepMode, mode);
        QFETCH(int, limit);
        QFETCH(QString, toDelete);
        QFETCH(QString, kept);
        build(count, last, best);
        Run run = load();
        const PrunePlan onDisk = Pruner::plan(run, KeepPolicy{mode, limit});
        if (moved) // held elsewhere: the files are not where the run says
            fs::rename(m_root.parent_path(), m_root.parent_path().parent_path() / "moved");
        const PrunePlan held = Pruner::planHeld(run, KeepPolicy{mode, limit});
        QCOMPARE(deleted(held), toDelete);
        QCOMPARE(::kept(held), kept);
        QCOMPARE(deleted(held), deleted(onDisk));
        for (const auto& c : held.toDelete) {
            std::uint64_t recorded = 0;
            for (const EpochFile& f : run.findEpoch(c.epoch)->files)
                recorded += f.bytes;
            QCOMPARE(c.bytes, recorded);
            QVERIFY(c.bytes > 0);
        }
    }

    void planReadsTheLinksAgain()
    {
        build(6, 6, 5);
        const Run run = load();
        m_fx->linkRelative("best", 1); // moved after the run was loaded
        const PrunePlan plan = Pruner::plan(run, linear(1));
        QCOMPARE(deleted(plan), QString("2,3,4"));
        QCOMPARE(::kept(plan), QString("1:best 5:best 6:newest+last+policy"));
    }

    void linksIntoTheOriginalProtectACopy()
    {
        build(6, 5, 2);
        // A copy on the same machine: its absolute links still resolve, into the
        // original run. The copy's own epochs they name must survive its prune.
        const fs::path copy = m_root.parent_path().parent_path() / "copy";
        fs::copy(m_root.parent_path(), copy,
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        const fs::path copyRoot = copy / "ckpts";
        QCOMPARE(fs::read_symlink(copyRoot / "last"), fs::absolute(m_fx->epochDir(5)));
        const Run run = CandleLayout::instance().loadRun(copyRoot);
        const PrunePlan plan = Pruner::plan(run, linear(1));
        QCOMPARE(deleted(plan), QString("1,3,4"));
        QCOMPARE(::kept(plan), QString("2:best 5:last 6:newest+policy"));
    }

    void dryRunTouchesNothing()
    {
        build(10, 10, 4);
        CandleFixture::writeText(m_root / "epochs" / ".003.deleting-0123456789ab" / "model.h5",
                                 std::string(100, 'x'));
        const fs::path top(m_tmp->path().toStdString());
        const QStringList before = fullListing(top);
        const Run run = load();
        for (auto mode : {KeepMode::Linear, KeepMode::Exponential})
            for (int limit : {0, 1, 3, 100})
                (void)Pruner::plan(run, KeepPolicy{mode, limit});
        // Executing a plan with nothing to delete touches nothing either.
        PrunePlan nothing = Pruner::plan(run, KeepPolicy{KeepMode::Linear, 100});
        nothing.leftovers.clear();
        QVERIFY(nothing.toDelete.empty());
        auto out = Pruner::execute(run, nothing, Progress::none(), "a");
        VERIFY_OK(out);
        QVERIFY(out->deleted.empty());
        QCOMPARE(fullListing(top), before);
        QVERIFY(!fs::exists(m_root / ".ckpt-studio"));
        QVERIFY(!fs::exists(m_root / "ckpt.log"));
    }

    void executeDeletesExactlyThePlan()
    {
        build(8, 8, 3);
        const Run run = load();
        const PrunePlan plan = Pruner::plan(run, linear(2));
        QCOMPARE(deleted(plan), QString("1,2,4,5,6"));
        std::map<int, std::uint64_t> bytesOf;
        std::uint64_t expectedBytes = 0;
        for (int e : {1, 2, 4, 5, 6})
            expectedBytes += bytesOf[e] = duBytes(m_fx->epochDir(e));

        auto out = Pruner::execute(run, plan, Progress::none(), "alice@lab");
        VERIFY_OK(out);
        QCOMPARE(numbers(out->deleted), QString("1,2,4,5,6"));
        QVERIFY(out->skipped.empty());
        QVERIFY(out->warnings.empty());
        QVERIFY(!out->cancelled);
        QCOMPARE(out->bytesFreed, expectedBytes);
        QCOMPARE(plan.bytesFreed, expectedBytes);
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"003", "007", "008"})); // nothing aside left
        QCOMPARE(fs::canonical(m_root / "last"), fs::canonical(m_fx->epochDir(8)));
        QCOMPARE(fs::canonical(m_root / "best"), fs::canonical(m_fx->epochDir(3)));

        const QStringList lines = logLines();
        QCOMPARE(lines.size(), 6);
        QVERIFY2(lines[0].contains("CkptStudio: pruning: keep linear 2: removing epochs "
                                   "[1, 2, 4, 5, 6] (" +
                                   QString::number(expectedBytes) + " bytes) by alice@lab"),
                 qPrintable(lines[0]));
        int i = 1;
        for (int e : {1, 2, 4, 5, 6}) {
            const QString expected =
                "CkptStudio: removing: " + QString::fromStdString(m_fx->epochDir(e).string()) +
                " (" + QString::number(bytesOf[e]) + " bytes) by alice@lab";
            QVERIFY2(lines[i].endsWith(expected), qPrintable(lines[i]));
            ++i;
        }
    }

    void executeSkipsAnEpochThatBecameALinkTarget()
    {
        build(8, 8, 3);
        const Run run = load();
        const PrunePlan plan = Pruner::plan(run, linear(2));
        const std::string model4 = CandleFixture::readText(m_fx->epochDir(4) / "model.h5");
        m_fx->linkRelative("best", 4); // e.g. a relink from another window after the plan

        auto out = Pruner::execute(run, plan, Progress::none(), "a");
        VERIFY_OK(out);
        QCOMPARE(numbers(out->deleted), QString("1,2,5,6"));
        QCOMPARE(out->skipped.size(), std::size_t(1));
        QCOMPARE(out->skipped[0].epoch, 4);
        QVERIFY2(out->skipped[0].reason.find("best") != std::string::npos,
                 out->skipped[0].reason.c_str());
        QCOMPARE(CandleFixture::readText(m_fx->epochDir(4) / "model.h5"), model4);
        QVERIFY(logLines().join('\n').contains("not removing: " +
                                               QString::fromStdString(m_fx->epochDir(4).string())));
        // 3 was only protected as best: the plan still keeps it.
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"003", "004", "007", "008"}));
    }

    void executeSkipsReplacedAndVanishedEpochs()
    {
        build(6, 6, 0);
        const Run run = load();
        const PrunePlan plan = Pruner::plan(run, linear(1));
        QCOMPARE(deleted(plan), QString("1,2,3,4,5"));
        // Epoch 2 is saved again (new directory), epoch 4 is deleted by someone else.
        const fs::path old2 = m_root / "old2";
        fs::rename(m_fx->epochDir(2), old2);
        m_fx->addEpoch(2, 0.5, 10);
        fs::remove_all(old2);
        fs::remove_all(m_fx->epochDir(4));

        auto out = Pruner::execute(run, plan, Progress::none(), "a");
        VERIFY_OK(out);
        QCOMPARE(numbers(out->deleted), QString("1,3,5"));
        QCOMPARE(out->skipped.size(), std::size_t(2));
        QCOMPARE(out->skipped[0].epoch, 2);
        QVERIFY(out->skipped[0].reason.find("replaced") != std::string::npos);
        QCOMPARE(out->skipped[1].epoch, 4);
        QVERIFY(out->skipped[1].reason.find("already gone") != std::string::npos);
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"002", "006"}));
    }

    void cancelStopsBetweenEpochs()
    {
        build(6, 6, 0);
        const Run run = load();
        const PrunePlan plan = Pruner::plan(run, linear(1));
        std::atomic_bool cancel{false};
        std::vector<ProgressUpdate> updates;
        const Progress progress(
            [&](const ProgressUpdate& u) {
                updates.push_back(u);
                cancel = true; // after the first epoch has started
            },
            &cancel);
        auto out = Pruner::execute(run, plan, progress, "a");
        VERIFY_OK(out);
        QVERIFY(out->cancelled);
        QCOMPARE(numbers(out->deleted), QString("1"));
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"002", "003", "004", "005", "006"}));
        QVERIFY(!updates.empty());
        QCOMPARE(updates.front().total, std::uint64_t(5));
        QCOMPARE(updates.front().unit, std::string("epochs"));
    }

    void leftoversOfAnInterruptedPruneAreFinished()
    {
        build(3, 3, 0);
        const fs::path aside = m_root / "epochs" / ".001.deleting-0123456789ab";
        CandleFixture::writeText(aside / "model.h5", std::string(100, 'x'));
        const Run run = load();
        QVERIFY(run.findEpoch(1) != nullptr);
        const PrunePlan plan = Pruner::plan(run, linear(100));
        QVERIFY(plan.toDelete.empty());
        QCOMPARE(plan.leftovers, std::vector<std::string>{aside.string()});
        QCOMPARE(plan.leftoverBytes, std::uint64_t(100));
        auto out = Pruner::execute(run, plan, Progress::none(), "a");
        VERIFY_OK(out);
        QVERIFY(!fs::exists(aside));
        QCOMPARE(out->bytesFreed, std::uint64_t(100));
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"001", "002", "003"}));
        QVERIFY(logLines().last().contains("left by an interrupted prune"));
    }

    // Prune into the desktop trash: each epoch is one rename into
    // $trash/files with its .trashinfo; restore renames it back (same inode)
    // and removes the .trashinfo. Both are audited in the run's log.
    void trashMovesTheEpochsAndRestorePutsThemBack()
    {
        build(5, 5, 0);
        const Run run = load();
        PrunePlan plan = Pruner::plan(run, linear(2));
        plan.toTrash = true;
        QCOMPARE(deleted(plan), QString("1,2,3"));
        std::map<int, ino_t> inodes;
        for (int e : {1, 2, 3}) {
            struct stat st
            {};
            QCOMPARE(::lstat(m_fx->epochDir(e).c_str(), &st), 0);
            inodes[e] = st.st_ino;
        }
        auto out = Pruner::execute(run, plan, Progress::none(), "a");
        VERIFY_OK(out);
        QCOMPARE(numbers(out->deleted), QString("1,2,3"));
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"004", "005"}));
        QCOMPARE(out->trashed.size(), std::size_t(3));
        for (const TrashedEpoch& t : out->trashed) {
            QCOMPARE(t.item.original, m_fx->epochDir(t.epoch).string());
            QVERIFY(fs::is_regular_file(fs::path(t.item.trashed) / "model.h5"));
            const QString info = QString::fromStdString(CandleFixture::readText(t.item.info));
            QVERIFY2(info.startsWith("[Trash Info]\nPath=") && info.contains("DeletionDate="),
                     qPrintable(info));
            QVERIFY2(info.contains(
                         QString::fromStdString(fs::path(t.item.original).filename().string())),
                     qPrintable(info));
        }
        QVERIFY(logLines().last().contains("moving to the trash"));

        auto back = Pruner::restore(m_root.string(), "candle", out->trashed, "a");
        VERIFY_OK(back);
        QCOMPARE(numbers(back->epochs), QString("1,2,3"));
        QVERIFY(back->failures.empty());
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"001", "002", "003", "004", "005"}));
        for (const TrashedEpoch& t : out->trashed) {
            struct stat st
            {};
            QCOMPARE(::lstat(t.item.original.c_str(), &st), 0);
            QCOMPARE(st.st_ino, inodes[t.epoch]);
            QVERIFY(!fs::exists(t.item.trashed));
            QVERIFY(!fs::exists(t.item.info));
        }
        QCOMPARE(load().epochs.size(), std::size_t(5));
        QVERIFY(logLines().last().contains("restoring"));
    }

    // A save of the same epoch after the prune: restore never replaces it, the
    // trashed copy stays where it is, the others come back.
    void restoreNeverReplacesANewSave()
    {
        build(4, 4, 0);
        PrunePlan plan = Pruner::plan(load(), linear(1));
        plan.toTrash = true;
        auto out = Pruner::execute(load(), plan, Progress::none(), "a");
        VERIFY_OK(out);
        QCOMPARE(numbers(out->deleted), QString("1,2,3"));
        m_fx->addEpoch(2, 0.25, 77); // trained again
        auto back = Pruner::restore(m_root.string(), "candle", out->trashed, "a");
        VERIFY_OK(back);
        QCOMPARE(numbers(back->epochs), QString("1,3"));
        QCOMPARE(back->failures.size(), std::size_t(1));
        QVERIFY2(back->failures[0].find("exists again") != std::string::npos,
                 back->failures[0].c_str());
        QCOMPARE(fs::file_size(m_fx->epochDir(2) / "model.h5"), std::uintmax_t(77));
        for (const TrashedEpoch& t : out->trashed)
            if (t.epoch == 2) {
                QVERIFY(fs::is_directory(t.item.trashed)); // kept, not lost
                fs::remove_all(t.item.trashed);
                fs::remove(t.item.info);
            }
    }

    // Another file system than the home one (a tmpfs mounted here, as root):
    // the trash is its own $topdir/.Trash-$uid. Where that cannot be had, the
    // prune refuses before anything moves and says why; it never deletes instead.
    void trashOfAnotherFileSystem()
    {
        if (::getuid() != 0)
            QSKIP("mounting a file system for this test needs root (CI runs as root)");
        QTemporaryDir mount;
        QCOMPARE(QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=8m", "none", mount.path()}),
                 0);
        const auto unmount = qScopeGuard([&] {
            QProcess::execute("umount", {"-l", mount.path()});
        });
        const fs::path top(mount.path().toStdString());
        m_root = top / "run" / "ckpts";
        m_fx = std::make_unique<CandleFixture>(m_root);
        build(4, 4, 0);
        const std::string ownTrash = (top / (".Trash-" + std::to_string(::getuid()))).string();

        // The trash-spec name stands there as a file: no trash on this file system.
        CandleFixture::writeText(ownTrash, "not a folder");
        PrunePlan plan = Pruner::plan(load(), linear(1));
        plan.toTrash = true;
        auto refused = Pruner::execute(load(), plan, Progress::none(), "a");
        QVERIFY(!refused.ok());
        QVERIFY2(
            refused.error().message.find("cannot be moved to the trash") != std::string::npos &&
                refused.error().message.find("nothing was moved or deleted") != std::string::npos,
            refused.error().message.c_str());
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"001", "002", "003", "004"}));
        QVERIFY(!Trash::locationFor(m_root.string()).ok());

        // Without it, the trash is made at the top of this file system.
        fs::remove(ownTrash);
        auto where = Trash::locationFor(m_root.string());
        VERIFY_OK(where);
        QCOMPARE(*where, ownTrash);
        auto out = Pruner::execute(load(), plan, Progress::none(), "a");
        VERIFY_OK(out);
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"004"}));
        for (const TrashedEpoch& t : out->trashed)
            QVERIFY2(t.item.trashed.rfind(ownTrash + "/files/", 0) == 0, t.item.trashed.c_str());
        VERIFY_OK(Pruner::restore(m_root.string(), "candle", out->trashed, "a"));
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"001", "002", "003", "004"}));
    }

    void planOfAnotherRunIsRefused()
    {
        build(4, 4, 0);
        const Run run = load();
        PrunePlan plan = Pruner::plan(run, linear(1));
        Run other = run;
        other.root = m_root.parent_path().string();
        auto out = Pruner::execute(other, plan, Progress::none(), "a");
        QVERIFY(!out.ok());
        QVERIFY(out.error().message.find("another run") != std::string::npos);
        QCOMPARE(epochDirsOnDisk(m_root), (QStringList{"001", "002", "003", "004"}));
    }
};

QTEST_GUILESS_MAIN(tst_Pruner)
#include "tst_Pruner.moc"
