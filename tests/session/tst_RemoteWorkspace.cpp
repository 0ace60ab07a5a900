#include "CandleFixture.h"
#include "DemoRun.h"
#include "ProcessRunner.h"
#include "SshServer.h"
#include "models/ModelRoles.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "remote/RemoteCkpt.h"
#include "session/RemoteFolders.h"
#include "session/Workspace.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {
// "Within a few seconds" for a change made on the far side.
constexpr int kFewSeconds = 5000;
// Connecting through a real sshd on a loaded machine.
constexpr int kConnect = 60000; // a bound, not a goal: a loaded machine needs ~35 s at times

// Whether a process whose command line starts with `command` runs now.
bool farProcessRuns(const std::string& command)
{
    const auto lines = runningCommandLines();
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
        return line.find(command) != std::string::npos;
    });
}

QStringList epochNumbers(const Run& run)
{
    QStringList out;
    for (const Epoch& e : run.epochs)
        out << QString::number(e.number);
    return out;
}
} // namespace

// The Workspace with folders opened over ssh: a real sshd on loopback
// (tests/support/SshServer) and the real `ckpt` of this build on the far side,
// compared with a local open of the same folder.
class tst_RemoteWorkspace : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void remoteOpenGivesTheLocalRunsStreamed();
    void newFarEpochShowsUp();
    void relinkMovesTheFarLinkAndTheState();
    void verifyReportsResultsAndMismatches();
    void connectionDroppedMidVerifySaysSo();
    void failuresNameTheHostAndWhatToDo_data();
    void failuresNameTheHostAndWhatToDo();
    void stoppedServerShowsReconnectingThenResyncs();

private:
    // ssh://user@127.0.0.1:PORT/<far folder>: the test's key and known_hosts
    // come through the ssh options, as a user's ~/.ssh/config would give them.
    QString url(const fs::path& path, int port = 0) const;
    RemoteOptions options() const;
    // Opens the far folder and waits until its scan ended and its watch is up.
    void open(Workspace& ws, QString& folder);
    QString farRoot(const char* run) const;
    void addEpochAtomically(const fs::path& runRoot, int n);

    std::unique_ptr<SshServer> m_server;
    QTemporaryDir m_tmp;
    fs::path m_far;
};

void tst_RemoteWorkspace::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_server = std::make_unique<SshServer>();
    QVERIFY2(m_server->ok(), m_server->error().c_str());
    QVERIFY(m_tmp.isValid());
    m_far = fs::path(m_tmp.path().toStdString()) / "far" / "exp";
    for (const char* run : {"RUN000", "RUN001"})
        trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_far / run,
                     (m_far / run / "config.ini").string(),
                     "[Global_Params]\nepochs = 4\nlearning_rate = 0.01\n"
                     "samples_per_class = 40\nckpt_checksum = True\n");
}

QString tst_RemoteWorkspace::url(const fs::path& path, int port) const
{
    return QStringLiteral("ssh://%1@127.0.0.1:%2%3")
        .arg(m_server->user())
        .arg(port ? port : m_server->port())
        .arg(QString::fromStdString(path.string()));
}

RemoteOptions tst_RemoteWorkspace::options() const
{
    const QString dir = m_server->dir();
    RemoteOptions o;
    o.ssh = {QStringLiteral("ssh"),
             QStringLiteral("-F"),
             QStringLiteral("/dev/null"),
             QStringLiteral("-o"),
             QStringLiteral("IdentityFile=%1/user_key").arg(dir),
             QStringLiteral("-o"),
             QStringLiteral("IdentitiesOnly=yes"),
             QStringLiteral("-o"),
             QStringLiteral("UserKnownHostsFile=%1/known_hosts").arg(dir),
             QStringLiteral("-o"),
             QStringLiteral("StrictHostKeyChecking=accept-new"),
             QStringLiteral("-o"),
             QStringLiteral("LogLevel=ERROR")};
    o.ckpt = CKPT_CLI_PATH;
    return o;
}

QString tst_RemoteWorkspace::farRoot(const char* run) const
{
    return url(m_far / run / "ckpts");
}

void tst_RemoteWorkspace::open(Workspace& ws, QString& folder)
{
    QSignalSpy finished(&ws, &Workspace::scanFinished);
    folder = ws.openRemote(url(m_far), options());
    QVERIFY(!folder.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QTRY_COMPARE_WITH_TIMEOUT(ws.remote()->connection(folder), RemoteFolders::Connection::Connected,
                              kConnect);
}

void tst_RemoteWorkspace::addEpochAtomically(const fs::path& runRoot, int n)
{
    const fs::path staging = fs::path(m_tmp.path().toStdString()) / "staging" / std::to_string(n) /
                             runRoot.parent_path().filename() / "ckpts";
    CandleFixture s(staging);
    s.addEpoch(n, 0.1, 1024, false);
    char name[8];
    std::snprintf(name, sizeof name, "%03d", n);
    fs::rename(s.epochDir(n), runRoot / "epochs" / name);
}

void tst_RemoteWorkspace::remoteOpenGivesTheLocalRunsStreamed()
{
    Workspace local;
    QSignalSpy localDone(&local, &Workspace::allScansFinished);
    local.openFolders({QString::fromStdString(m_far.string())});
    QTRY_VERIFY_WITH_TIMEOUT(!localDone.isEmpty(), kConnect);

    Workspace ws;
    QSignalSpy added(&ws, &Workspace::runAdded);
    QSignalSpy history(&ws, &Workspace::historyChanged);
    // Runs stream in: every run is in the registry before the scan says it ended.
    int addedBeforeEnd = -1;
    connect(&ws, &Workspace::scanFinished, this,
            [&] { addedBeforeEnd = static_cast<int>(added.size()); });
    QString folder;
    open(ws, folder);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(folder, url(m_far));
    QCOMPARE(addedBeforeEnd, 2);
    QCOMPARE(ws.folders(), QStringList{folder});

    const QString prefix =
        QStringLiteral("ssh://%1@127.0.0.1:%2").arg(m_server->user()).arg(m_server->port());
    QCOMPARE(ws.runRoots().size(), local.runRoots().size());
    for (const QString& localRoot : local.runRoots()) {
        const QString root = prefix + localRoot;
        QVERIFY2(ws.state(root), qPrintable(root));
        QCOMPARE(epochNumbers(*ws.run(root)), epochNumbers(*local.run(localRoot)));
        QCOMPARE(ws.run(root)->linkedEpoch("last"), local.run(localRoot)->linkedEpoch("last"));
        QCOMPARE(ws.runName(root), local.runName(localRoot));
        QVERIFY(ws.isRemote(root));
        QVERIFY(!local.isRemote(localRoot));
        // Marked remote in the sidebar, and current.
        const QModelIndex index = ws.runTree()->indexOfRun(root);
        QCOMPARE(index.data(roles::RemoteHostRole).toString(),
                 QStringLiteral("%1@127.0.0.1:%2").arg(m_server->user()).arg(m_server->port()));
        QCOMPARE(index.data(roles::StaleRole).toString(), QString());
        // The metrics came from the far `ckpt history`.
        QTRY_VERIFY_WITH_TIMEOUT(ws.state(root)->history != nullptr, kConnect);
        QTRY_VERIFY_WITH_TIMEOUT(local.state(localRoot)->history != nullptr, kConnect);
        QCOMPARE(ws.state(root)->history->latestPerEpoch().size(),
                 local.state(localRoot)->history->latestPerEpoch().size());
        QCOMPARE(*ws.state(root)->history->rows.back().value("loss"),
                 *local.state(localRoot)->history->rows.back().value("loss"));
    }
    QCOMPARE(ws.runTree()->indexOfFolder(folder).data(roles::RemoteHostRole).toString(),
             QStringLiteral("%1@127.0.0.1:%2").arg(m_server->user()).arg(m_server->port()));
    ws.showRuns(ws.runRoots());
    QCOMPARE(ws.shownRuns().size(), 2);
}

void tst_RemoteWorkspace::newFarEpochShowsUp()
{
    Workspace ws;
    QString folder;
    open(ws, folder);
    if (QTest::currentTestFailed())
        return;
    const QString root = farRoot("RUN000");
    QSignalSpy epochs(&ws, &Workspace::epochAdded);
    addEpochAtomically(m_far / "RUN000" / "ckpts", 9);
    QTRY_VERIFY_WITH_TIMEOUT(ws.run(root)->findEpoch(9), kFewSeconds);
    QCOMPARE(epochs.last().at(0).toString(), root);
    QCOMPARE(ws.runTree()->summary(root)->epochs, static_cast<int>(ws.run(root)->epochs.size()));
    // Removed on the far side: gone here too.
    fs::remove_all(m_far / "RUN000" / "ckpts" / "epochs" / "009");
    QTRY_VERIFY_WITH_TIMEOUT(!ws.run(root)->findEpoch(9), kFewSeconds);

    // `last` moved by hand on the far side (ln -sfn, atomically): the state follows.
    const fs::path ckpts = m_far / "RUN000" / "ckpts";
    const fs::path target = fs::read_symlink(ckpts / "last");
    fs::create_directory_symlink("epochs/001", ckpts / "last.tmp");
    fs::rename(ckpts / "last.tmp", ckpts / "last");
    QTRY_COMPARE_WITH_TIMEOUT(ws.run(root)->linkedEpoch("last"), std::optional<int>(1),
                              kFewSeconds);
    fs::create_directory_symlink(target, ckpts / "last.tmp");
    fs::rename(ckpts / "last.tmp", ckpts / "last");
    QTRY_COMPARE_WITH_TIMEOUT(ws.run(root)->linkedEpoch("last"), std::optional<int>(4),
                              kFewSeconds);

    // A run that appears on the far side joins the folder; removed, it leaves.
    const fs::path staging = fs::path(m_tmp.path().toStdString()) / "staging-run";
    fs::create_directories(staging);
    fs::copy(m_far / "RUN001", staging / "RUN009",
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::rename(staging / "RUN009", m_far / "RUN009");
    const QString added = farRoot("RUN009");
    QTRY_VERIFY_WITH_TIMEOUT(ws.state(added), 2 * kFewSeconds);
    QVERIFY(ws.runTree()->indexOfRun(added).isValid());
    fs::remove_all(m_far / "RUN009");
    QTRY_VERIFY_WITH_TIMEOUT(!ws.state(added), 2 * kFewSeconds);
}

void tst_RemoteWorkspace::relinkMovesTheFarLinkAndTheState()
{
    Workspace ws;
    QString folder;
    open(ws, folder);
    if (QTest::currentTestFailed())
        return;
    const QString root = farRoot("RUN001");
    const fs::path last = m_far / "RUN001" / "ckpts" / "last";
    QCOMPARE(ws.run(root)->linkedEpoch("last"), std::optional<int>(4));
    QSignalSpy done(&ws, &Workspace::operationFinished);
    ws.remote()->relink(root, QStringLiteral("last"), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), kConnect);
    QCOMPARE(done.first().at(2).toString(), QString());
    QVERIFY2(fs::read_symlink(last).string().find("002") != std::string::npos,
             fs::read_symlink(last).c_str());
    QTRY_COMPARE_WITH_TIMEOUT(ws.run(root)->linkedEpoch("last"), std::optional<int>(2),
                              kFewSeconds);
    QTRY_COMPARE_WITH_TIMEOUT(ws.runTree()->summary(root)->lastEpoch, std::optional<int>(2),
                              kFewSeconds);

    // A refused relink (no epoch 77) says so and changes nothing.
    done.clear();
    ws.remote()->relink(root, QStringLiteral("last"), 77);
    QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), kConnect);
    QVERIFY(!done.first().at(2).toString().isEmpty());
    QVERIFY2(fs::read_symlink(last).string().find("002") != std::string::npos,
             fs::read_symlink(last).c_str());

    done.clear();
    ws.remote()->relink(root, QStringLiteral("last"), 4);
    QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), kConnect);
    QTRY_COMPARE_WITH_TIMEOUT(ws.run(root)->linkedEpoch("last"), std::optional<int>(4),
                              kFewSeconds);
}

void tst_RemoteWorkspace::verifyReportsResultsAndMismatches()
{
    Workspace ws;
    QString folder;
    open(ws, folder);
    if (QTest::currentTestFailed())
        return;
    const QString root = farRoot("RUN000");
    QSignalSpy finished(&ws, &Workspace::verifyFinished);
    QSignalSpy started(&ws, &Workspace::verifyStarted);
    ws.verify({{root, {}}});
    QVERIFY(ws.isVerifying());
    // Marked at once, as a local verification does.
    QCOMPARE(ws.state(root)->checks.at(1).state, ChecksumState::Verifying);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QCOMPARE(started.size(), 1);
    const RunState* s = ws.state(root);
    QCOMPARE(s->checks.size(), s->run.epochs.size());
    for (const auto& [epoch, verdict] : s->checks)
        QCOMPARE(verdict.state, ChecksumState::Ok);
    QCOMPARE(ws.runTree()->summary(root)->checksum, ChecksumState::Ok);

    // A byte flipped in a far model file: a mismatch problem on that epoch.
    const fs::path model = m_far / "RUN000" / "ckpts" / "epochs" / "002" / "model.h5";
    {
        std::fstream f(model, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(600);
        const char c = static_cast<char>(f.get());
        f.seekp(600);
        f.put(static_cast<char>(c ^ 0x5a));
    }
    finished.clear();
    ws.verify({{root, {}}});
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QCOMPARE(ws.state(root)->checks.at(2).state, ChecksumState::Mismatch);
    // Selected epochs only: the others keep what they had.
    finished.clear();
    ws.verify({{root, {3}}});
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QCOMPARE(ws.state(root)->checks.at(2).state, ChecksumState::Mismatch);
    QCOMPARE(ws.state(root)->checks.at(3).state, ChecksumState::Ok);
    bool problem = false;
    for (int row = 0; row < ws.problems()->rowCount(); ++row)
        problem = problem || (ws.problems()->rootAt(row) == root &&
                              ws.problems()->problemAt(row)->kind == ProblemKind::ChecksumMismatch);
    QVERIFY(problem);
}

void tst_RemoteWorkspace::connectionDroppedMidVerifySaysSo()
{
    // The far verify takes its time (a ckpt that pauses first), so the drop lands mid-way.
    const fs::path slow = fs::path(m_tmp.path().toStdString()) / "slow-ckpt";
    {
        std::ofstream out(slow);
        out << "#!/bin/sh\nif [ \"$1\" = verify ]; then sleep 20; fi\nexec " CKPT_CLI_PATH
               " \"$@\"\n";
    }
    fs::permissions(slow, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
    RemoteOptions o = options();
    o.ckpt = slow.string();
    Workspace ws;
    QSignalSpy scanned(&ws, &Workspace::scanFinished);
    const QString folder = ws.openRemote(url(m_far), o);
    QTRY_VERIFY_WITH_TIMEOUT(!scanned.isEmpty(), kConnect);
    const QString root = farRoot("RUN000");
    QVERIFY(ws.state(root));
    QSignalSpy finished(&ws, &Workspace::verifyFinished);
    ws.verify({{root, {}}});
    // The far verify runs (/bin/sh running the slow ckpt script with "verify", not
    // the local ssh client whose command line names it too): drop now.
    QTRY_VERIFY_WITH_TIMEOUT(farProcessRuns("/bin/sh " + slow.string() + " verify"), kConnect);
    m_server->dropConnections();
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    const QString text = finished.first().at(0).toString();
    QVERIFY2(text.contains(QStringLiteral("127.0.0.1")) && text.contains(QStringLiteral("dropped")),
             qPrintable(text));
    QVERIFY(!ws.isVerifying());
    // Nothing was claimed verified, and nothing is left "verifying".
    QVERIFY(ws.state(root)->checks.empty());
    ws.closeFolder(folder);
}

void tst_RemoteWorkspace::failuresNameTheHostAndWhatToDo_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("says");
    QTest::newRow("nobody listens on the port")
        << "port" << int(RemoteFolders::Connection::Reconnecting) << "Cannot reach";
    QTest::newRow("folder missing on the far side")
        << "folder" << int(RemoteFolders::Connection::Failed) << "no such folder";
    QTest::newRow("ckpt missing on the far side")
        << "ckpt" << int(RemoteFolders::Connection::Failed) << "install-remote.sh";
}

void tst_RemoteWorkspace::failuresNameTheHostAndWhatToDo()
{
    QFETCH(QString, what);
    QFETCH(int, state);
    QFETCH(QString, says);
    Workspace ws;
    ws.remote()->setBackoff(500, 1000);
    RemoteOptions o = options();
    if (what == QLatin1String("ckpt"))
        o.ckpt = "/no/such/ckpt";
    const QString u = what == QLatin1String("port")     ? url(m_far, SshServer::freePort())
                      : what == QLatin1String("folder") ? url(m_far / "no-such-folder")
                                                        : url(m_far);
    QSignalSpy messages(&ws, &Workspace::message);
    const QString folder = ws.openRemote(u, o);
    QVERIFY(!folder.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(int(ws.remote()->connection(folder)), state, kConnect);
    const QString text = ws.remote()->connectionMessage(folder);
    QVERIFY2(text.contains(QStringLiteral("127.0.0.1")), qPrintable(text));
    QVERIFY2(text.contains(says, Qt::CaseInsensitive), qPrintable(text));
    // The window is told, and the sidebar shows the folder is not current.
    bool told = false;
    for (const auto& m : messages)
        told = told || m.at(0).toString() == text;
    QVERIFY(told);
    QVERIFY(!ws.runTree()->indexOfFolder(folder).data(roles::StaleRole).toString().isEmpty());
    QVERIFY(ws.runRoots().isEmpty());
    // Retry now: connecting again at once, not after the back-off; same verdict.
    ws.remote()->retry(folder);
    QCOMPARE(ws.remote()->connection(folder), RemoteFolders::Connection::Connecting);
    QTRY_COMPARE_WITH_TIMEOUT(int(ws.remote()->connection(folder)), state, kConnect);
    QVERIFY2(ws.remote()->connectionMessage(folder).contains(says, Qt::CaseInsensitive),
             qPrintable(ws.remote()->connectionMessage(folder)));
    // The user can close it: nothing of it is left.
    ws.closeFolder(folder);
    QVERIFY(ws.folders().isEmpty());
    QVERIFY(!ws.runTree()->indexOfFolder(folder).isValid());
    QVERIFY(!ws.remote()->contains(folder));
    QTRY_VERIFY_WITH_TIMEOUT(ws.isIdle(), kConnect);
}

void tst_RemoteWorkspace::stoppedServerShowsReconnectingThenResyncs()
{
    Workspace ws;
    ws.remote()->setBackoff(500, 1000);
    QString folder;
    open(ws, folder);
    if (QTest::currentTestFailed())
        return;
    const QString root = farRoot("RUN001");
    const int before = static_cast<int>(ws.run(root)->epochs.size());

    m_server->stop();
    QTRY_COMPARE_WITH_TIMEOUT(ws.remote()->connection(folder),
                              RemoteFolders::Connection::Reconnecting, kConnect);
    const QString why = ws.remote()->connectionMessage(folder);
    QVERIFY2(why.contains(QStringLiteral("127.0.0.1")) && why.contains(QStringLiteral("again")),
             qPrintable(why));
    // The runs say they are not current.
    QCOMPARE(ws.runTree()->indexOfRun(root).data(roles::StaleRole).toString(),
             QStringLiteral("reconnecting"));
    QVERIFY(ws.runTree()->indexOfRun(root).data(Qt::ToolTipRole).toString().contains(why));

    // Written while nobody could watch: the re-scan after reconnecting finds it.
    addEpochAtomically(m_far / "RUN001" / "ckpts", before + 5);
    QVERIFY2(m_server->resume(), m_server->error().c_str());
    QTRY_COMPARE_WITH_TIMEOUT(ws.remote()->connection(folder), RemoteFolders::Connection::Connected,
                              kConnect);
    QTRY_VERIFY_WITH_TIMEOUT(ws.run(root)->findEpoch(before + 5), kFewSeconds);
    QCOMPARE(ws.runTree()->indexOfRun(root).data(roles::StaleRole).toString(), QString());
}

QTEST_GUILESS_MAIN(tst_RemoteWorkspace)
#include "tst_RemoteWorkspace.moc"
