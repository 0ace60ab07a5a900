#include "DemoRun.h"
#include "MainWindow.h"
#include "Screenshots.h"
#include "ShellScript.h"
#include "SshServer.h"
#include "common/MessageBanner.h"
#include "models/ModelRoles.h"
#include "session/RemoteFolders.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include <filesystem>
#include <unistd.h>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {
constexpr int kConnect = 60000; // a bound, not a goal: a loaded machine needs ~35 s at times

} // namespace

// Every way opening a remote folder can fail, seen in the window as a user
// sees it: the folder marked failed, and a message naming the host and what to
// do, in the status bar and the folder's tooltip. A real sshd on loopback and
// the real `ckpt` of this build (or a real older/missing one) on the far side.
class tst_RemoteFailures : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void failedOpenSaysWhatToDo_data();
    void failedOpenSaysWhatToDo();
    void retryFromTheBannerOpensOnceFixed();

private:
    std::unique_ptr<SshServer> m_server;
    QTemporaryDir m_tmp;
    fs::path m_far;
    fs::path m_bin;
    fs::path m_locked;
};

void tst_RemoteFailures::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_RemoteFailures"));
    m_server = std::make_unique<SshServer>();
    QVERIFY2(m_server->ok(), m_server->error().c_str());
    const fs::path tmp = m_tmp.path().toStdString();
    m_far = tmp / "cluster" / "exp";
    trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_far / "RUN000",
                 (m_far / "RUN000" / "config.ini").string(),
                 "[Global_Params]\nepochs = 2\nsamples_per_class = 40\nckpt_checksum = True\n");
    // A folder only its owner may read; as root (CI) the far ckpt is run as
    // nobody, so the refusal is the kernel's EACCES either way.
    m_locked = tmp / "cluster" / "locked";
    fs::create_directories(m_locked / "RUN000");
    fs::copy(m_far / "RUN000", m_locked / "RUN000", fs::copy_options::recursive);
    fs::permissions(m_locked, fs::perms::owner_all);
    m_bin = tmp / "bin";
    fs::create_directories(m_bin);
    writeShellScript(m_bin / "old-ckpt", "echo '{\"protocol\": 0, \"version\": \"0.9\"}'\n");
    writeShellScript(
        m_bin / "unprivileged-ckpt",
        geteuid() == 0 ? "exec setpriv --reuid=nobody --regid=nogroup --clear-groups " CKPT_CLI_PATH
                         " \"$@\"\n"
                       : "exec " CKPT_CLI_PATH " \"$@\"\n");
    qputenv("CKPT_SSH_COMMAND", ("ssh -F " + m_server->configFile()).toLocal8Bit());
}

void tst_RemoteFailures::init()
{
    QSettings().clear();
    qputenv("CKPT_REMOTE_CKPT", CKPT_CLI_PATH);
}

void tst_RemoteFailures::cleanup()
{
    qputenv("CKPT_REMOTE_CKPT", CKPT_CLI_PATH);
}

void tst_RemoteFailures::failedOpenSaysWhatToDo_data()
{
    QTest::addColumn<QString>("user");    // empty: the ssh config's
    QTest::addColumn<QString>("farCkpt"); // in m_bin, a full path, or empty: this build's
    QTest::addColumn<QString>("folder");  // below the far tree
    QTest::addColumn<QStringList>("needles");
    QTest::newRow("login refused")
        << "nobody"
        << ""
        << "exp" << QStringList{"refused the login", "ssh-copy-id", "never asks for a password"};
    QTest::newRow("ckpt missing on the host")
        << ""
        << "/nonexistent/bin/ckpt"
        << "exp"
        << QStringList{"ckpt was not found on", "/nonexistent/bin/ckpt", "install-remote.sh"};
    QTest::newRow("ckpt too old") << ""
                                  << "old-ckpt"
                                  << "exp" << QStringList{"too old", "install-remote.sh"};
    QTest::newRow("folder missing") << ""
                                    << ""
                                    << "no-such-folder" << QStringList{"no-such-folder"};
    QTest::newRow("permission denied on the far folder")
        << ""
        << "unprivileged-ckpt"
        << "locked" << QStringList{"Permission denied", "locked", "check its permissions there"};
}

void tst_RemoteFailures::failedOpenSaysWhatToDo()
{
    QFETCH(QString, user);
    QFETCH(QString, farCkpt);
    QFETCH(QString, folder);
    QFETCH(QStringList, needles);
    if (!farCkpt.isEmpty())
        qputenv("CKPT_REMOTE_CKPT", farCkpt.startsWith(QLatin1Char('/'))
                                        ? farCkpt.toLocal8Bit()
                                        : QFile::encodeName(QString::fromStdString(
                                              (m_bin / farCkpt.toStdString()).string())));
    const fs::path far = m_far.parent_path() / folder.toStdString();
    const QString url = QStringLiteral("ssh://%1%2%3")
                            .arg(user.isEmpty() ? QString() : user + QLatin1Char('@'),
                                 m_server->host(), QString::fromStdString(far.string()));

    Workspace workspace;
    MainWindow window(&workspace);
    window.resize(1100, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({url});
    QTRY_COMPARE_WITH_TIMEOUT(workspace.remote()->folders().size(), qsizetype(1), kConnect);
    const QString key = workspace.remote()->folders().first();
    QTRY_COMPARE_WITH_TIMEOUT(workspace.remote()->connection(key),
                              RemoteFolders::Connection::Failed, kConnect);

    // The status bar says it, naming the host and what to do.
    auto* status = window.statusBar()->findChild<QLabel*>();
    QVERIFY(status);
    const QString shown = status->text();
    QVERIFY2(shown.contains(QStringLiteral("ckpt-test")), qPrintable(shown));
    for (const QString& needle : needles)
        QVERIFY2(shown.contains(needle), qPrintable(needle + QStringLiteral(" not in: ") + shown));
    // So does the banner above the window's content, whole, with what to do about it.
    MessageBanner* banner = window.banner();
    QVERIFY(banner->isVisible());
    QCOMPARE(banner->topic(), key);
    for (const QString& needle : needles)
        QVERIFY2(banner->text().contains(needle.toHtmlEscaped()), qPrintable(banner->text()));
    QCOMPARE(banner->buttons().size(), qsizetype(2));
    QVERIFY(!shown.contains(QStringLiteral(".).")));
    // So do the folder's row (marked failed) and its tooltip, and no run is shown.
    QAbstractItemModel* model = window.sidebar()->view()->model();
    QCOMPARE(model->rowCount(), 1);
    const QModelIndex row = model->index(0, 0);
    QCOMPARE(row.data(roles::StaleRole).toString(), QStringLiteral("failed"));
    QVERIFY2(row.data(Qt::ToolTipRole).toString().contains(needles.first()),
             qPrintable(row.data(Qt::ToolTipRole).toString()));
    QCOMPARE(model->rowCount(row), 0);
    keepScreenshot(&window,
                   QStringLiteral("remote-failed-%1.png")
                       .arg(QString::fromLatin1(QTest::currentDataTag()).replace(' ', '-')));
    // Nothing of the far tree changed (the failure was a read).
    QVERIFY(fs::exists(m_far / "RUN000" / "ckpts" / "last"));

    // Close Folder on the banner closes it, and the banner goes.
    QTest::mouseClick(banner->buttons().at(1), Qt::LeftButton);
    QVERIFY(!banner->isVisible());
    QTRY_COMPARE(model->rowCount(), 0);
    QVERIFY(workspace.remote()->folders().isEmpty());
}

// Retry Now on the banner connects again: once the cause is gone, the folder
// opens and the banner leaves.
void tst_RemoteFailures::retryFromTheBannerOpensOnceFixed()
{
    const fs::path far = m_far.parent_path() / "late";
    const QString url =
        QStringLiteral("ssh://%1%2").arg(m_server->host(), QString::fromStdString(far.string()));
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({url});
    QTRY_COMPARE_WITH_TIMEOUT(workspace.remote()->folders().size(), qsizetype(1), kConnect);
    const QString key = workspace.remote()->folders().first();
    QTRY_COMPARE_WITH_TIMEOUT(workspace.remote()->connection(key),
                              RemoteFolders::Connection::Failed, kConnect);
    MessageBanner* banner = window.banner();
    QTRY_VERIFY(banner->isVisible());
    // The folder appears on the far side (the user fixed the path's cause).
    fs::create_directories(far);
    fs::copy(m_far / "RUN000", far / "RUN000", fs::copy_options::recursive);
    QTest::mouseClick(banner->buttons().at(0), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(workspace.remote()->connection(key),
                              RemoteFolders::Connection::Connected, kConnect);
    QVERIFY(!banner->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(
        window.sidebar()->view()->model()->rowCount(window.sidebar()->view()->model()->index(0, 0)),
        1, kConnect);
}

QTEST_MAIN(tst_RemoteFailures)
#include "tst_RemoteFailures.moc"
