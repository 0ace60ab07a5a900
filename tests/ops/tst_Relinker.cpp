#include "CandleFixture.h"
#include "ops/ActionJournal.h"
#include "ops/Relinker.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cerrno>
#include <memory>
#include <thread>
#include <unistd.h>

using namespace ckpt;
using ckpt::test::CandleFixture;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& haystack, const char* needle)
{
    return haystack.find(needle) != std::string::npos;
}

// Evaluates `expr` once (an action must not run twice) and shows its error.
#define VERIFY_OK(expr)                                                                            \
    do {                                                                                           \
        const auto& result_ = (expr);                                                              \
        QVERIFY2(result_.ok(), result_.ok() ? "" : result_.error().message.c_str());               \
    } while (false)

RelinkOptions as(const char* actor, bool force = false)
{
    RelinkOptions o;
    o.actor = actor;
    o.force = force;
    return o;
}

} // namespace

class tst_Relinker : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_root; // <tmp>/run/ckpts, the save/ckpts shape without a save/ckpt.log
    std::unique_ptr<CandleFixture> m_fx;

    QString linkText(const char* name) const
    {
        return QString::fromStdString(fs::read_symlink(m_root / name).string());
    }
    std::string absEpoch(int e) const { return fs::absolute(m_fx->epochDir(e)).string(); }
    QStringList logLines(const fs::path& log) const
    {
        if (!fs::exists(log))
            return {};
        return QString::fromStdString(CandleFixture::readText(log)).split('\n', Qt::SkipEmptyParts);
    }
    QStringList logLines() const { return logLines(m_root / "ckpt.log"); }
    std::vector<JournalEntry> journal() const
    {
        auto contents = ActionJournal(m_root).read();
        return contents ? contents->entries : std::vector<JournalEntry>{};
    }
    static QString linePattern(const std::string& message)
    {
        return "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3} CkptStudio: " +
               QRegularExpression::escape(QString::fromStdString(message)) + "$";
    }
    void flipByte(int epoch) const
    {
        std::string bytes = CandleFixture::readText(m_fx->epochDir(epoch) / "model.h5");
        bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x01);
        m_fx->writeModel(epoch, bytes);
    }

private slots:
    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        m_root = fs::path(m_tmp->path().toStdString()) / "run" / "ckpts";
        m_fx = std::make_unique<CandleFixture>(m_root);
        for (int e = 1; e <= 5; ++e)
            m_fx->addEpoch(e, 1.0 / e, 64 + static_cast<std::size_t>(e), e == 1);
        m_fx->linkAbsolute("last", 5);
        m_fx->linkAbsolute("best", 3);
    }

    void relinkLastToOlderEpoch()
    {
        auto out = Relinker::relink(m_root, "last", 2, as("alice@lab"));
        VERIFY_OK(out);
        QVERIFY(out->changed);
        QCOMPARE(linkText("last"), QString("epochs/002"));
        QCOMPARE(fs::canonical(m_root / "last"), fs::canonical(m_fx->epochDir(2)));
        QCOMPARE(out->previousTarget, std::optional<std::string>(absEpoch(5)));
        QCOMPARE(out->newTarget, std::optional<std::string>("epochs/002"));
        QCOMPARE(out->epoch, std::optional<int>(2));
        QVERIFY(out->overridden.empty());
        QVERIFY(out->warnings.empty());
        QCOMPARE(out->auditLog, (m_root / "ckpt.log").string());

        const QStringList lines = logLines();
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].contains(QRegularExpression(linePattern(
                     "linking: last -> epochs/002 (was " + absEpoch(5) + ") by alice@lab"))),
                 qPrintable(lines[0]));

        const auto entries = journal();
        QCOMPARE(entries.size(), std::size_t(1));
        QCOMPARE(entries[0].action, std::string("relink"));
        QCOMPARE(entries[0].link, std::string("last"));
        QCOMPARE(entries[0].from, std::optional<std::string>(absEpoch(5)));
        QCOMPARE(entries[0].to, std::optional<std::string>("epochs/002"));
        QCOMPARE(entries[0].actor, std::string("alice@lab"));
        QCOMPARE(entries[0].id, out->journalId);
        QVERIFY(!entries[0].time.empty());
        QCOMPARE(linkText("best"),
                 QString::fromStdString(absEpoch(3))); // the other link is untouched
    }

    void undoRestoresExactPreviousText()
    {
        VERIFY_OK(Relinker::relink(m_root, "last", 2, as("alice@lab")));
        auto next = Relinker::nextUndo(m_root);
        VERIFY_OK(next);
        QVERIFY(next->has_value());
        QCOMPARE((*next)->to, std::optional<std::string>("epochs/002"));

        auto out = Relinker::undo(m_root, as("bob@lab"));
        VERIFY_OK(out);
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5))); // absolute, byte for byte
        QCOMPARE(out->previousTarget, std::optional<std::string>("epochs/002"));
        QCOMPARE(out->newTarget, std::optional<std::string>(absEpoch(5)));

        const QStringList lines = logLines();
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[1].contains("CkptStudio: linking: last -> " +
                                   QString::fromStdString(absEpoch(5)) +
                                   " (undo of the change made"),
                 qPrintable(lines[1]));
        QVERIFY(lines[1].endsWith("was epochs/002) by bob@lab"));

        const auto entries = journal();
        QCOMPARE(entries.size(), std::size_t(2));
        QCOMPARE(entries[1].action, std::string("undo"));
        QCOMPARE(entries[1].ref, entries[0].id);

        next = Relinker::nextUndo(m_root);
        VERIFY_OK(next);
        QVERIFY(!next->has_value());
        auto again = Relinker::undo(m_root, as("bob@lab"));
        QVERIFY(!again.ok());
        QVERIFY(has(again.error().message, "nothing to undo"));
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5)));
    }

    void undoTwiceWalksBack()
    {
        VERIFY_OK(Relinker::relink(m_root, "last", 4, as("a")));
        VERIFY_OK(Relinker::relink(m_root, "best", 1, as("a")));
        VERIFY_OK(Relinker::relink(m_root, "last", 2, as("a")));
        VERIFY_OK(Relinker::undo(m_root, as("a")));
        QCOMPARE(linkText("last"), QString("epochs/004"));
        QCOMPARE(linkText("best"), QString("epochs/001"));
        VERIFY_OK(Relinker::undo(m_root, as("a")));
        QCOMPARE(linkText("best"), QString::fromStdString(absEpoch(3)));
        QCOMPARE(linkText("last"), QString("epochs/004"));
        VERIFY_OK(Relinker::undo(m_root, as("a")));
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5)));
        QVERIFY(!Relinker::undo(m_root, as("a")).ok());
    }

    void undoRefusesAfterExternalChange()
    {
        VERIFY_OK(Relinker::relink(m_root, "last", 2, as("a")));
        m_fx->linkRelative("last", 4); // someone else (a restarted run, a user) moved it
        const QString moved = linkText("last");
        const auto linesBefore = logLines();

        auto refused = Relinker::undo(m_root, as("a"));
        QVERIFY(!refused.ok());
        QVERIFY2(has(refused.error().message, "changed since"), refused.error().message.c_str());
        QVERIFY(has(refused.error().message, moved.toUtf8().constData()));
        QCOMPARE(linkText("last"), moved);
        QCOMPARE(logLines(), linesBefore);
        QCOMPARE(journal().size(), std::size_t(1));

        auto forced = Relinker::undo(m_root, as("a", true));
        VERIFY_OK(forced);
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5)));
        QCOMPARE(forced->overridden.size(), std::size_t(1));
        QVERIFY(logLines().last().contains("forced past: "));
        QCOMPARE(journal().back().forced.size(), std::size_t(1));
    }

    // kill -9 between the journal line and the link's rename: the entry says a
    // change happened that did not. Undo settles it as aborted (and records so)
    // instead of refusing or skipping the real last change.
    void interruptedChangesAreSettled_data()
    {
        QTest::addColumn<bool>("interruptedUndo");
        QTest::newRow("interrupted relink") << false;
        QTest::newRow("interrupted undo") << true;
    }
    void interruptedChangesAreSettled()
    {
        QFETCH(bool, interruptedUndo);
        VERIFY_OK(Relinker::relink(m_root, "last", 4, as("a")));
        const auto done = journal().back();
        JournalEntry torn;
        torn.id = "killed";
        torn.time = ActionJournal::utcNow();
        torn.actor = "a";
        torn.link = "last";
        torn.from = "epochs/004"; // what the link still reads
        if (interruptedUndo) {
            torn.action = "undo";
            torn.to = absEpoch(5);
            torn.ref = done.id;
        } else {
            torn.action = "relink";
            torn.to = "epochs/002";
            torn.epoch = 2;
        }
        QVERIFY(ActionJournal(m_root).append(torn).ok());

        auto next = Relinker::nextUndo(m_root);
        VERIFY_OK(next);
        QVERIFY(next->has_value());
        QCOMPARE((*next)->id, done.id); // the change that really happened
        auto out = Relinker::undo(m_root, as("b"));
        VERIFY_OK(out);
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5)));
        const auto entries = journal();
        QCOMPARE(entries.size(), std::size_t(4));
        QCOMPARE(entries[2].action, std::string("abort"));
        QCOMPARE(entries[2].ref, std::string("killed"));
        QCOMPARE(entries[3].action, std::string("undo"));
        QCOMPARE(entries[3].ref, done.id);
    }

    void undoNeverFollowsAnEditedJournalOutsideTheLinks()
    {
        VERIFY_OK(Relinker::relink(m_root, "last", 2, as("a")));
        const fs::path victim = m_root.parent_path() / "victim.txt";
        CandleFixture::writeText(victim, "keep me");
        JournalEntry forged;
        forged.id = "forged";
        forged.time = ActionJournal::utcNow();
        forged.actor = "mallory";
        forged.action = "relink";
        forged.link = "../victim.txt";
        forged.from = "/etc/passwd";
        forged.to = "keep me";
        QVERIFY(ActionJournal(m_root).append(forged).ok());
        CandleFixture::writeText(ActionJournal(m_root).path(),
                                 CandleFixture::readText(ActionJournal(m_root).path()) + "{torn\n");

        auto out = Relinker::undo(m_root, as("a", true));
        QVERIFY(!out.ok());
        QVERIFY2(has(out.error().message, "only 'last' and 'best'"), out.error().message.c_str());
        QVERIFY(!fs::is_symlink(victim));
        QCOMPARE(CandleFixture::readText(victim), std::string("keep me"));
        QCOMPARE(linkText("last"), QString("epochs/002"));
    }

    void undoReportsSkippedJournalLines()
    {
        VERIFY_OK(Relinker::relink(m_root, "last", 2, as("a")));
        const fs::path path = ActionJournal(m_root).path();
        CandleFixture::writeText(path, CandleFixture::readText(path) + "{torn\n");
        auto out = Relinker::undo(m_root, as("a"));
        VERIFY_OK(out);
        QCOMPARE(out->warnings.size(), std::size_t(1));
        QVERIFY(has(out->warnings[0], "journal.jsonl:2"));
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5)));
    }

    void undoRefusesWhenPreviousEpochIsGone()
    {
        VERIFY_OK(Relinker::relink(m_root, "last", 2, as("a")));
        fs::remove_all(m_fx->epochDir(5));
        auto refused = Relinker::undo(m_root, as("a"));
        QVERIFY(!refused.ok());
        QVERIFY2(has(refused.error().message, "no longer exists"), refused.error().message.c_str());
        QCOMPARE(linkText("last"), QString("epochs/002"));
        VERIFY_OK(Relinker::undo(m_root, as("a", true)));
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5)));
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("setup"); // applied to epoch 2 unless it names a link
        QTest::addColumn<QString>("link");
        QTest::addColumn<int>("epoch");
        QTest::addColumn<bool>("force");
        QTest::addColumn<bool>("succeeds");
        QTest::addColumn<QString>("fragment"); // of the error, or of the forced note

        QTest::newRow("other link name")
            << ""
            << "first" << 2 << true << false << "only 'last' and 'best'";
        QTest::newRow("missing epoch") << ""
                                       << "last" << 9 << true << false << "does not exist";
        QTest::newRow("flipped byte") << "flip"
                                      << "last" << 2 << false << false << "checksum mismatch";
        QTest::newRow("flipped byte, forced") << "flip"
                                              << "last" << 2 << true << true << "checksum mismatch";
        QTest::newRow("model missing") << "nomodel"
                                       << "best" << 2 << false << false << "model file is missing";
        QTest::newRow("model missing, forced")
            << "nomodel"
            << "best" << 2 << true << true << "model file is missing";
        QTest::newRow("info missing") << "noinfo"
                                      << "last" << 2 << false << false << "ckpt-info.json: missing";
        QTest::newRow("info garbage") << "badinfo"
                                      << "last" << 2 << false << false << "ckpt-info.json";
        QTest::newRow("info names another epoch")
            << "otherepoch"
            << "last" << 2 << false << false << "says epoch 7";
        QTest::newRow("checksum not a number")
            << "badcrc"
            << "last" << 2 << false << false << "is not a CRC-32";
        QTest::newRow("checksum disabled is no failure") << "disabled"
                                                         << "last" << 2 << false << true << "";
        QTest::newRow("no checksum key is no failure") << "nochecksum"
                                                       << "last" << 2 << false << true << "";
        QTest::newRow("two directories for one epoch")
            << "duplicate"
            << "last" << 2 << true << false << "more than one directory";
        QTest::newRow("last is a real directory")
            << "lastdir"
            << "last" << 2 << true << false << "not a symlink";
        QTest::newRow("best is a real directory")
            << "bestdir"
            << "best" << 2 << true << false << "not a symlink";
    }

    void refusals()
    {
        QFETCH(QString, setup);
        QFETCH(QString, link);
        QFETCH(int, epoch);
        QFETCH(bool, force);
        QFETCH(bool, succeeds);
        QFETCH(QString, fragment);

        const fs::path dir = m_fx->epochDir(2);
        const std::string crc =
            std::to_string(CandleFixture::crc32Of(CandleFixture::readText(dir / "model.h5")));
        auto info = [&](const std::string& checksumPart, int number = 2) {
            m_fx->writeInfo(2, "{\"epoch\": " + std::to_string(number) +
                                   ", \"save_best_metric\": \"val_loss\", \"best_metric_last\": "
                                   "Infinity, \"model_file\": \"model.h5\", " +
                                   checksumPart +
                                   "\"timestamp\": \"2026-11-22 13:00:02\", "
                                   "\"time_elapsed\": 0.5, \"metadata\": null}");
        };
        if (setup == "flip")
            flipByte(2);
        else if (setup == "nomodel")
            fs::remove(dir / "model.h5");
        else if (setup == "noinfo")
            fs::remove(dir / "ckpt-info.json");
        else if (setup == "badinfo")
            m_fx->writeInfo(2, "{\"epoch\": 2, \"checks");
        else if (setup == "otherepoch")
            info("\"checksum\": \"" + crc + "\", ", 7);
        else if (setup == "badcrc")
            info("\"checksum\": \"0x1234\", ");
        else if (setup == "disabled") {
            info("\"checksum\": \"__DISABLED__\", ");
            flipByte(2);
        } else if (setup == "nochecksum") {
            info("");
            flipByte(2);
        } else if (setup == "duplicate") {
            fs::create_directory(m_root / "epochs" / "2");
        } else if (setup == "lastdir" || setup == "bestdir") {
            const fs::path p = m_root / (setup == "lastdir" ? "last" : "best");
            fs::remove(p);
            CandleFixture::writeText(p / "precious.txt", "user data");
        }

        const QString lastBefore = fs::is_symlink(m_root / "last") ? linkText("last") : QString();
        const QString bestBefore = fs::is_symlink(m_root / "best") ? linkText("best") : QString();
        auto out = Relinker::relink(m_root, link.toStdString(), epoch, as("a", force));
        if (!succeeds) {
            QVERIFY(!out.ok());
            QVERIFY2(has(out.error().message, fragment.toUtf8().constData()),
                     out.error().message.c_str());
            QCOMPARE(fs::is_symlink(m_root / "last") ? linkText("last") : QString(), lastBefore);
            QCOMPARE(fs::is_symlink(m_root / "best") ? linkText("best") : QString(), bestBefore);
            QVERIFY(journal().empty());
            QVERIFY(logLines().isEmpty());
            if (setup.endsWith("dir")) {
                const fs::path p = m_root / (setup == "lastdir" ? "last" : "best");
                QCOMPARE(CandleFixture::readText(p / "precious.txt"), std::string("user data"));
            }
            return;
        }
        VERIFY_OK(out);
        QCOMPARE(linkText(link.toUtf8().constData()), QString("epochs/002"));
        QCOMPARE(out->overridden.empty(), fragment.isEmpty());
        if (!fragment.isEmpty()) {
            QVERIFY(has(out->overridden.front(), fragment.toUtf8().constData()));
            QVERIFY(logLines().last().contains("forced past: "));
            QCOMPARE(journal().back().forced, out->overridden);
        }
    }

    void changeThatCannotBeRecordedIsNotMade_data()
    {
        QTest::addColumn<QString>("blocked"); // a directory standing where a file must go
        QTest::newRow("audit log") << "ckpt.log";
        QTest::newRow("journal") << ".ckpt-studio/journal.jsonl";
    }

    void changeThatCannotBeRecordedIsNotMade()
    {
        QFETCH(QString, blocked);
        fs::create_directories(m_root / blocked.toStdString());
        auto out = Relinker::relink(m_root, "last", 2, as("a"));
        QVERIFY(!out.ok());
        QVERIFY2(has(out.error().message, "nothing was changed"), out.error().message.c_str());
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5)));
    }

    void cancelledChecksumChangesNothing()
    {
        std::atomic_bool cancel{true};
        const Progress progress({}, &cancel);
        auto out = Relinker::relink(m_root, "last", 2, as("a"), progress);
        QVERIFY(!out.ok());
        QVERIFY(has(out.error().message, "cancelled"));
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5)));
        QVERIFY(journal().empty());
    }

    void relinkCreatesAnAbsentLinkAndUndoRemovesIt()
    {
        fs::remove(m_root / "best");
        auto out = Relinker::relink(m_root, "best", 3, as("a"));
        VERIFY_OK(out);
        QCOMPARE(out->previousTarget, std::optional<std::string>());
        QCOMPARE(linkText("best"), QString("epochs/003"));
        QVERIFY(logLines().last().endsWith("linking: best -> epochs/003 (was <no link>) by a"));
        auto undone = Relinker::undo(m_root, as("a"));
        VERIFY_OK(undone);
        QCOMPARE(undone->newTarget, std::optional<std::string>());
        QVERIFY(!fs::exists(fs::symlink_status(m_root / "best")));
        QVERIFY(logLines().last().contains("unlinking: best (undo of"));
    }

    void relinkToTheCurrentTargetChangesNothing()
    {
        VERIFY_OK(Relinker::relink(m_root, "last", 2, as("a")));
        auto again = Relinker::relink(m_root, "last", 2, as("a"));
        VERIFY_OK(again);
        QVERIFY(!again->changed);
        QCOMPARE(journal().size(), std::size_t(1));
        QCOMPARE(logLines().size(), 1);
    }

    void notARun()
    {
        auto out = Relinker::relink(m_root / "nowhere", "last", 1, as("a"));
        QVERIFY(!out.ok());
        QVERIFY(has(out.error().message, "nowhere"));
        QVERIFY(!Relinker::undo(m_root / "nowhere").ok());
    }

    void linkIsNeverMissingDuringRelinks()
    {
        const fs::path link = m_root / "last";
        std::atomic_bool stop{false};
        std::atomic<long> reads{0};
        std::atomic<long> missing{0};
        std::thread reader([&] {
            char buf[4096];
            while (!stop.load()) {
                if (::readlink(link.c_str(), buf, sizeof buf) < 0 && errno == ENOENT)
                    ++missing;
                ++reads;
            }
        });
        int failures = 0;
        for (int i = 0; i < 200; ++i)
            failures += Relinker::relink(m_root, "last", 1 + i % 2, as("a")).ok() ? 0 : 1;
        stop = true;
        reader.join();
        QCOMPARE(failures, 0);
        QCOMPARE(missing.load(), 0L);
        QVERIFY(reads.load() > 200);
        QCOMPARE(journal().size(), std::size_t(200));
        QCOMPARE(linkText("last"), QString("epochs/002"));
    }

    void auditGoesWhereCandleLogs_data()
    {
        QTest::addColumn<QString>("existing"); // relative to <tmp>/run, or empty
        QTest::addColumn<QString>("expected");
        QTest::newRow("own ckpt.log (candle_lib develop)") << "ckpts/ckpt.log"
                                                           << "ckpts/ckpt.log";
        QTest::newRow("save/ckpt.log above (save/ckpts)") << "ckpt.log"
                                                          << "ckpt.log";
        QTest::newRow("none: created at the root") << ""
                                                   << "ckpts/ckpt.log";
    }

    void auditGoesWhereCandleLogs()
    {
        QFETCH(QString, existing);
        QFETCH(QString, expected);
        const fs::path base = m_root.parent_path();
        const std::string candleLine =
            "2026-11-22 13:47:07 CandleCheckpoint: linking: last -> /x/epochs/005";
        if (!existing.isEmpty())
            CandleFixture::writeText(base / existing.toStdString(), candleLine + "\n");
        auto out = Relinker::relink(m_root, "last", 2, as("a"));
        VERIFY_OK(out);
        const fs::path log = base / expected.toStdString();
        QCOMPARE(out->auditLog, log.string());
        const QStringList lines = logLines(log);
        QCOMPARE(lines.size(), existing.isEmpty() ? 1 : 2);
        if (!existing.isEmpty())
            QCOMPARE(lines[0].toStdString(), candleLine);
        QVERIFY(lines.last().contains("CkptStudio: linking: last -> epochs/002"));
        if (expected == "ckpt.log")
            QVERIFY(!fs::exists(m_root / "ckpt.log"));
    }

    void repairRelocatedLinkAndUndoIt()
    {
        const std::string oldLast = absEpoch(5);
        const std::string oldBest = absEpoch(3);
        const fs::path moved = m_root.parent_path().parent_path() / "moved";
        fs::rename(m_root.parent_path(), moved); // rsync'd elsewhere: absolute links dangle
        m_root = moved / "ckpts";
        QVERIFY(!fs::exists(m_root / "last"));

        auto out = Relinker::repair(m_root, "last", as("a"));
        VERIFY_OK(out);
        QCOMPARE(linkText("last"), QString("epochs/005"));
        QCOMPARE(fs::canonical(m_root / "last"), fs::canonical(m_root / "epochs" / "005"));
        QCOMPARE(out->previousTarget, std::optional<std::string>(oldLast));
        QCOMPARE(journal().back().action, std::string("repair"));
        QVERIFY2(logLines().last().contains("linking: last -> epochs/005 (repair of a link moved "
                                            "or copied with its run; was " +
                                            QString::fromStdString(oldLast) + ") by a"),
                 qPrintable(logLines().last()));

        auto notBroken = Relinker::repair(m_root, "last", as("a"));
        QVERIFY(!notBroken.ok());
        QVERIFY(has(notBroken.error().message, "nothing to repair"));

        fs::remove_all(m_root / "epochs" / "003");
        auto gone = Relinker::repair(m_root, "best", as("a"));
        QVERIFY(!gone.ok());
        QVERIFY2(has(gone.error().message, "does not exist"), gone.error().message.c_str());
        QCOMPARE(linkText("best"), QString::fromStdString(oldBest));

        VERIFY_OK(Relinker::undo(m_root, as("a")));
        QCOMPARE(linkText("last"),
                 QString::fromStdString(oldLast)); // dangling again, exactly as before
    }

    void repairAllOfACopiedRunAndUndoIt()
    {
        // cp -a keeps the absolute links: they resolve, into the original.
        const fs::path copy = m_root.parent_path().parent_path() / "copy";
        QCOMPARE(QProcess::execute("cp", {"-a", QString::fromStdString(m_root.parent_path()),
                                          QString::fromStdString(copy)}),
                 0);
        const fs::path root = copy / "ckpts";
        QVERIFY(fs::exists(root / "last"));
        QVERIFY(Relinker::isRepairable(root, "last"));
        QVERIFY(Relinker::isRepairable(root, "best"));
        QVERIFY(!Relinker::isRepairable(m_root, "last")); // the original is fine

        auto out = Relinker::repairAll(root, as("a"));
        VERIFY_OK(out);
        QCOMPARE(out->size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(fs::read_symlink(root / "last").string()),
                 QString("epochs/005"));
        QCOMPARE(QString::fromStdString(fs::read_symlink(root / "best").string()),
                 QString("epochs/003"));
        QCOMPARE(fs::canonical(root / "best"), fs::canonical(root / "epochs" / "003"));
        QCOMPARE(linkText("last"), QString::fromStdString(absEpoch(5))); // original untouched
        QVERIFY(!Relinker::isRepairable(root, "last"));

        auto again = Relinker::repairAll(root, as("a"));
        QVERIFY(!again.ok());
        QVERIFY2(has(again.error().message, "no link to repair"), again.error().message.c_str());

        // Each link is its own journal entry: two undos restore both texts.
        VERIFY_OK(Relinker::undo(root, as("a")));
        VERIFY_OK(Relinker::undo(root, as("a")));
        QCOMPARE(QString::fromStdString(fs::read_symlink(root / "last").string()),
                 QString::fromStdString(absEpoch(5)));
        QCOMPARE(QString::fromStdString(fs::read_symlink(root / "best").string()),
                 QString::fromStdString(absEpoch(3)));
    }

    void repairRefusesALinkInsideTheRun()
    {
        m_fx->linkRelative("last", 2);
        auto out = Relinker::repair(m_root, "last", as("a"));
        QVERIFY(!out.ok());
        QVERIFY(has(out.error().message, "nothing to repair"));
        QVERIFY(!Relinker::isRepairable(m_root, "last"));
    }

    void restartOverwritesLaterEpochs()
    {
        Run run;
        for (int n : {1, 2, 4, 7, 1000}) {
            Epoch e;
            e.number = n;
            run.epochs.push_back(e);
        }
        QCOMPARE(Relinker::restartOverwrites(run, 2), (std::vector<int>{4, 7, 1000}));
        QCOMPARE(Relinker::restartOverwrites(run, 3), (std::vector<int>{4, 7, 1000}));
        QCOMPARE(Relinker::restartOverwrites(run, 1000), std::vector<int>{});
    }
};

QTEST_GUILESS_MAIN(tst_Relinker)
#include "tst_Relinker.moc"
