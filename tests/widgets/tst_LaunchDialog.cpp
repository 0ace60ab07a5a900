#include "CandleFixture.h"
#include "DemoRun.h"
#include "LightningFixture.h"
#include "Screenshots.h"
#include "candle/CandleResume.h"
#include "dialogs/LaunchDialog.h"
#include "dialogs/SlurmForm.h"
#include "dialogs/SweepEditor.h"
#include "launch/CommandTemplate.h"
#include "launch/Launcher.h"

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionGroupBox>
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
    void initTestCase();
    void editLaunchRestart();
    void forkModeAndBadCommand();
    void forkNameSaysWhatChanged();
    void missingProgramIsUndoneAndSaysWhy();
    void slurmFormPreviewAndValidation();
    void sweepLaunchesThreeLocalForks();
    void lightningRunPlansItsNextVersion();

private:
    fs::path trainParent(const fs::path& base);
    static void clickRadio(LaunchDialog& dialog, const char* name);
    static void typeInto(QWidget* edit, const QString& text);
    static void screenshot(LaunchDialog& dialog, const QString& name);
    static int rowOf(QTableWidget* table, const QString& key);
    PrepRequest request(const fs::path& root, int epoch) const;

    std::string m_config;
};

void tst_LaunchDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear(); // no remembered backend or Slurm form from an earlier run
}

void tst_LaunchDialog::clickRadio(LaunchDialog& dialog, const char* name)
{
    auto* button = dialog.findChild<QRadioButton*>(QString::fromLatin1(name));
    QVERIFY(button);
    QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(5, button->height() / 2));
    QVERIFY(button->isChecked());
}

void tst_LaunchDialog::typeInto(QWidget* edit, const QString& text)
{
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
}

void tst_LaunchDialog::screenshot(LaunchDialog& dialog, const QString& name)
{
    if (!qEnvironmentVariableIsEmpty("CKPT_SCREENSHOT_DIR"))
        dialog.grab().save(qEnvironmentVariable("CKPT_SCREENSHOT_DIR") + "/" + name);
}

fs::path tst_LaunchDialog::trainParent(const fs::path& base)
{
    m_config = (base / "RUN000" / "config.ini").string();
    return test::trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), base / "RUN000", m_config,
                              "[Global_Params]\nepochs = 6\nlearning_rate = 0.01\n"
                              "samples_per_class = 40\nckpt_checksum = True\n");
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
    r.commandTemplate = CandleResume::demoTrainerCommand(CKPT_DEMO_TRAIN);
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
    QCOMPARE(table->item(row, 3)->text(), QStringLiteral("float"));

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
    QVERIFY(table->item(row, 1)->font().bold());                        // changed values stand out
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned() &&
                                 dialog.planView()->toPlainText().contains(
                                     QStringLiteral("learning_rate: 0.01 -> 0.001")),
                             10000);
    const QString plan = dialog.planView()->toPlainText();
    QVERIFY2(plan.contains(QStringLiteral("move aside:  epochs 5, 6")), qPrintable(plan));
    QVERIFY(plan.contains(QStringLiteral("--ckpt_restart_mode required")));

    // "Changed only" hides the rest.
    auto* changedOnly = dialog.findChild<QCheckBox*>(QStringLiteral("changedOnly"));
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

// A fork's name field: suggested from the parent, the epoch and the changed
// values; a name typed by the user wins; a bad one is refused in words, the
// plan pane says why, and Launch's tooltip too.
void tst_LaunchDialog::forkNameSaysWhatChanged()
{
    QTemporaryDir tmp;
    const fs::path root = trainParent(tmp.path().toStdString());
    LaunchDialog dialog(request(root, 3));
    dialog.show();
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned(), 10000);
    QVERIFY(!dialog.forkNameEdit()->isEnabled()); // a restart has no new folder
    clickRadio(dialog, "fork");
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned() && dialog.forkNameEdit()->isEnabled(), 10000);
    QTRY_COMPARE(dialog.forkNameEdit()->text(), QStringLiteral("RUN000-fork-e003"));

    QTableWidget* table = dialog.parameterTable();
    const int row = rowOf(table, QStringLiteral("learning_rate"));
    table->setFocus();
    table->setCurrentCell(row, 1);
    QTest::keyClick(table, Qt::Key_F2);
    QWidget* editor = QApplication::focusWidget();
    QVERIFY(qobject_cast<QLineEdit*>(editor));
    qobject_cast<QLineEdit*>(editor)->selectAll();
    QTest::keyClicks(editor, QStringLiteral("0.003"));
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(dialog.forkNameEdit()->text(),
                              QStringLiteral("RUN000-fork-e003-learning_rate-0.003"), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned() &&
                                 dialog.planView()->toPlainText().contains(
                                     QStringLiteral("RUN000-fork-e003-learning_rate-0.003")),
                             10000);

    typeInto(dialog.forkNameEdit(), QStringLiteral("lr-probe"));
    QTRY_VERIFY_WITH_TIMEOUT(
        dialog.isPlanned() && dialog.planView()->toPlainText().contains(QStringLiteral("lr-probe")),
        10000);
    QCOMPARE(dialog.forkNameEdit()->text(), QStringLiteral("lr-probe")); // not replaced

    typeInto(dialog.forkNameEdit(), QStringLiteral("a/b"));
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isPlanned() && dialog.planView()->toPlainText().isEmpty() &&
                                 dialog.planView()->placeholderText().contains("plain folder name"),
                             10000);
    QVERIFY(!dialog.launchButton()->isEnabled());
    QVERIFY2(dialog.launchButton()->toolTip().contains("plain folder name"),
             qPrintable(dialog.launchButton()->toolTip()));
    QVERIFY(!fs::exists(fs::path(tmp.path().toStdString()) / "lr-probe"));
}

void tst_LaunchDialog::missingProgramIsUndoneAndSaysWhy()
{
    QTemporaryDir tmp;
    const fs::path root = trainParent(tmp.path().toStdString());
    PrepRequest r = request(root, 3);
    r.commandTemplate = "/no/such/trainer --config_file {config}";
    const fs::path lastBefore = fs::read_symlink(root / "last");
    LaunchDialog dialog(r);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned(), 10000);
    QVERIFY(
        dialog.planView()->toPlainText().contains(QStringLiteral("move aside:  epochs 4, 5, 6")));
    QTest::mouseClick(dialog.launchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(
        dialog.messageLabel()->text().contains(QStringLiteral("/no/such/trainer")), 20000);
    QVERIFY2(dialog.messageLabel()->text().contains(QStringLiteral("preparation was undone")),
             qPrintable(dialog.messageLabel()->text()));
    QVERIFY(dialog.isVisible());
    // The run is as it was: its epochs in place, last where it was, no record.
    for (const char* e : {"epochs/004", "epochs/005", "epochs/006"})
        QVERIFY(fs::exists(root / e));
    QCOMPARE(fs::read_symlink(root / "last"), lastBefore);
    QVERIFY(!fs::exists(root / ".ckpt-studio/superseded"));
    QVERIFY(!fs::exists(LaunchRecord::pathFor(root)));
    // The message stays until the next edit.
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned(), 10000);
    QVERIFY(dialog.messageLabel()->text().contains(QStringLiteral("/no/such/trainer")));
}

void tst_LaunchDialog::slurmFormPreviewAndValidation()
{
    QTemporaryDir tmp;
    const fs::path root = trainParent(tmp.path().toStdString());
    {
        LaunchDialog dialog(request(root, 4));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned(), 10000);
        QVERIFY(!dialog.slurmForm()->isVisible());
        QVERIFY(dialog.scriptView()->toPlainText().isEmpty());
        clickRadio(dialog, "backendSlurm");
        QVERIFY(dialog.slurmForm()->isVisible());
        const QString script = dialog.scriptView()->toPlainText();
        QVERIFY2(script.contains(QStringLiteral("#SBATCH --signal=B:USR1@120")),
                 qPrintable(script));
        QVERIFY(script.contains(QStringLiteral("--ckpt_restart_mode required")));
        QVERIFY(script.contains(QStringLiteral("attempt-1.log")));
        QVERIFY(dialog.planView()->toPlainText().contains(QStringLiteral("backend:     slurm")));

        auto* partition = dialog.findChild<QLineEdit*>(QStringLiteral("slurmPartition"));
        auto* time = dialog.findChild<QLineEdit*>(QStringLiteral("slurmTime"));
        QVERIFY(partition && time);
        typeInto(partition, QStringLiteral("gpu"));
        QVERIFY(dialog.scriptView()->toPlainText().contains(
            QStringLiteral("#SBATCH --partition=gpu\n")));
        // An invalid time: Launch off, the message says what Slurm accepts.
        typeInto(time, QStringLiteral("1:2:3:4"));
        QVERIFY(!dialog.launchButton()->isEnabled());
        QVERIFY2(dialog.messageLabel()->text().contains(QStringLiteral("time limit '1:2:3:4'")),
                 qPrintable(dialog.messageLabel()->text()));
        screenshot(dialog, QStringLiteral("launch-dialog-slurm-invalid.png"));
        typeInto(time, QStringLiteral("02:30:00"));
        QVERIFY(dialog.launchButton()->isEnabled());
        QVERIFY(dialog.messageLabel()->text().isEmpty());
        QVERIFY(dialog.scriptView()->toPlainText().contains(
            QStringLiteral("#SBATCH --time=02:30:00\n")));
        auto* extra = dialog.findChild<QPlainTextEdit*>(QStringLiteral("slurmExtra"));
        QVERIFY(extra);
        extra->setFocus();
        QTest::keyClicks(extra, QStringLiteral("--qos=low"));
        QVERIFY(dialog.scriptView()->toPlainText().contains(QStringLiteral("#SBATCH --qos=low\n")));
        // The preview is what sbatch gets: the same text Launcher renders.
        std::vector<LaunchPlan> plans;
        PrepRequest r = request(root, 4);
        r.backend = LaunchPlan::Backend::Slurm;
        r.slurm = dialog.slurmForm()->options();
        auto prepared = LaunchPrep::prepare(r, LaunchRegistry());
        QVERIFY(prepared);
        prepared->plan.slurm.lastLink = (root / "last").string();
        plans.push_back(prepared->plan);
        // (The edited config's name carries the second it was planned in.)
        static const QRegularExpression stamp(QStringLiteral("config-\\d{8}-\\d{6}"));
        const QStringList shown = dialog.scriptView()
                                      ->toPlainText()
                                      .replace(stamp, QStringLiteral("config-STAMP"))
                                      .split(QLatin1Char('\n'));
        const QStringList sbatch = QString::fromStdString(Launcher::batchScript(plans, 0))
                                       .replace(stamp, QStringLiteral("config-STAMP"))
                                       .split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < std::min(shown.size(), sbatch.size()); ++i)
            QCOMPARE(shown[i], sbatch[i]);
        QCOMPARE(shown.size(), sbatch.size());
        screenshot(dialog, QStringLiteral("launch-dialog-slurm.png"));
    }
    // Remembered for the next dialog: the backend and the form.
    LaunchDialog again(request(root, 4));
    QCOMPARE(again.findChild<QLineEdit*>(QStringLiteral("slurmPartition"))->text(),
             QStringLiteral("gpu"));
    QCOMPARE(again.findChild<QLineEdit*>(QStringLiteral("slurmTime"))->text(),
             QStringLiteral("02:30:00"));
    QVERIFY(again.findChild<QRadioButton*>(QStringLiteral("backendSlurm"))->isChecked());
    QSettings().clear();
}

void tst_LaunchDialog::sweepLaunchesThreeLocalForks()
{
    QTemporaryDir tmp;
    const fs::path base = tmp.path().toStdString();
    const fs::path root = trainParent(base);
    LaunchDialog dialog(request(root, 3));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned(), 10000);
    SweepEditor* sweep = dialog.sweepEditor();
    // Tick the group's check box where the style draws it.
    QStyleOptionGroupBox option;
    option.initFrom(sweep);
    option.text = sweep->title();
    option.subControls = QStyle::SC_GroupBoxCheckBox | QStyle::SC_GroupBoxLabel;
    option.features = QStyleOptionFrame::None;
    const QRect box = sweep->style()->subControlRect(QStyle::CC_GroupBox, &option,
                                                     QStyle::SC_GroupBoxCheckBox, sweep);
    QTest::mouseClick(sweep, Qt::LeftButton, {}, box.center());
    QVERIFY(sweep->isChecked());
    QCOMPARE(sweep->key(), QStringLiteral("learning_rate"));
    typeInto(sweep->valuesEdit(), QStringLiteral("0.001, 0.003, 0.005"));
    typeInto(sweep->parallelBox(), QStringLiteral("2"));
    QCOMPARE(sweep->parallel(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isPlanned() && dialog.planView()->toPlainText().contains(
                                                       QStringLiteral("3 forks from epoch 3")),
                             20000);
    const QString plan = dialog.planView()->toPlainText();
    QVERIFY2(plan.contains(QStringLiteral("RUN000-fork-e003-learning_rate-0.003")),
             qPrintable(plan));
    QVERIFY(plan.contains(QStringLiteral("learning_rate: 0.01 -> 0.005")));
    // A sweep forks: restarting in place is not offered.
    QVERIFY(!dialog.findChild<QRadioButton*>(QStringLiteral("restart"))->isEnabled());
    screenshot(dialog, QStringLiteral("launch-dialog-sweep.png"));
    clickRadio(dialog, "backendSlurm");
    QVERIFY(dialog.scriptView()->toPlainText().contains(QStringLiteral("#SBATCH --array=0-2%2\n")));
    screenshot(dialog, QStringLiteral("launch-dialog-sweep-slurm.png"));
    clickRadio(dialog, "backendLocal");

    QTest::mouseClick(dialog.launchButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(dialog.result(), int(QDialog::Accepted), 20000);
    QCOMPARE(dialog.launchedRoots().size(), 3);
    for (const QString& fork : dialog.launchedRoots())
        QTRY_VERIFY_WITH_TIMEOUT(Launcher::refresh(fork.toStdString()) &&
                                     Launcher::refresh(fork.toStdString())->state() ==
                                         RunState::Completed,
                                 120000);
    for (const char* v : {"0.001", "0.003", "0.005"}) {
        const fs::path fork = base / ("RUN000-fork-e003-learning_rate-" + std::string(v));
        QVERIFY2(fs::exists(fork / "ckpts/epochs/006/ckpt-info.json"), fork.c_str());
        const auto record = LaunchRecord::load(LaunchRecord::pathFor(fork / "ckpts")).value();
        QCOMPARE(record.attempts.back().plan.parent->epoch, 3);
        QCOMPARE(record.attempts.back().plan.parent->changes.at(0).to, std::string(v));
    }
    QSettings().clear();
}

// A Lightning run in the dialog: its own example command, its hparams.yaml in
// the table, a plan that goes on in the next version, and a plain word about
// an edited learning rate that Lightning's resume will not take.
void tst_LaunchDialog::lightningRunPlansItsNextVersion()
{
    QTemporaryDir tmp;
    const fs::path root = fs::path(tmp.path().toStdString()) / "lightning_logs" / "version_0";
    ckpt::test::LightningFixture run(root);
    run.writeHparams("lr: 0.05\nhidden: 16\n");
    run.addCheckpoint(0, 13);
    run.addCheckpoint(1, 26);
    PrepRequest r;
    r.runRoot = root;
    r.fromEpoch = 26;
    LaunchDialog dialog(r);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY2(dialog.templateEdit()->placeholderText().contains(QStringLiteral("{checkpoint}")),
             qPrintable(dialog.templateEdit()->placeholderText()));
    QTableWidget* table = dialog.parameterTable();
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(table, QStringLiteral("lr")) >= 0, 10000);

    dialog.templateEdit()->setFocus();
    QTest::keyClicks(dialog.templateEdit(),
                     QStringLiteral("python3 train.py --config {config} --ckpt_path {checkpoint} "
                                    "--version {version}"));
    const int row = rowOf(table, QStringLiteral("lr"));
    table->setFocus();
    table->setCurrentCell(row, 1);
    QTest::keyClick(table, Qt::Key_F2);
    QWidget* editor = QApplication::focusWidget();
    QVERIFY(editor);
    QTest::keySequence(editor, QKeySequence::SelectAll);
    QTest::keyClicks(editor, QStringLiteral("0.01"));
    QTest::keyClick(editor, Qt::Key_Return);
    const auto planned = [&] {
        return dialog.planView()->toPlainText().contains(QStringLiteral("--version 1"));
    };
    QTRY_VERIFY_WITH_TIMEOUT(planned(), 10000);
    const QString plan = dialog.planView()->toPlainText();
    QVERIFY2(plan.contains(QString::fromStdString((root.parent_path() / "version_1").string())),
             qPrintable(plan));
    QVERIFY2(plan.contains(QStringLiteral("note:        lr: Lightning's resume restores")),
             qPrintable(plan));
    QVERIFY2(plan.contains(QStringLiteral("checkpoints/epoch=1-step=26.ckpt")), qPrintable(plan));
    const auto* restart = dialog.findChild<QRadioButton*>(QStringLiteral("restart"));
    QVERIFY(restart);
    QVERIFY2(restart->text().contains(QStringLiteral("this run unchanged")),
             qPrintable(restart->text()));
    ckpt::test::keepScreenshot(&dialog, QStringLiteral("launch-dialog-lightning.png"));
}

QTEST_MAIN(tst_LaunchDialog)
#include "tst_LaunchDialog.moc"
