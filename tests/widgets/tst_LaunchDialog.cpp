#include "CandleFixture.h"
#include "dialogs/LaunchDialog.h"
#include "launch/CommandTemplate.h"
#include "launch/Launcher.h"

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace ckpt;
using test::CandleFixture;
namespace fs = std::filesystem;

// The restart/fork dialog driven by keyboard and mouse, launching the demo trainer for real.
class tst_LaunchDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void editLaunchRestart();
    void forkModeAndBadCommand();

private:
    fs::path trainParent(const fs::path& base);
    static int rowOf(QTableWidget* table, const QString& key);
    PrepRequest request(const fs::path& root, int epoch) const;

    std::string m_config;
};

fs::path tst_LaunchDialog::trainParent(const fs::path& base)
{
    const fs::path folder = base / "RUN000";
    fs::create_directories(folder);
    m_config = (folder / "config.ini").string();
    CandleFixture::writeText(m_config, "[Global_Params]\nepochs = 6\nlearning_rate = 0.01\n"
                                       "samples_per_class = 40\nckpt_checksum = True\n");
    QProcess p;
    p.start(QStringLiteral(CKPT_DEMO_TRAIN),
            {QStringLiteral("--config_file"), QString::fromStdString(m_config),
             QStringLiteral("--output_dir"), QString::fromStdString(folder.string())});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        qFatal("demo trainer failed");
    return folder / "ckpts";
}

int tst_LaunchDialog::rowOf(QTableWidget* table, const QString& key)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text() == key)
            return r;
    return -1;
}

PrepRequest tst_LaunchDialog::request(const fs::path& root, int epoch) const
{
    PrepRequest r;
    r.runRoot = root;
    r.fromEpoch = epoch;
    r.configFile = m_config;
    r.commandTemplate = CommandTemplate::demoTrainer(CKPT_DEMO_TRAIN).text();
    return r;
}

void tst_LaunchDialog::editLaunchRestart()
{
    QTemporaryDir tmp;
    const fs::path root = trainParent(tmp.path().toStdString());
    LaunchDialog dialog(request(root, 4));
    dialog.show();
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned(), 10000);
    QTableWidget* table = dialog.parameterTable();
    const int row = rowOf(table, QStringLiteral("learning_rate"));
    QVERIFY(row >= 0);
    QCOMPARE(table->item(row, 1)->text(), QStringLiteral("0.01"));

    // Edit the value as a user does: select the cell, F2, type, Enter.
    table->setFocus();
    table->setCurrentCell(row, 1);
    QTest::keyClick(table, Qt::Key_F2);
    QWidget* editor = QApplication::focusWidget();
    QVERIFY(qobject_cast<QLineEdit*>(editor) && table->isAncestorOf(editor));
    qobject_cast<QLineEdit*>(editor)->selectAll();
    QTest::keyClicks(editor, QStringLiteral("0.001"));
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_COMPARE(table->item(row, 1)->text(), QStringLiteral("0.001")); // committed queued
    QVERIFY(table->item(row, 1)->font().bold()); // changed values stand out
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned() &&
                                 dialog.planView()->toPlainText().contains(
                                     QStringLiteral("learning_rate: 0.01 -> 0.001")),
                             10000);
    const QString plan = dialog.planView()->toPlainText();
    QVERIFY2(plan.contains(QStringLiteral("move aside:  epochs 5, 6")), qPrintable(plan));
    QVERIFY(plan.contains(QStringLiteral("--ckpt_restart_mode required")));

    // "Changed only" hides the rest.
    auto* changedOnly = dialog.findChild<QCheckBox*>();
    QVERIFY(changedOnly);
    QTest::mouseClick(changedOnly, Qt::LeftButton, {}, QPoint(5, changedOnly->height() / 2));
    QVERIFY(changedOnly->isChecked());
    QVERIFY(!table->isRowHidden(row));
    QVERIFY(table->isRowHidden(rowOf(table, QStringLiteral("epochs"))));
    dialog.grab().save(QString::fromStdString(
        (fs::path(tmp.path().toStdString()) / "launch-dialog.png").string()));
    if (!qEnvironmentVariableIsEmpty("CKPT_SCREENSHOT_DIR"))
        dialog.grab().save(qEnvironmentVariable("CKPT_SCREENSHOT_DIR") + "/launch-dialog.png");

    QTest::mouseClick(dialog.launchButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(dialog.result(), int(QDialog::Accepted), 20000);
    QCOMPARE(dialog.launchedRoot(), QString::fromStdString(root.string()));
    QVERIFY(!fs::exists(root / "epochs/006") ||
            fs::exists(root / ".ckpt-studio/superseded")); // moved aside before the restart
    QTRY_VERIFY_WITH_TIMEOUT(
        Launcher::refresh(root) && isFinished(Launcher::refresh(root)->state()), 60000);
    QCOMPARE(std::string(runStateName(Launcher::refresh(root)->state())), std::string("completed"));
    const std::string log = CandleFixture::readText(root.parent_path() / "training.log");
    QVERIFY2(log.find(",0.0010000000474974513,") != std::string::npos, log.c_str());
}

void tst_LaunchDialog::forkModeAndBadCommand()
{
    QTemporaryDir tmp;
    const fs::path root = trainParent(tmp.path().toStdString());
    LaunchDialog dialog(request(root, 3));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned(), 10000);
    QRadioButton* fork = nullptr;
    for (auto* b : dialog.findChildren<QRadioButton*>())
        if (b->text().contains(QStringLiteral("Fork")))
            fork = b;
    QVERIFY(fork);
    QTest::mouseClick(fork, Qt::LeftButton, {}, QPoint(5, fork->height() / 2));
    QTRY_VERIFY_WITH_TIMEOUT(
        dialog.isPlanned() && dialog.planView()->toPlainText().contains(QStringLiteral("new run:")),
        10000);
    QVERIFY(dialog.planView()->toPlainText().contains(QStringLiteral("RUN000-fork-e003")));

    // A template naming an unknown placeholder: no plan, the error says which.
    QLineEdit* command = dialog.templateEdit();
    command->setFocus();
    command->selectAll();
    QTest::keyClicks(command, QStringLiteral("train --lr {no_such_parameter}"));
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.launchButton()->isEnabled(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (auto* label : dialog.findChildren<QLabel*>())
                if (label->text().contains(QStringLiteral("no_such_parameter")))
                    return true;
            return false;
        }(),
        10000);
    // Nothing was created by planning.
    QVERIFY(!fs::exists(fs::path(tmp.path().toStdString()) / "RUN000-fork-e003"));
}

QTEST_MAIN(tst_LaunchDialog)
#include "tst_LaunchDialog.moc"
