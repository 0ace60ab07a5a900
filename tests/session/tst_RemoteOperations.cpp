#include "CandleFixture.h"
#include "DemoRun.h"
#include "ShellScript.h"
#include "SshServer.h"
#include "candle/CandleLayout.h"
#include "hdf5/TensorStats.h"
#include "modelfile/WeightsDiff.h"
#include "ops/Pruner.h"
#include "session/RemoteFolders.h"
#include "session/RemoteOperations.h"
#include "session/Workspace.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {
constexpr int kConnect = 60000; // a bound, not a goal: a loaded machine needs ~35 s at times

// The far shell kills its own sshd session: the connection drops there and then.
// It survives its sshd, so it stops there too: a ckpt run after the drop would
// apply the operation a few seconds later, behind the read-back's back (seen
// on a loaded machine, where the read-back came after that).
const char* const kKillSession =
    "p=$PPID\n"
    "while [ \"$(cat /proc/$p/comm)\" != sshd ]; do p=$(cut -d' ' -f4 /proc/$p/stat); done\n"
    "kill -9 $p\nsleep 5\nexit 1\n";

int linkedEpoch(const fs::path& link)
{
    std::error_code ec;
    const fs::path target = fs::canonical(link, ec);
    return ec ? -1 : std::stoi(target.filename().string());
}

std::string modelOf(const fs::path& epochDir)
{
    for (const auto& f : fs::directory_iterator(epochDir))
        if (f.path().extension() == ".h5")
            return f.path().string();
    return {};
}
} // namespace

// RemoteOperations against a real sshd on loopback and the real `ckpt` of this
// build on the far side: what it reads matches a local read of the same files,
// what it changes is changed there, and a dropped connection is read back.
class tst_RemoteOperations : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void diffWorkComparesOnTheHostOfBothEpochs();
    void inspectWorkReadsTheFarModel();
    void pruneDeletesThePlannedEpochsThere();
    void pruneRefusedThereNamesHostAndPath();
    void pruneWithADroppedConnectionReadsBackWhatWent();
    void repairAnnouncesTheMovedLink_data();
    void repairAnnouncesTheMovedLink();
    void undoRevertsTheFarRelink_data();
    void undoRevertsTheFarRelink();

private:
    QString url(const fs::path& path) const
    {
        return QStringLiteral("ssh://%1%2")
            .arg(m_server->host(), QString::fromStdString(path.string()));
    }
    QString root(const char* run) const { return url(m_far / run / "ckpts"); }
    // Opens the far folder with `ckpt` as the far program; waits for its runs.
    void open(Workspace& ws, const std::string& ckpt = CKPT_CLI_PATH);

    std::unique_ptr<SshServer> m_server;
    QTemporaryDir m_tmp;
    fs::path m_far;
};

void tst_RemoteOperations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_server = std::make_unique<SshServer>();
    QVERIFY2(m_server->ok(), m_server->error().c_str());
    QVERIFY(m_tmp.isValid());
    m_far = fs::path(m_tmp.path().toStdString()) / "far" / "exp";
    for (const char* run : {"RUN000", "RUN001", "RUN002", "RUN003", "RUN004"})
        trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_far / run,
                     (m_far / run / "config.ini").string(),
                     "[Global_Params]\nepochs = 4\nlearning_rate = 0.01\n"
                     "samples_per_class = 40\nckpt_checksum = True\n");
}

void tst_RemoteOperations::open(Workspace& ws, const std::string& ckpt)
{
    RemoteOptions o;
    o.ssh = m_server->sshCommand();
    o.ckpt = ckpt;
    QSignalSpy scanned(&ws, &Workspace::scanFinished);
    ws.openRemote(url(m_far), o);
    QTRY_VERIFY_WITH_TIMEOUT(!scanned.isEmpty(), kConnect);
    QVERIFY2(scanned.first().at(1).toString().isEmpty(),
             qPrintable(scanned.first().at(1).toString()));
    QVERIFY(ws.state(root("RUN000")));
}

void tst_RemoteOperations::diffWorkComparesOnTheHostOfBothEpochs()
{
    Workspace ws;
    open(ws);
    RemoteOperations* ops = ws.remoteOperations();
    const Run& run0 = ws.state(root("RUN000"))->run;
    const Run& run1 = ws.state(root("RUN001"))->run;
    QTemporaryDir scratch;
    struct Pair
    {
        const Run* a;
        int ea;
        const Run* b;
        int eb;
        fs::path fa, fb;
    };
    const Pair pairs[] = {
        {&run0, 1, &run0, 4, m_far / "RUN000/ckpts/epochs/001", m_far / "RUN000/ckpts/epochs/004"},
        {&run0, 2, &run1, 2, m_far / "RUN000/ckpts/epochs/002", m_far / "RUN001/ckpts/epochs/002"},
    };
    for (const Pair& p : pairs) {
        auto work = ops->diffWork(*p.a, p.ea, *p.b, p.eb);
        QVERIFY2(work, work ? "" : work.error().message.c_str());
        auto far = (*work)(Progress::none());
        QVERIFY2(far, far ? "" : far.error().message.c_str());
        auto local = WeightsDiff::diff(modelOf(p.fa), modelOf(p.fb), scratch.path().toStdString(),
                                       "t", TensorDiff::Options{});
        QVERIFY(local);
        QCOMPARE(far->tensors.size(), local->diff.tensors.size());
        for (std::size_t i = 0; i < far->tensors.size(); ++i) {
            QCOMPARE(far->tensors[i].key, local->diff.tensors[i].key);
            QCOMPARE(far->tensors[i].status, local->diff.tensors[i].status);
            QCOMPARE(far->tensors[i].dtypeA, local->diff.tensors[i].dtypeA);
            QCOMPARE(far->tensors[i].relChange, local->diff.tensors[i].relChange);
        }
    }
    // A local epoch against a remote one: the files are on two machines.
    Run local = run0;
    local.root = (m_far / "RUN000" / "ckpts").string();
    auto mixed = ops->diffWork(local, 1, run0, 2);
    QVERIFY(!mixed);
    QVERIFY2(QString::fromStdString(mixed.error().message).contains(m_server->host()),
             mixed.error().message.c_str());
    // Cancelled: the ssh connection is ended, nothing is returned.
    auto work = ops->diffWork(run0, 1, run0, 2);
    QVERIFY(work);
    std::atomic_bool cancel{true};
    auto cancelled = (*work)(Progress({}, &cancel));
    QVERIFY(!cancelled);
}

void tst_RemoteOperations::inspectWorkReadsTheFarModel()
{
    Workspace ws;
    open(ws);
    auto work = ws.remoteOperations()->inspectWork(ws.state(root("RUN000"))->run, 3);
    QVERIFY2(work, work ? "" : work.error().message.c_str());
    auto far = (*work)(Progress::none());
    QVERIFY2(far, far ? "" : far.error().message.c_str());
    auto local = TensorStats::ofFile(modelOf(m_far / "RUN000/ckpts/epochs/003"));
    QVERIFY(local);
    QCOMPARE(far->tensors.size(), local->size());
    for (std::size_t i = 0; i < local->size(); ++i) {
        QCOMPARE(far->tensors[i].name, (*local)[i].path);
        QCOMPARE(far->tensors[i].count, std::optional<std::uint64_t>((*local)[i].stats.count));
        QCOMPARE(far->tensors[i].mean, std::optional<double>((*local)[i].stats.mean));
    }
    // An epoch that is not there says which, and where.
    auto missing = ws.remoteOperations()->inspectWork(ws.state(root("RUN000"))->run, 42);
    QVERIFY(!missing);
    QVERIFY2(QString::fromStdString(missing.error().message).contains(m_server->host()),
             missing.error().message.c_str());
}

void tst_RemoteOperations::pruneDeletesThePlannedEpochsThere()
{
    Workspace ws;
    open(ws);
    const Run held = ws.state(root("RUN002"))->run;
    const KeepPolicy policy{KeepMode::Linear, 1};
    const PrunePlan plan = Pruner::planHeld(held, policy);
    std::vector<int> planned;
    for (const auto& c : plan.toDelete)
        planned.push_back(c.epoch);
    // The same plan the far ckpt makes from the files (its dry run).
    const fs::path dir = m_far / "RUN002" / "ckpts";
    const Run onDisk = CandleLayout::instance().loadRun(dir);
    std::vector<int> local;
    for (const auto& c : Pruner::plan(onDisk, policy).toDelete)
        local.push_back(c.epoch);
    QCOMPARE(planned, local);
    QVERIFY(!planned.empty());
    QSignalSpy finished(ws.remoteOperations(), &RemoteOperations::finished);
    QSignalSpy messages(ws.remoteOperations(), &RemoteOperations::message);
    ws.remoteOperations()->prune(held, policy, planned);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("prune"));
    QVERIFY2(finished.first().at(2).toString().isEmpty(),
             qPrintable(finished.first().at(2).toString()));
    for (const int e : planned)
        QVERIFY(!fs::exists(dir / "epochs" /
                            QStringLiteral("%1").arg(e, 3, 10, QLatin1Char('0')).toStdString()));
    QVERIFY(fs::exists(dir / "epochs" / "004"));
    QVERIFY(!messages.isEmpty());
    QVERIFY2(messages.first().at(0).toString().contains(m_server->host()),
             qPrintable(messages.first().at(0).toString()));
    // The far watch (or the read-back after the operation) updates the state.
    QTRY_COMPARE_WITH_TIMEOUT(ws.state(root("RUN002"))->run.epochs.size(),
                              std::size_t(4 - planned.size()), kConnect);
}

void tst_RemoteOperations::pruneRefusedThereNamesHostAndPath()
{
    // The far ckpt runs as nobody, who may read the run but not delete from it.
    const fs::path script = fs::path(m_tmp.path().toStdString()) / "bin" / "nobody-ckpt";
    writeShellScript(
        script, "if [ \"$1\" = prune ]; then exec setpriv --reuid=nobody --regid=nogroup "
                "--clear-groups " CKPT_CLI_PATH " \"$@\"; fi\nexec " CKPT_CLI_PATH " \"$@\"\n");
    for (fs::path p = m_far; p != p.root_path(); p = p.parent_path()) {
        fs::permissions(p, fs::perms::others_exec | fs::perms::others_read, fs::perm_options::add);
        if (p == fs::path(m_tmp.path().toStdString()))
            break;
    }
    Workspace ws;
    open(ws, script.string());
    const Run held = ws.state(root("RUN003"))->run;
    const KeepPolicy policy{KeepMode::Linear, 1};
    std::vector<int> planned;
    for (const auto& c : Pruner::planHeld(held, policy).toDelete)
        planned.push_back(c.epoch);
    QSignalSpy finished(ws.remoteOperations(), &RemoteOperations::finished);
    ws.remoteOperations()->prune(held, policy, planned);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    const QString error = finished.first().at(2).toString();
    QVERIFY2(error.contains(m_server->host()) &&
                 error.contains(QString::fromStdString((m_far / "RUN003").string())),
             qPrintable(error));
    for (int e = 1; e <= 4; ++e)
        QVERIFY(fs::exists(m_far / "RUN003" / "ckpts" / "epochs" /
                           QStringLiteral("%1").arg(e, 3, 10, QLatin1Char('0')).toStdString()));
}

void tst_RemoteOperations::pruneWithADroppedConnectionReadsBackWhatWent()
{
    // The far prune deletes, then the connection drops before its answer.
    const fs::path script = fs::path(m_tmp.path().toStdString()) / "bin" / "prune-drops-ckpt";
    writeShellScript(
        script, std::string("if [ \"$1\" = prune ]; then\n" CKPT_CLI_PATH " \"$@\" >/dev/null\n") +
                    kKillSession + "fi\nexec " CKPT_CLI_PATH " \"$@\"\n");
    Workspace ws;
    open(ws, script.string());
    const Run held = ws.state(root("RUN004"))->run;
    const KeepPolicy policy{KeepMode::Linear, 1};
    std::vector<int> planned;
    for (const auto& c : Pruner::planHeld(held, policy).toDelete)
        planned.push_back(c.epoch);
    QVERIFY(!planned.empty());
    QSignalSpy finished(ws.remoteOperations(), &RemoteOperations::finished);
    QSignalSpy messages(ws.remoteOperations(), &RemoteOperations::message);
    ws.remoteOperations()->prune(held, policy, planned);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QVERIFY2(finished.first().at(2).toString().isEmpty(),
             qPrintable(finished.first().at(2).toString()));
    QTRY_VERIFY(!messages.isEmpty());
    const QString text = messages.first().at(0).toString();
    QStringList gone;
    for (const int e : planned)
        gone << QString::number(e);
    QVERIFY2(text.contains(QStringLiteral("dropped")) && text.contains(m_server->host()) &&
                 text.contains(gone.join(QStringLiteral(", "))),
             qPrintable(text));
    for (const int e : planned)
        QVERIFY(!fs::exists(m_far / "RUN004" / "ckpts" / "epochs" /
                            QStringLiteral("%1").arg(e, 3, 10, QLatin1Char('0')).toStdString()));
}

void tst_RemoteOperations::repairAnnouncesTheMovedLink_data()
{
    QTest::addColumn<QString>("asked");
    QTest::addColumn<QStringList>("broken");
    QTest::newRow("best") << QStringLiteral("best") << QStringList{QStringLiteral("best")};
    QTest::newRow("all") << QStringLiteral("all")
                         << QStringList{QStringLiteral("last"), QStringLiteral("best")};
}

void tst_RemoteOperations::repairAnnouncesTheMovedLink()
{
    QFETCH(QString, asked);
    QFETCH(QStringList, broken);
    // As a copy elsewhere leaves them: absolute, into a folder that is not there.
    std::map<QString, int> was;
    for (const QString& link : broken) {
        const fs::path path = m_far / "RUN001" / "ckpts" / link.toStdString();
        was[link] = linkedEpoch(path);
        QVERIFY(was[link] > 0);
        fs::remove(path);
        fs::create_directory_symlink(QStringLiteral("/gone/ckpts/epochs/%1")
                                         .arg(was[link], 3, 10, QLatin1Char('0'))
                                         .toStdString(),
                                     path);
    }
    Workspace ws;
    open(ws);
    QSignalSpy relinked(ws.remoteOperations(), &RemoteOperations::relinked);
    QSignalSpy finished(ws.remoteOperations(), &RemoteOperations::finished);
    ws.remoteOperations()->repair(root("RUN001"), asked);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QVERIFY2(finished.first().at(2).toString().isEmpty(),
             qPrintable(finished.first().at(2).toString()));
    QCOMPARE(relinked.size(), broken.size());
    for (const auto& r : relinked) {
        const QString link = r.at(1).toString();
        QVERIFY2(broken.contains(link), qPrintable(link));
        const fs::path path = m_far / "RUN001" / "ckpts" / link.toStdString();
        QCOMPARE(linkedEpoch(path), was[link]);
        QVERIFY(fs::read_symlink(path).is_relative());
        QCOMPARE(r.at(2).toInt(), was[link]);
    }
}

void tst_RemoteOperations::undoRevertsTheFarRelink_data()
{
    QTest::addColumn<int>("drop"); // 0: no drop, 1: after the undo, 2: before it
    QTest::newRow("answered") << 0;
    QTest::newRow("dropped after the undo") << 1;
    QTest::newRow("dropped before the undo") << 2;
}

void tst_RemoteOperations::undoRevertsTheFarRelink()
{
    QFETCH(int, drop);
    const fs::path last = m_far / "RUN000" / "ckpts" / "last";
    const int was = linkedEpoch(last);
    const fs::path script = fs::path(m_tmp.path().toStdString()) / "bin" / "dropping-ckpt";
    writeShellScript(script,
                     std::string("if [ \"$1\" = relink ] && [ \"$3\" = --undo ]; then\n:\n") +
                         (drop == 1 ? CKPT_CLI_PATH " \"$@\" >/dev/null\n" : "") +
                         (drop ? kKillSession : "") + "fi\nexec " CKPT_CLI_PATH " \"$@\"\n");
    Workspace ws;
    open(ws, script.string());
    QSignalSpy relinked(&ws, &Workspace::relinked);
    QSignalSpy finished(&ws, &Workspace::operationFinished);
    ws.remote()->relink(root("RUN000"), QStringLiteral("last"), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!relinked.isEmpty(), kConnect);
    QCOMPARE(linkedEpoch(last), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    finished.clear();
    QSignalSpy messages(&ws, &Workspace::message);
    ws.remoteOperations()->undo(root("RUN000"), QStringLiteral("last"), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("undo"));
    const QString error = finished.first().at(2).toString();
    if (drop == 2) {
        // Not applied, and read back to say so: the link is where the relink put it.
        QVERIFY2(error.contains(QStringLiteral("dropped")) && error.contains(m_server->host()),
                 qPrintable(error));
        QCOMPARE(linkedEpoch(last), 2);
        QVERIFY(ws.remote()->client(url(m_far)));
        // Put it back for the next row with the real ckpt.
        RemoteOptions o;
        o.ssh = m_server->sshCommand();
        o.ckpt = CKPT_CLI_PATH;
        const RemoteCkpt real(ws.remote()->client(url(m_far))->target(), o);
        QVERIFY(real.relink((m_far / "RUN000" / "ckpts").string(), "last", was));
        return;
    }
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(linkedEpoch(last), was);
    if (drop == 1) {
        bool readBack = false;
        for (const auto& m : messages)
            readBack = readBack || m.at(0).toString().contains(QStringLiteral("read back"));
        QVERIFY(readBack);
    }
}

QTEST_MAIN(tst_RemoteOperations)
#include "tst_RemoteOperations.moc"
