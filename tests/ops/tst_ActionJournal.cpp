#include "CandleFixture.h"
#include "ops/ActionJournal.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
namespace fs = std::filesystem;

namespace {

JournalEntry entry(std::string id, std::string action, std::string ref = {})
{
    JournalEntry e;
    e.id = std::move(id);
    e.time = ActionJournal::utcNow();
    e.actor = "alice@lab";
    e.action = std::move(action);
    e.link = "last";
    e.from = "/abs/run/epochs/015";
    e.to = "epochs/012";
    e.epoch = 12;
    e.ref = std::move(ref);
    return e;
}

QString ids(const std::vector<JournalEntry>& entries)
{
    QStringList out;
    for (const auto& e : entries)
        out << QString::fromStdString(e.id);
    return out.join(',');
}

} // namespace

class tst_ActionJournal : public QObject
{
    Q_OBJECT

private slots:
    void roundTripKeepsExactTexts()
    {
        JournalEntry e = entry("a1", "relink");
        e.from = std::nullopt; // no link before
        e.to = "epochs/012";
        e.forced = {"checksum mismatch"};
        auto back = ActionJournal::fromJsonLine(ActionJournal::toJsonLine(e));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->id, e.id);
        QCOMPARE(back->from, std::optional<std::string>());
        QCOMPARE(back->to, e.to);
        QCOMPARE(back->epoch, std::optional<int>(12));
        QCOMPARE(back->forced, e.forced);
        QCOMPARE(back->actor, e.actor);
    }

    void nonUtf8LinkTextIsRefused()
    {
        QTemporaryDir tmp;
        const ActionJournal journal(fs::path(tmp.path().toStdString()));
        JournalEntry e = entry("a1", "relink");
        e.from = std::string("/abs/\xff\xfe/epochs/001");
        const Status st = journal.append(e);
        QVERIFY(!st.ok());
        QVERIFY(st.error().message.find("cannot record") != std::string::npos);
        QVERIFY(!fs::exists(journal.path()));
    }

    void tornLineIsSkippedAndReported()
    {
        QTemporaryDir tmp;
        const fs::path root(tmp.path().toStdString());
        const ActionJournal journal(root);
        QVERIFY(journal.append(entry("a1", "relink")).ok());
        QVERIFY(journal.append(entry("a2", "relink")).ok());
        // A crash in the middle of an append leaves a torn last line.
        ckpt::test::CandleFixture::writeText(journal.path(),
                                             ckpt::test::CandleFixture::readText(journal.path()) +
                                                 "{\"id\": \"a3\", \"act");
        auto contents = journal.read();
        QVERIFY(contents.ok());
        QCOMPARE(ids(contents->entries), QString("a1,a2"));
        QCOMPARE(contents->skipped.size(), std::size_t(1));
        QVERIFY(contents->skipped.front().find("journal.jsonl:3") != std::string::npos);
    }

    void missingJournalIsEmpty()
    {
        QTemporaryDir tmp;
        auto contents = ActionJournal(fs::path(tmp.path().toStdString())).read();
        QVERIFY(contents.ok());
        QVERIFY(contents->entries.empty());
    }

    void lastUndoable_data()
    {
        QTest::addColumn<QStringList>("lines"); // "id:action[:ref]"
        QTest::addColumn<QString>("expected");  // id or empty
        QTest::newRow("empty") << QStringList{} << "";
        QTest::newRow("one relink") << QStringList{"a:relink"} << "a";
        QTest::newRow("repair counts") << QStringList{"a:relink", "b:repair"} << "b";
        QTest::newRow("undone goes back") << QStringList{"a:relink", "b:relink", "u:undo:b"} << "a";
        QTest::newRow("all undone") << QStringList{"a:relink", "u1:undo:a"} << "";
        QTest::newRow("aborted is skipped")
            << QStringList{"a:relink", "b:relink", "x:abort:b"} << "a";
        QTest::newRow("aborted undo does not count")
            << QStringList{"a:relink", "u:undo:a", "x:abort:u"} << "a";
        QTest::newRow("after an undo, a new action")
            << QStringList{"a:relink", "u:undo:a", "c:relink"} << "c";
    }

    void lastUndoable()
    {
        QFETCH(QStringList, lines);
        QFETCH(QString, expected);
        std::vector<JournalEntry> entries;
        for (const auto& line : lines) {
            const auto parts = line.split(':');
            entries.push_back(entry(parts[0].toStdString(), parts[1].toStdString(),
                                    parts.size() > 2 ? parts[2].toStdString() : std::string()));
        }
        const auto got = ActionJournal::lastUndoable(entries);
        QCOMPARE(got ? QString::fromStdString(got->id) : QString(), expected);
    }
};

QTEST_GUILESS_MAIN(tst_ActionJournal)
#include "tst_ActionJournal.moc"
