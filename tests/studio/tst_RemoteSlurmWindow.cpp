#include "DemoRun.h"
#include "ExperimentsController.h"
#include "MainWindow.h"
#include "Screenshots.h"
#include "SshServer.h"
#include "candle/CandleResume.h"
#include "dialogs/LaunchDialog.h"
#include "dialogs/SlurmForm.h"
#include "experiments/ExperimentsPanel.h"
#include "launch/CommandTemplate.h"
#include "models/ModelRoles.h"
#include "remote/SshMultiplex.h"
#include "session/RemoteFolders.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {
constexpr int kConnect = 60000; // a bound, not a goal: a loaded machine needs ~35 s at times
} // namespace

// A fork from a remote epoch submitted to Slurm through the window's dialog:
// a real one-node cluster (scripts/slurm-cluster.sh), a real sshd on loopback,
// the far `ckpt launch --backend slurm` running sbatch on the "cluster side".
class tst_RemoteSlurmWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void forkOnTheFarClusterThroughTheDialog();

private:
    QString cluster(const QString& action);
    QString url(const fs::path& path) const
    {
        return QStringLiteral("ssh://%1%2")
            .arg(m_server->host(), QString::fromStdString(path.string()));
    }
    QModelIndex sidebarRow(MainWindow& window, const QString& root) const;
    static QModelIndex experimentsRow(MainWindow& window, const QString& root, int column);

    QTemporaryDir m_dir;
    QTemporaryDir m_runtime;
    QString m_clusterDir;
    bool m_started = false;
    std::unique_ptr<SshServer> m_server;
    fs::path m_far;
};

void tst_RemoteSlurmWindow::initTestCase()
{
    const QStringList path = {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")};
    if (QStandardPaths::findExecutable(QStringLiteral("slurmctld"), path).isEmpty() ||
        QStandardPaths::findExecutable(QStringLiteral("sbatch")).isEmpty())
        QSKIP("Slurm is not installed here (scripts/setup-deps.sh)");
    if (::geteuid() != 0)
        QSKIP("a test cluster needs root (SlurmUser=root, munged as user munge)");
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_RemoteSlurmWindow"));
    QSettings().clear();
    QVERIFY(m_dir.isValid() && m_runtime.isValid());
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_runtime.path()));
    // munged runs as user munge: it must reach the cluster folder.
    QVERIFY(::chmod(m_dir.path().toLocal8Bit().constData(), 0755) == 0);
    m_clusterDir = m_dir.filePath(QStringLiteral("cluster"));
    const QString out = cluster(QStringLiteral("start"));
    QVERIFY2(out.startsWith(QLatin1String("export SLURM_CONF=")), qPrintable(out));
    m_started = true;
    const QByteArray slurmConf = out.mid(18).trimmed().toLocal8Bit();
    m_server = std::make_unique<SshServer>();
    QVERIFY2(m_server->ok(), m_server->error().c_str());
    m_far = fs::path(m_dir.path().toStdString()) / "far";
    trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_far / "RUN000",
                 (m_far / "RUN000" / "config.ini").string(),
                 "[Global_Params]\nepochs = 3\nlearning_rate = 0.01\n"
                 "samples_per_class = 40\nckpt_checksum = True\n");
    // The far shell gets the cluster's SLURM_CONF and a registry of this test.
    const QString wrapper = m_dir.filePath(QStringLiteral("bin/ckpt"));
    QVERIFY(QDir().mkpath(QFileInfo(wrapper).path()));
    QFile script(wrapper);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\nexport SLURM_CONF='" + slurmConf + "' XDG_DATA_HOME='" +
                 m_dir.filePath(QStringLiteral("far-data")).toLocal8Bit() +
                 "'\nexec " CKPT_CLI_PATH " \"$@\"\n");
    script.close();
    QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                  QFile::ReadOther | QFile::ExeOther));
    qputenv("CKPT_SSH_COMMAND", ("ssh -F " + m_server->configFile()).toLocal8Bit());
    qputenv("CKPT_REMOTE_CKPT", wrapper.toLocal8Bit());
}

void tst_RemoteSlurmWindow::cleanupTestCase()
{
    if (m_server) {
        RemoteTarget target;
        target.host = m_server->host().toStdString();
        const QStringList ssh = m_server->sshCommand();
        const SshMultiplex::Plan plan = SshMultiplex::plan(ssh, target);
        if (!plan.controlPath.isEmpty())
            QProcess::execute(
                QStringLiteral("ssh"),
                ssh.mid(1) + QStringList{"-o", "ControlPath=" + plan.controlPath, "-O", "exit"} +
                    SshMultiplex::destinationArgs(target));
        m_server.reset();
    }
    if (m_started)
        QVERIFY(!cluster(QStringLiteral("stop")).startsWith(QLatin1String("exit")));
}

QString tst_RemoteSlurmWindow::cluster(const QString& action)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(QStringLiteral("bash"),
            {QStringLiteral(CKPT_SOURCE_DIR "/scripts/slurm-cluster.sh"), action, m_clusterDir});
    if (!p.waitForFinished(90000))
        return QStringLiteral("timeout");
    return p.exitCode() == 0 ? QString::fromUtf8(p.readAllStandardOutput())
                             : QStringLiteral("exit %1").arg(p.exitCode());
}

QModelIndex tst_RemoteSlurmWindow::sidebarRow(MainWindow& window, const QString& root) const
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

QModelIndex tst_RemoteSlurmWindow::experimentsRow(MainWindow& window, const QString& root,
                                                  int column)
{
    QAbstractItemModel* model = window.experiments()->panel()->table()->model();
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, 0).data(roles::RunRootRole).toString() == root)
            return model->index(r, column);
    return {};
}

void tst_RemoteSlurmWindow::forkOnTheFarClusterThroughTheDialog()
{
    Workspace workspace;
    MainWindow window(&workspace);
    window.resize(1280, 860);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({url(m_far)});
    const QString parent = url(m_far / "RUN000" / "ckpts");
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, parent).isValid(), kConnect);
    window.sidebar()->selectRuns({parent});
    QTableView* table = window.epochTable()->view();
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 3, kConnect);
    const QModelIndex cell = table->model()->index(1, 1); // epoch 2
    QCOMPARE(cell.data().toString(), QStringLiteral("2"));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QTRY_VERIFY(window.action(QStringLiteral("forkFrom"))->isEnabled());

    QString failure = QStringLiteral("no dialog");
    QString script;
    QTimer::singleShot(0, this, [&] {
        LaunchDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = qobject_cast<LaunchDialog*>(QApplication::activeModalWidget())));
        auto closeOnFailure = qScopeGuard([&] {
            if (!failure.isEmpty()) {
                failure += QStringLiteral("; message: ") + dialog->messageLabel()->text() +
                           QStringLiteral("; parameters: ") + dialog->parametersStatus()->text();
                dialog->reject();
            }
        });
        // Not launched by Ckpt Studio: the far ckpt finds the config in the
        // run's folder; the user names the command.
        failure = QStringLiteral("no parameters");
        QTRY_VERIFY_WITH_TIMEOUT(dialog->parameterTable()->isVisible() &&
                                     dialog->parameterTable()->rowCount() > 0,
                                 kConnect);
        QCOMPARE(dialog->configEdit()->text(),
                 QString::fromStdString((m_far / "RUN000" / "config.ini").string()));
        dialog->templateEdit()->setFocus();
        QTest::keyClicks(dialog->templateEdit(),
                         QString::fromStdString(CandleResume::demoTrainerCommand(CKPT_DEMO_TRAIN)));
        QTableWidget* params = dialog->parameterTable();
        QTRY_VERIFY_WITH_TIMEOUT(params->isVisible() && params->rowCount() > 0, kConnect);
        int row = -1;
        for (int r = 0; r < params->rowCount(); ++r)
            if (params->item(r, 0)->text() == QStringLiteral("learning_rate"))
                row = r;
        QVERIFY(row >= 0);
        params->setFocus();
        params->setCurrentCell(row, 1);
        QTest::keyClick(params, Qt::Key_F2);
        auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY(editor);
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("0.02"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(params->item(row, 1)->text(), QStringLiteral("0.02")); // committed queued
        // Slurm on the far cluster, with a time limit typed in the form.
        failure = QStringLiteral("no Slurm plan");
        auto* slurm = dialog->findChild<QRadioButton*>(QStringLiteral("backendSlurm"));
        QTest::mouseClick(slurm, Qt::LeftButton, {}, QPoint(5, slurm->height() / 2));
        auto* time = dialog->slurmForm()->findChild<QLineEdit*>(QStringLiteral("slurmTime"));
        QVERIFY(time);
        time->setFocus();
        QTest::keyClicks(time, QStringLiteral("00:05:00"));
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->isPlanned() && dialog->launchButton()->isEnabled() &&
                dialog->planView()->toPlainText().contains(
                    QStringLiteral("learning_rate: 0.01 -> 0.02")) &&
                dialog->scriptView()->toPlainText().contains(QStringLiteral("--time=00:05:00")),
            kConnect);
        script = dialog->scriptView()->toPlainText();
        keepScreenshot(dialog, QStringLiteral("remote-launch-slurm.png"));
        failure = QStringLiteral("not launched");
        QTest::mouseClick(dialog->launchButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->result() == QDialog::Accepted, 60000);
        failure.clear();
    });
    window.action(QStringLiteral("forkFrom"))->trigger();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY2(script.contains(QStringLiteral("#SBATCH")), qPrintable(script));

    // sbatch ran on the far side: the fork is a Slurm job there, trained to the end.
    const fs::path fork = m_far / "RUN000-fork-e002";
    const QString root = url(fork / "ckpts");
    QTRY_VERIFY_WITH_TIMEOUT(experimentsRow(window, root, 2).isValid(), kConnect);
    QCOMPARE(experimentsRow(window, root, 2).data().toString(),
             QStringLiteral("slurm @ ckpt-test"));
    QVERIFY2(experimentsRow(window, root, 3).data().toString().startsWith(QStringLiteral("job ")),
             qPrintable(experimentsRow(window, root, 3).data().toString()));
    QTRY_COMPARE_WITH_TIMEOUT(experimentsRow(window, root, 1).data().toString(),
                              QStringLiteral("completed"), 120000);
    QVERIFY(fs::exists(fork / "ckpts" / "epochs" / "003"));
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, root).isValid(), kConnect);
}

QTEST_MAIN(tst_RemoteSlurmWindow)
#include "tst_RemoteSlurmWindow.moc"
