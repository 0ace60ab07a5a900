#include "DemoRun.h"
#include "ExperimentsController.h"
#include "MainWindow.h"
#include "RemoteActions.h"
#include "Screenshots.h"
#include "SshServer.h"
#include "candle/CandleResume.h"
#include "dialogs/ConnectDialog.h"
#include "dialogs/LaunchDialog.h"
#include "experiments/ExperimentsPanel.h"
#include "experiments/LineageView.h"
#include "launch/CommandTemplate.h"
#include "models/ModelRoles.h"
#include "models/RunTreeModel.h"
#include "problems/ProblemsPanel.h"
#include "session/RemoteFolders.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {
constexpr int kConnect = 60000; // a bound, not a goal: a loaded machine needs ~35 s at times

} // namespace

// The studio window with remote folders: a real sshd on loopback, the real
// `ckpt` of this build on the far side, real clicks and keys.
class tst_RemoteWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void commandLineUrlOpensItMarkedRemote();
    void connectDialogTestsAndConnects();
    void stoppedServerMarksTheRunsOffline();
    void remoteProblemsOfferNoLocalRepair();
    void forkFromARemoteEpochThroughTheDialog();
    void restartFromARemoteEpochMovesLaterEpochsAside();
    void stopFromTheExperimentsTabStopsAFarRun();
    void unreachableHostWhileReadingParametersNamesIt();
    void forkOutsideTheOpenFolderIsOpenedToo();
    void farLaunchFailureKeepsTheDialogOpen();

private:
    // Opens `folder` (default: the launch folder) in the window, selects
    // `run`'s epoch `epoch`.
    void openAndSelectEpoch(MainWindow& window, const QString& run, int epoch,
                            const fs::path& folder = {});
    // The restart/fork dialog the window opened (exec: a nested event loop).
    static LaunchDialog* launchDialog();
    // In `dialog`: the far parameters fail (no config known for a run Ckpt
    // Studio did not launch), the user names the config and the command,
    // sets `key` to `value` in the table and launches. Returns the dialog's
    // message when something failed.
    QString driveLaunch(LaunchDialog* dialog, const QString& run, const QString& key,
                        const QString& value, const std::function<void()>& beforeLaunch = {});
    // The Experiments tab's row of `root` (invalid when not listed).
    static QModelIndex experimentsRow(MainWindow& window, const QString& root, int column);
    static QString fileWith(const fs::path& folder, const std::string& text);
    QString url(const fs::path& path) const
    {
        return QStringLiteral("ssh://%1%2")
            .arg(m_server->host(), QString::fromStdString(path.string()));
    }
    QModelIndex sidebarRow(MainWindow& window, const QString& root) const;

    std::unique_ptr<SshServer> m_server;
    QTemporaryDir m_tmp;
    fs::path m_far;
    fs::path m_launchFar; // runs to restart and fork from
};

void tst_RemoteWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_RemoteWindow"));
    m_server = std::make_unique<SshServer>();
    QVERIFY2(m_server->ok(), m_server->error().c_str());
    m_far = fs::path(m_tmp.path().toStdString()) / "cluster" / "exp";
    for (const char* run : {"RUN000", "RUN001"})
        trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_far / run,
                     (m_far / run / "config.ini").string(),
                     "[Global_Params]\nepochs = 3\nlearning_rate = 0.01\n"
                     "samples_per_class = 40\nckpt_checksum = True\n");
    m_launchFar = fs::path(m_tmp.path().toStdString()) / "cluster" / "launch";
    for (const char* run : {"RUN000", "RUN001", "RUN002"})
        trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_launchFar / run,
                     (m_launchFar / run / "config.ini").string(),
                     "[Global_Params]\nepochs = 4\nlearning_rate = 0.01\n"
                     "samples_per_class = 40\nckpt_checksum = True\n");
    // The far launches keep their registry in a folder of this test.
    const QString wrapper = m_tmp.filePath(QStringLiteral("bin/ckpt"));
    QVERIFY(QDir().mkpath(QFileInfo(wrapper).path()));
    QFile script(wrapper);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\nXDG_DATA_HOME='" +
                 m_tmp.filePath(QStringLiteral("far-data")).toLocal8Bit() +
                 "' exec " CKPT_CLI_PATH " \"$@\"\n");
    script.close();
    QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                  QFile::ReadOther | QFile::ExeOther));
    // How a user points the app at their ssh set-up and far ckpt.
    qputenv("CKPT_SSH_COMMAND", ("ssh -F " + m_server->configFile()).toLocal8Bit());
    qputenv("CKPT_REMOTE_CKPT", wrapper.toLocal8Bit());
}

void tst_RemoteWindow::init()
{
    QSettings().clear();
}

QModelIndex tst_RemoteWindow::sidebarRow(MainWindow& window, const QString& root) const
{
    QAbstractItemModel* model = window.sidebar()->view()->model();
    for (int f = 0; f < model->rowCount(); ++f) {
        const QModelIndex folder = model->index(f, 0);
        for (int r = 0; r < model->rowCount(folder); ++r)
            if (model->index(r, 0, folder).data(roles::RunRootRole).toString() == root)
                return model->index(r, 0, folder);
    }
    return {};
}

void tst_RemoteWindow::commandLineUrlOpensItMarkedRemote()
{
    Workspace workspace;
    MainWindow window(&workspace);
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // What main() does with the positional arguments.
    window.openFolders({url(m_far)});
    const QString root = url(m_far / "RUN001" / "ckpts");
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, root).isValid(), kConnect);
    const QModelIndex row = sidebarRow(window, root);
    QCOMPARE(row.data(roles::RemoteHostRole).toString(), m_server->host());
    QVERIFY(row.data(Qt::ToolTipRole).toString().contains(QStringLiteral("remote, on ckpt-test")));
    QTRY_COMPARE_WITH_TIMEOUT(workspace.remote()->connection(url(m_far)),
                              RemoteFolders::Connection::Connected, kConnect);
    QCOMPARE(row.parent().data(roles::StaleRole).toString(), QString());

    // Click the run: its epochs fill the table, as for a local run. Once the
    // far scan has listed every run: one listed later sorts in above and
    // moves the row under the click (under ASan the click landed on RUN000).
    QTRY_VERIFY_WITH_TIMEOUT(workspace.isIdle(), kConnect);
    QTreeView* tree = window.sidebar()->view();
    const QModelIndex listed = sidebarRow(window, root);
    tree->scrollTo(listed);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(listed).center());
    QTRY_COMPARE(workspace.shownRuns(), QStringList{root});
    QTRY_COMPARE(window.epochTable()->view()->model()->rowCount(), 3);
    // Its metrics come from the far `ckpt history`, as for a local run.
    QTRY_VERIFY_WITH_TIMEOUT(workspace.state(root)->history != nullptr, kConnect);
    QVERIFY(!workspace.state(root)->history->rows.empty());
    // Select an epoch: rollback, inspect, restart and fork are offered (the far
    // ckpt does them).
    QTableView* table = window.epochTable()->view();
    const QModelIndex first = table->model()->index(0, 1);
    table->scrollTo(first);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(first).center());
    QTRY_VERIFY(window.action(QStringLiteral("makeLast"))->isEnabled());
    for (const char* name : {"restartFrom", "forkFrom", "inspectModel"})
        QVERIFY2(window.action(QLatin1String(name))->isEnabled(), name);
    QVERIFY(window.action(QStringLiteral("retryRemote"))->isEnabled());
    // Remembered as a recent folder, as the URL.
    keepScreenshot(&window, QStringLiteral("remote-connected.png"));
    window.action(QStringLiteral("closeFolder"))->trigger();
    QVERIFY(workspace.folders().isEmpty());
    QCOMPARE(window.sidebar()->view()->model()->rowCount(), 0);
}

void tst_RemoteWindow::connectDialogTestsAndConnects()
{
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QString result;
    bool connected = false;
    connect(window.remoteActions(), &RemoteActions::dialogShown, this, [&](QWidget* w) {
        auto* dialog = qobject_cast<ConnectDialog*>(w);
        QVERIFY(dialog);
        QTimer::singleShot(0, dialog, [&, dialog] {
            // Typed as a user would; first a port nobody listens on.
            QTest::keyClicks(dialog->hostBox()->lineEdit(), QStringLiteral("127.0.0.1"));
            auto* port = dialog->findChild<QSpinBox*>(QStringLiteral("port"));
            port->setValue(SshServer::freePort());
            QTest::keyClicks(dialog->pathEdit(), QString::fromStdString(m_far.string()));
            QTest::mouseClick(dialog->testButton(), Qt::LeftButton);
            QSignalSpy probed(dialog, &ConnectDialog::probed);
            QTRY_VERIFY_WITH_TIMEOUT(!probed.isEmpty(), kConnect);
            QVERIFY(!probed.first().at(0).toBool());
            result = dialog->resultLabel()->text();
            keepScreenshot(dialog, QStringLiteral("connect-dialog-failed.png"));
            // Then the test server's Host alias from the ssh config.
            dialog->hostBox()->lineEdit()->clear();
            QTest::keyClicks(dialog->hostBox()->lineEdit(), m_server->host());
            port->setValue(0);
            probed.clear();
            QTest::mouseClick(dialog->testButton(), Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(!probed.isEmpty(), kConnect);
            QVERIFY2(probed.first().at(0).toBool(), qPrintable(dialog->resultLabel()->text()));
            keepScreenshot(dialog, QStringLiteral("connect-dialog.png"));
            auto* buttons = dialog->findChild<QDialogButtonBox*>();
            QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
            connected = true;
        });
    });
    window.action(QStringLiteral("connect"))->trigger();
    QVERIFY(connected);
    QVERIFY2(result.contains(QStringLiteral("Cannot reach 127.0.0.1")), qPrintable(result));
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, url(m_far / "RUN000" / "ckpts")).isValid(),
                             kConnect);
    // Remembered for the next time (Open Recent and the dialog's Recent list).
    window.close();
    QVERIFY2(QSettings().value(QStringLiteral("recentFolders")).toStringList().contains(url(m_far)),
             qPrintable(QSettings()
                            .value(QStringLiteral("recentFolders"))
                            .toStringList()
                            .join(QLatin1Char(' '))));
}

void tst_RemoteWindow::stoppedServerMarksTheRunsOffline()
{
    Workspace workspace;
    workspace.remote()->setBackoff(500, 1000);
    MainWindow window(&workspace);
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({url(m_far)});
    QTRY_COMPARE_WITH_TIMEOUT(workspace.remote()->connection(url(m_far)),
                              RemoteFolders::Connection::Connected, kConnect);
    const QString root = url(m_far / "RUN000" / "ckpts");
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, root).isValid(), kConnect);
    window.sidebar()->selectRuns({root});
    QTRY_VERIFY_WITH_TIMEOUT(workspace.state(root)->history != nullptr, kConnect);

    m_server->stop();
    QTRY_COMPARE_WITH_TIMEOUT(sidebarRow(window, root).data(roles::StaleRole).toString(),
                              QStringLiteral("reconnecting"), kConnect);
    QVERIFY(sidebarRow(window, root)
                .parent()
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Trying again")));
    // The title says that what the table and plot show may be out of date.
    QVERIFY2(window.windowTitle().startsWith(QStringLiteral("[offline: ckpt-test]")),
             qPrintable(window.windowTitle()));
    keepScreenshot(&window, QStringLiteral("remote-reconnecting.png"));
    QVERIFY2(m_server->resume(), m_server->error().c_str());
    QTRY_COMPARE_WITH_TIMEOUT(sidebarRow(window, root).data(roles::StaleRole).toString(), QString(),
                              kConnect);
    QVERIFY2(!window.windowTitle().contains(QStringLiteral("offline")),
             qPrintable(window.windowTitle()));
}

void tst_RemoteWindow::remoteProblemsOfferNoLocalRepair()
{
    // `best` dangling on the far side: a repairable problem for a local run.
    const fs::path best = m_far / "RUN001" / "ckpts" / "best";
    const fs::path was = fs::read_symlink(best);
    fs::remove(best);
    fs::create_directory_symlink("epochs/099", best);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({url(m_far)});
    QTableView* problems = window.problemsPanel()->view();
    QTRY_VERIFY_WITH_TIMEOUT(problems->model()->rowCount() > 0, kConnect);
    window.action(QStringLiteral("focusProblems"))->trigger();
    const QModelIndex row = problems->model()->index(0, 1);
    QCOMPARE(row.data(roles::RunRootRole).toString(), url(m_far / "RUN001" / "ckpts"));
    QTest::mouseClick(problems->viewport(), Qt::LeftButton, {}, problems->visualRect(row).center());
    QTRY_COMPARE(problems->currentIndex().row(), 0);
    // Its files are not here: nothing local is offered, and the buttons say why.
    QVERIFY(!window.problemsPanel()->repairButton()->isEnabled());
    QVERIFY(!window.problemsPanel()->repairAllButton()->isEnabled());
    QVERIFY(!window.problemsPanel()->openButton()->isEnabled());
    QVERIFY(window.problemsPanel()->openButton()->toolTip().contains(QStringLiteral("remote")));
    fs::remove(best);
    fs::create_directory_symlink(was, best);
}

void tst_RemoteWindow::openAndSelectEpoch(MainWindow& window, const QString& run, int epoch,
                                          const fs::path& folder)
{
    window.resize(1280, 860);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({url(folder.empty() ? m_launchFar : folder)});
    const QString root = url(m_launchFar / run.toStdString() / "ckpts");
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, root).isValid(), kConnect);
    QTreeView* tree = window.sidebar()->view();
    const QModelIndex row = sidebarRow(window, root);
    tree->scrollTo(row);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(row).center());
    QTableView* table = window.epochTable()->view();
    QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() >= epoch, kConnect);
    QModelIndex cell;
    for (int r = 0; r < table->model()->rowCount(); ++r)
        if (table->model()->index(r, 1).data().toString() == QString::number(epoch))
            cell = table->model()->index(r, 1);
    QVERIFY(cell.isValid());
    table->scrollTo(cell);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QTRY_VERIFY(window.action(QStringLiteral("forkFrom"))->isEnabled());
}

LaunchDialog* tst_RemoteWindow::launchDialog()
{
    return qobject_cast<LaunchDialog*>(QApplication::activeModalWidget());
}

QString tst_RemoteWindow::driveLaunch(LaunchDialog* dialog, const QString& run, const QString& key,
                                      const QString& value,
                                      const std::function<void()>& beforeLaunch)
{
    const auto fail = [dialog](const char* what) {
        return QStringLiteral("%1; message: %2; parameters: %3")
            .arg(QLatin1String(what), dialog->messageLabel()->text(),
                 dialog->parametersStatus()->text());
    };
    // The run was not launched by Ckpt Studio: the far ckpt finds the one
    // CANDLE config in its folder; the user names the command.
    const QString config =
        QString::fromStdString((m_launchFar / run.toStdString() / "config.ini").string());
    if (!QTest::qWaitFor(
            [&] {
                return dialog->parameterTable()->isVisible() &&
                       dialog->parameterTable()->rowCount() > 0;
            },
            kConnect))
        return fail("the far params were not read");
    if (dialog->configEdit()->text() != config)
        return fail("the config in the run's folder was not found");
    dialog->templateEdit()->setFocus();
    QTest::keyClicks(dialog->templateEdit(),
                     QString::fromStdString(CandleResume::demoTrainerCommand(CKPT_DEMO_TRAIN)));
    QTableWidget* table = dialog->parameterTable();
    int row = -1;
    if (!QTest::qWaitFor(
            [&] {
                for (int r = 0; r < table->rowCount() && table->isVisible(); ++r)
                    if (table->item(r, 0)->text() == key)
                        row = r;
                return row >= 0;
            },
            kConnect))
        return fail("no parameter table");
    if (table->item(row, 1)->text() != QStringLiteral("0.01"))
        return fail("learning_rate is not the far config's");
    keepScreenshot(dialog, QStringLiteral("remote-launch-filled.png"));
    table->setFocus();
    table->setCurrentCell(row, 1);
    QTest::keyClick(table, Qt::Key_F2);
    auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    if (!editor)
        return fail("no editor");
    editor->selectAll();
    QTest::keyClicks(editor, value);
    QTest::keyClick(editor, Qt::Key_Return);
    if (beforeLaunch)
        beforeLaunch();
    const QString change = QStringLiteral("%1: 0.01 -> %2").arg(key, value);
    if (!QTest::qWaitFor(
            [&] {
                return dialog->isPlanned() && dialog->launchButton()->isEnabled() &&
                       dialog->planView()->toPlainText().contains(change);
            },
            kConnect))
        return fail("no far plan with the change");
    keepScreenshot(dialog, QStringLiteral("remote-launch-planned.png"));
    QTest::mouseClick(dialog->launchButton(), Qt::LeftButton);
    if (!QTest::qWaitFor([&] { return dialog->result() == QDialog::Accepted; }, 60000))
        return fail("not launched");
    return {};
}

QModelIndex tst_RemoteWindow::experimentsRow(MainWindow& window, const QString& root, int column)
{
    QAbstractItemModel* model = window.experiments()->panel()->table()->model();
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, 0).data(roles::RunRootRole).toString() == root)
            return model->index(r, column);
    return {};
}

QString tst_RemoteWindow::fileWith(const fs::path& folder, const std::string& text)
{
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(folder, ec)) {
        if (!e.is_regular_file() || e.path().extension() != ".ini")
            continue;
        std::ifstream in(e.path());
        std::stringstream all;
        all << in.rdbuf();
        if (all.str().find(text) != std::string::npos)
            return QString::fromStdString(e.path().string());
    }
    return {};
}

void tst_RemoteWindow::forkFromARemoteEpochThroughTheDialog()
{
    Workspace workspace;
    MainWindow window(&workspace);
    openAndSelectEpoch(window, QStringLiteral("RUN000"), 2);
    QString failure = QStringLiteral("no dialog");
    QString loading;
    QTimer::singleShot(0, this, [&] {
        LaunchDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = launchDialog()) != nullptr);
        auto closeOnFailure = qScopeGuard([&] {
            if (!failure.isEmpty())
                dialog->reject();
        });
        // Read on the far side while the dialog is up.
        loading = dialog->parametersStatus()->text();
        keepScreenshot(dialog, QStringLiteral("remote-launch-loading.png"));
        failure = driveLaunch(dialog, QStringLiteral("RUN000"), QStringLiteral("learning_rate"),
                              QStringLiteral("0.02"));
    });
    window.action(QStringLiteral("forkFrom"))->trigger();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QCOMPARE(loading, QStringLiteral("Reading parameters from ckpt-test…"));

    // The fork is made beside its parent on the far side, with the edited value.
    const fs::path fork = m_launchFar / "RUN000-fork-e002";
    QVERIFY(fs::exists(fork / "ckpts" / "epochs" / "002"));
    QVERIFY2(!fileWith(fork, "learning_rate = 0.02").isEmpty(), fork.c_str());
    // The folder's watch brings it into the sidebar.
    const QString root = url(fork / "ckpts");
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, root).isValid(), kConnect);
    // The Experiments tab lists it from the far `ckpt runs`, marked remote, with its lineage.
    ExperimentsPanel* panel = window.experiments()->panel();
    QVERIFY(panel->isVisible()); // the tab shows what was launched
    QTRY_VERIFY_WITH_TIMEOUT(experimentsRow(window, root, 1).isValid(), kConnect);
    const QString state = experimentsRow(window, root, 1).data().toString();
    QVERIFY2(state == QStringLiteral("running") || state == QStringLiteral("completed"),
             qPrintable(state));
    QCOMPARE(experimentsRow(window, root, 0).data(roles::RemoteHostRole).toString(),
             m_server->host());
    QCOMPARE(experimentsRow(window, root, 2).data().toString(),
             QStringLiteral("local @ ckpt-test"));
    QTRY_VERIFY_WITH_TIMEOUT(
        panel->lineage()->linkLabels().contains(QStringLiteral("e2: learning_rate 0.01 -> 0.02")),
        kConnect);
    QTRY_COMPARE_WITH_TIMEOUT(experimentsRow(window, root, 1).data().toString(),
                              QStringLiteral("completed"), 60000);
    QCOMPARE(panel->selectedRun(), root);
    keepScreenshot(&window, QStringLiteral("remote-experiments.png"));
}

void tst_RemoteWindow::restartFromARemoteEpochMovesLaterEpochsAside()
{
    Workspace workspace;
    MainWindow window(&workspace);
    openAndSelectEpoch(window, QStringLiteral("RUN001"), 2);
    QString failure = QStringLiteral("no dialog");
    QTimer::singleShot(0, this, [&] {
        LaunchDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = launchDialog()) != nullptr);
        auto closeOnFailure = qScopeGuard([&] {
            if (!failure.isEmpty())
                dialog->reject();
        });
        failure = driveLaunch(dialog, QStringLiteral("RUN001"), QStringLiteral("learning_rate"),
                              QStringLiteral("0.005"));
    });
    window.action(QStringLiteral("restartFrom"))->trigger();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    // As a local restart: epochs 3 and 4 moved aside on the far side, then trained again.
    const fs::path run = m_launchFar / "RUN001" / "ckpts";
    const fs::path aside = run / ".ckpt-studio" / "superseded";
    QVERIFY(fs::is_directory(aside));
    int moved = 0;
    for (const auto& d : fs::directory_iterator(aside))
        moved += fs::exists(d.path() / "epochs" / "003") && fs::exists(d.path() / "epochs" / "004");
    QCOMPARE(moved, 1);
    const QString root = url(run);
    QTRY_COMPARE_WITH_TIMEOUT(experimentsRow(window, root, 1).data().toString(),
                              QStringLiteral("completed"), 60000);
    QVERIFY(fs::exists(run / "epochs" / "004"));
    QTRY_VERIFY_WITH_TIMEOUT(window.experiments()->panel()->lineage()->linkLabels().contains(
                                 QStringLiteral("e2: learning_rate 0.01 -> 0.005")),
                             kConnect);
}

void tst_RemoteWindow::stopFromTheExperimentsTabStopsAFarRun()
{
    // A long run launched on the far side (as another window or `ckpt launch` would).
    RemoteTarget target;
    target.host = m_server->host().toStdString();
    target.path = m_launchFar.string();
    const RemoteCkpt client(target, RemoteFolders::defaultOptions());
    RemoteLaunchRequest slow;
    slow.run = (m_launchFar / "RUN002" / "ckpts").string();
    slow.from = 2;
    slow.mode = LaunchPlan::Mode::Fork;
    slow.into = (m_launchFar / "RUN002-slow").string();
    slow.config = (m_launchFar / "RUN002" / "config.ini").string();
    slow.sets = {"epochs=1000", "epoch_delay=2"};
    auto words = CommandTemplate(CandleResume::demoTrainerCommand(CKPT_DEMO_TRAIN)).words();
    QVERIFY(words);
    slow.commandTemplate = *words;
    auto started = client.launch(slow);
    QVERIFY2(started, started ? "" : started.error().message.c_str());

    Workspace workspace;
    MainWindow window(&workspace);
    window.resize(1280, 860);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({url(m_launchFar)});
    const QString root = url(fs::path(started->run));
    window.action(QStringLiteral("focusExperiments"))->trigger();
    ExperimentsPanel* panel = window.experiments()->panel();
    QTRY_COMPARE_WITH_TIMEOUT(experimentsRow(window, root, 1).data().toString(),
                              QStringLiteral("running"), kConnect);
    QTableView* table = panel->table();
    const QModelIndex cell = experimentsRow(window, root, 0);
    table->scrollTo(cell);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QCOMPARE(panel->selectedRun(), root);
    // Its output is on the far host: named, not followed here.
    QVERIFY2(panel->console()->placeholderText().contains(QStringLiteral("ckpt-test")),
             qPrintable(panel->console()->placeholderText()));
    QTRY_VERIFY(panel->stopButton()->isEnabled());
    keepScreenshot(&window, QStringLiteral("remote-experiments-running.png"));
    QTest::mouseClick(panel->stopButton(), Qt::LeftButton);
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = panel->findChild<QMessageBox*>(QStringLiteral("stopConfirmation"))));
    QVERIFY2(box->informativeText().contains(QStringLiteral("ckpt-test")),
             qPrintable(box->informativeText()));
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(experimentsRow(window, root, 1).data().toString(),
                              QStringLiteral("stopped"), kConnect);
    // Stopped there: the far registry says so too.
    const auto farState = [&]() -> std::string {
        auto listed = client.runs(m_launchFar.string());
        if (!listed)
            return listed.error().message;
        for (const RemoteLaunchedRun& r : *listed)
            if (r.run == started->run)
                return r.state;
        return "not listed";
    };
    QCOMPARE(farState(), std::string("stopped"));
    // Forget takes it off the far registry (`ckpt runs --forget` there).
    QTRY_VERIFY(panel->forgetButton()->isEnabled());
    QTest::mouseClick(panel->forgetButton(), Qt::LeftButton);
    QTRY_VERIFY((box = panel->findChild<QMessageBox*>(QStringLiteral("forgetConfirmation"))));
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!experimentsRow(window, root, 0).isValid(), kConnect);
    QCOMPARE(farState(), std::string("not listed"));
    QVERIFY(fs::exists(started->run)); // its files stay
}

void tst_RemoteWindow::forkOutsideTheOpenFolderIsOpenedToo()
{
    // Only the run's own folder is open: its fork goes beside it, outside.
    Workspace workspace;
    MainWindow window(&workspace);
    openAndSelectEpoch(window, QStringLiteral("RUN001"), 1, m_launchFar / "RUN001");
    QString failure = QStringLiteral("no dialog");
    QTimer::singleShot(0, this, [&] {
        LaunchDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = launchDialog()) != nullptr);
        auto closeOnFailure = qScopeGuard([&] {
            if (!failure.isEmpty())
                dialog->reject();
        });
        failure = QStringLiteral("no parameters");
        // An earlier launch named the config and the command: the far ckpt knows them.
        QTRY_VERIFY_WITH_TIMEOUT(dialog->parameterTable()->isVisible() &&
                                     dialog->parameterTable()->rowCount() > 0,
                                 kConnect);
        failure = QStringLiteral("no plan");
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isPlanned() && dialog->launchButton()->isEnabled(),
                                 kConnect);
        QVERIFY(!dialog->templateEdit()->text().isEmpty()); // filled from the far plan
        failure = QStringLiteral("not launched: ") + dialog->messageLabel()->text();
        QTest::mouseClick(dialog->launchButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->result() == QDialog::Accepted, 60000);
        failure.clear();
    });
    window.action(QStringLiteral("forkFrom"))->trigger();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const fs::path fork = m_launchFar / "RUN001-fork-e001";
    QTRY_VERIFY_WITH_TIMEOUT(workspace.folders().contains(url(fork)), kConnect);
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, url(fork / "ckpts")).isValid(), kConnect);
}

void tst_RemoteWindow::unreachableHostWhileReadingParametersNamesIt()
{
    Workspace workspace;
    workspace.remote()->setBackoff(500, 1000);
    MainWindow window(&workspace);
    openAndSelectEpoch(window, QStringLiteral("RUN000"), 3);
    m_server->stop();
    bool resumed = false;
    auto resume = qScopeGuard([&] {
        if (!resumed)
            QVERIFY2(m_server->resume(), m_server->error().c_str());
    });
    QString message;
    bool retried = false;
    QTimer::singleShot(0, this, [&] {
        LaunchDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = launchDialog()) != nullptr);
        auto close = qScopeGuard([&] { dialog->reject(); });
        QTRY_VERIFY_WITH_TIMEOUT(dialog->retryButton()->isVisible(), kConnect);
        message = dialog->parametersStatus()->text();
        QVERIFY(!dialog->launchButton()->isEnabled());
        keepScreenshot(dialog, QStringLiteral("remote-launch-unreachable.png"));
        // Reachable again: Retry asks once more (and gets the far ckpt's own answer).
        resumed = true;
        QVERIFY2(m_server->resume(), m_server->error().c_str());
        QTest::mouseClick(dialog->retryButton(), Qt::LeftButton);
        QTRY_VERIFY(!dialog->retryButton()->isVisible());
        // The table (the far registry knows the config when an earlier launch
        // named it), or the far ckpt's own refusal.
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->parameterTable()->isVisible() || dialog->retryButton()->isVisible(), kConnect);
        retried = dialog->parameterTable()->isVisible()
                      ? dialog->parameterTable()->rowCount() > 0
                      : !dialog->parametersStatus()->text().contains(QStringLiteral("reach"));
    });
    window.action(QStringLiteral("forkFrom"))->trigger();
    QVERIFY2(message.contains(QStringLiteral("ckpt-test")), qPrintable(message));
    QVERIFY2(message.contains(QString::fromStdString((m_launchFar / "RUN000" / "ckpts").string())),
             qPrintable(message));
    QVERIFY(retried);
}

void tst_RemoteWindow::farLaunchFailureKeepsTheDialogOpen()
{
    Workspace workspace;
    MainWindow window(&workspace);
    openAndSelectEpoch(window, QStringLiteral("RUN002"), 3);
    const QString program = m_tmp.filePath(QStringLiteral("no such dir/train"));
    QString message;
    bool stayedOpen = false;
    QTimer::singleShot(0, this, [&] {
        LaunchDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = launchDialog()) != nullptr);
        auto close = qScopeGuard([&] { dialog->reject(); });
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->parameterTable()->isVisible() || dialog->retryButton()->isVisible(), kConnect);
        if (dialog->retryButton()->isVisible()) { // no earlier launch named the config
            dialog->configEdit()->setFocus();
            QTest::keyClicks(
                dialog->configEdit(),
                QString::fromStdString((m_launchFar / "RUN002" / "config.ini").string()));
        }
        // A trainer the far host does not have: planned fine, refused when started.
        dialog->templateEdit()->setFocus();
        dialog->templateEdit()->selectAll();
        QTest::keyClicks(
            dialog->templateEdit(),
            QStringLiteral("'%1' --config_file {config} --output_dir {output_dir}").arg(program));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isPlanned() && dialog->launchButton()->isEnabled() &&
                                     dialog->planView()->toPlainText().contains(program),
                                 kConnect);
        QTest::mouseClick(dialog->launchButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->messageLabel()->text().startsWith(QStringLiteral("`ckpt launch` on ckpt-test")),
            kConnect);
        message = dialog->messageLabel()->text();
        keepScreenshot(dialog, QStringLiteral("remote-launch-refused.png"));
        stayedOpen = dialog->isVisible() && dialog->result() != QDialog::Accepted;
        // Planned again: the user may fix the command and try once more.
        QTRY_VERIFY_WITH_TIMEOUT(dialog->launchButton()->isEnabled(), kConnect);
    });
    window.action(QStringLiteral("forkFrom"))->trigger();
    QVERIFY(stayedOpen);
    // The far ckpt's own words, with the host named; nothing left behind there.
    QVERIFY2(message.contains(program), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("removed")), qPrintable(message));
    QVERIFY(!fs::exists(m_launchFar / "RUN002-fork-e003"));
}

QTEST_MAIN(tst_RemoteWindow)
#include "tst_RemoteWindow.moc"
