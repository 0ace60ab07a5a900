#include "DemoRun.h"
#include "MainWindow.h"
#include "RemoteActions.h"
#include "SshServer.h"
#include "dialogs/ConnectDialog.h"
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
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <filesystem>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {
constexpr int kConnect = 30000;

// Saves the window when CKPT_TEST_SCREENSHOTS names a folder (to look at by eye).
void keepScreenshot(QWidget* widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("CKPT_TEST_SCREENSHOTS");
    if (!dir.isEmpty())
        widget->grab().save(dir + QLatin1Char('/') + name);
}
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

private:
    QString url(const fs::path& path) const
    {
        return QStringLiteral("ssh://%1%2")
            .arg(m_server->host(), QString::fromStdString(path.string()));
    }
    QModelIndex sidebarRow(MainWindow& window, const QString& root) const;

    std::unique_ptr<SshServer> m_server;
    QTemporaryDir m_tmp;
    fs::path m_far;
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
    // How a user points the app at their ssh set-up and far ckpt.
    qputenv("CKPT_SSH_COMMAND", ("ssh -F " + m_server->configFile()).toLocal8Bit());
    qputenv("CKPT_REMOTE_CKPT", CKPT_CLI_PATH);
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

    // Click the run: its epochs fill the table, as for a local run.
    QTreeView* tree = window.sidebar()->view();
    tree->scrollTo(row);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(row).center());
    QTRY_COMPARE(workspace.shownRuns(), QStringList{root});
    QTRY_COMPARE(window.epochTable()->view()->model()->rowCount(), 3);
    // Its metrics come from the far `ckpt history`, as for a local run.
    QTRY_VERIFY_WITH_TIMEOUT(workspace.state(root)->history.has_value(), kConnect);
    QVERIFY(!workspace.state(root)->history->rows.empty());
    // Select an epoch: rollback and inspect are offered, restart/fork say they are not here yet.
    QTableView* table = window.epochTable()->view();
    const QModelIndex first = table->model()->index(0, 1);
    table->scrollTo(first);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(first).center());
    QTRY_VERIFY(window.action(QStringLiteral("makeLast"))->isEnabled());
    for (const char* name : {"restartFrom", "forkFrom"}) {
        QAction* a = window.action(QLatin1String(name));
        QVERIFY2(!a->isEnabled(), name);
        QCOMPARE(a->toolTip(), RemoteActions::notAvailableRemotely());
    }
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
    QTRY_VERIFY_WITH_TIMEOUT(workspace.state(root)->history.has_value(), kConnect);

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

QTEST_MAIN(tst_RemoteWindow)
#include "tst_RemoteWindow.moc"
