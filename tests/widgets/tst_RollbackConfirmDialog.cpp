#include "CandleFixture.h"
#include "candle/CandleLayout.h"
#include "dialogs/RollbackConfirmDialog.h"

#include <QCheckBox>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace ckpt;
using ckpt::test::CandleFixture;
namespace fs = std::filesystem;

class tst_RollbackConfirmDialog : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void checksTheTargetBeforeConfirming_data();
    void checksTheTargetBeforeConfirming();
    void forceIsExplicit();
    void warnsWhenBestLiesBeyondTheTarget();
    void warnsWhenLastPointsOutsideTheRun();

private:
    Run loadRun(const fs::path& root) const;
    static QString description(const RollbackConfirmDialog& d)
    {
        return d.findChild<QLabel*>(QStringLiteral("description"))->text();
    }
    static QString healthText(const RollbackConfirmDialog& d)
    {
        return d.findChild<QLabel*>(QStringLiteral("health"))->text();
    }
    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_root;
};

void tst_RollbackConfirmDialog::init()
{
    m_tmp = std::make_unique<QTemporaryDir>();
    m_root = fs::path(m_tmp->path().toStdString()) / "RUN000" / "ckpts";
    CandleFixture f(m_root);
    for (int e = 1; e <= 6; ++e)
        f.addEpoch(e, 1.0 / e, 4096, e == 1);
    f.linkAbsolute("last", 6);
    f.linkAbsolute("best", 5);
    // Epoch 3: one flipped byte (checksum mismatch). Epoch 4: truncated JSON.
    std::string bytes = CandleFixture::readText(f.epochDir(3) / "model.h5");
    bytes[100] = static_cast<char>(bytes[100] ^ 0x01);
    f.writeModel(3, bytes);
    f.writeInfo(4, "{\"epoch\": 4, \"save_best_metric\": \"val_lo");
}

Run tst_RollbackConfirmDialog::loadRun(const fs::path& root) const
{
    return CandleLayout().loadRun(root);
}

void tst_RollbackConfirmDialog::checksTheTargetBeforeConfirming_data()
{
    QTest::addColumn<int>("epoch");
    QTest::addColumn<bool>("healthy");
    QTest::addColumn<QString>("says");
    QTest::newRow("healthy") << 2 << true << "fit for a restart";
    QTest::newRow("checksum mismatch") << 3 << false << "checksum mismatch";
    QTest::newRow("truncated ckpt-info.json") << 4 << false << "ckpt-info.json";
}

void tst_RollbackConfirmDialog::checksTheTargetBeforeConfirming()
{
    QFETCH(int, epoch);
    QFETCH(bool, healthy);
    QFETCH(QString, says);
    const Run run = loadRun(m_root);
    RollbackConfirmDialog dialog(
        RollbackConfirmDialog::requestFor(run, "RUN000", QStringLiteral("last"), epoch));
    QSignalSpy checked(&dialog, &RollbackConfirmDialog::healthChecked);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    // Nothing can be confirmed before the check has answered.
    if (checked.isEmpty())
        QVERIFY(!dialog.confirmButton()->isEnabled());
    QTRY_COMPARE(checked.size(), 1);
    QCOMPARE(dialog.health(), healthy ? RollbackConfirmDialog::Health::Healthy
                                      : RollbackConfirmDialog::Health::Failed);
    QCOMPARE(dialog.confirmButton()->isEnabled(), healthy);
    QCOMPARE(dialog.forceBox()->isVisible(), !healthy);
    QVERIFY2(healthText(dialog).contains(says), qPrintable(healthText(dialog)));
    QVERIFY(!description(dialog).contains("force")); // no option the dialog does not have
    // The answer fits: the description, the answer and Force do not overlap.
    const auto* descriptionLabel = dialog.findChild<QLabel*>("description");
    const auto* healthLabel = dialog.findChild<QLabel*>("health");
    QTRY_VERIFY(descriptionLabel->geometry().bottom() < healthLabel->geometry().top());
    QVERIFY(healthLabel->height() >= healthLabel->heightForWidth(healthLabel->width()));
    QVERIFY(descriptionLabel->height() >=
            descriptionLabel->heightForWidth(descriptionLabel->width()));
    if (!healthy)
        QVERIFY(healthLabel->geometry().bottom() < dialog.forceBox()->geometry().top());
}

void tst_RollbackConfirmDialog::forceIsExplicit()
{
    const Run run = loadRun(m_root);
    RollbackConfirmDialog dialog(
        RollbackConfirmDialog::requestFor(run, "RUN000", QStringLiteral("last"), 3));
    QSignalSpy checked(&dialog, &RollbackConfirmDialog::healthChecked);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_COMPARE(checked.size(), 1);
    QVERIFY(!dialog.confirmButton()->isEnabled());
    QVERIFY(!dialog.force());
    // Tick Force, as a user would.
    QTest::mouseClick(dialog.forceBox(), Qt::LeftButton, {},
                      QPoint(8, dialog.forceBox()->height() / 2));
    QVERIFY(dialog.forceBox()->isChecked());
    QVERIFY(dialog.force());
    QVERIFY(dialog.confirmButton()->isEnabled());
    QCOMPARE(dialog.confirmButton()->text().remove('&'), QString("Force last"));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(dialog.confirmButton(), Qt::LeftButton);
    QCOMPARE(accepted.size(), 1);
    QVERIFY(dialog.force());

    // Checking again (the model was repaired meanwhile) drops the force.
    CandleFixture f(m_root);
    f.writeModel(3, CandleFixture::modelContent(3, 4096));
    dialog.show();
    QTest::mouseClick(dialog.checkButton(), Qt::LeftButton);
    QTRY_COMPARE(checked.size(), 2);
    QCOMPARE(dialog.health(), RollbackConfirmDialog::Health::Healthy);
    QVERIFY(!dialog.force());
    QCOMPARE(dialog.confirmButton()->text().remove('&'), QString("Make last"));
}

void tst_RollbackConfirmDialog::warnsWhenBestLiesBeyondTheTarget()
{
    const Run run = loadRun(m_root);
    const auto back = RollbackConfirmDialog::describe(
        RollbackConfirmDialog::requestFor(run, "RUN000", QStringLiteral("last"), 2));
    QVERIFY2(back.contains("best points at epoch 5, beyond epoch 2"), qPrintable(back));
    QVERIFY(back.contains("epochs/005"));
    QVERIFY(back.contains("3, 4, 5, 6"));
    const auto after = RollbackConfirmDialog::describe(
        RollbackConfirmDialog::requestFor(run, "RUN000", QStringLiteral("last"), 5));
    QVERIFY(!after.contains("beyond"));
}

void tst_RollbackConfirmDialog::warnsWhenLastPointsOutsideTheRun()
{
    // A copy made with cp -a: its `last` still names the original's epoch 6.
    const fs::path copy = m_root.parent_path().parent_path() / "RUN000-copy";
    QCOMPARE(QProcess::execute("cp", {"-a", QString::fromStdString(m_root.parent_path()),
                                      QString::fromStdString(copy)}),
             0);
    const Run run = loadRun(copy / "ckpts");
    QCOMPARE(run.linkedEpoch("last"), std::optional<int>(6)); // shown as the local epoch
    const auto text = RollbackConfirmDialog::describe(
        RollbackConfirmDialog::requestFor(run, "RUN000-copy", QStringLiteral("last"), 5));
    QVERIFY2(text.contains("last now points outside this run"), qPrintable(text));
    QVERIFY(text.contains(QString::fromStdString((m_root / "epochs" / "006").string())));
}

QTEST_MAIN(tst_RollbackConfirmDialog)
#include "tst_RollbackConfirmDialog.moc"
