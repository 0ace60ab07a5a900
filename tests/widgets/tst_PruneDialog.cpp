#include "CandleFixture.h"
#include "candle/CandleLayout.h"
#include "dialogs/PruneDialog.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
using test::CandleFixture;

class tst_PruneDialog : public QObject
{
    Q_OBJECT
private slots:
    void previewFollowsTheLimit_data();
    void previewFollowsTheLimit();
};

void tst_PruneDialog::previewFollowsTheLimit_data()
{
    QTest::addColumn<int>("limit");
    QTest::addColumn<QList<int>>("deleted");
    // Epochs 1..6, 100-byte models; 6 (newest, last) and 2 (best) are protected.
    QTest::newRow("keep 1") << 1 << QList<int>{1, 3, 4, 5};
    QTest::newRow("keep 3") << 3 << QList<int>{1, 3};
    QTest::newRow("keep all") << 10 << QList<int>{};
}

void tst_PruneDialog::previewFollowsTheLimit()
{
    QFETCH(int, limit);
    QFETCH(QList<int>, deleted);
    QTemporaryDir dir;
    CandleFixture f(std::filesystem::path(dir.path().toStdString()) / "ckpts");
    for (int e = 1; e <= 6; ++e)
        f.addEpoch(e, 1.0 / e, 100);
    f.linkAbsolute("last", 6);
    f.linkAbsolute("best", 2);
    PruneDialog dialog("run", CandleLayout::instance().loadRun(f.root()));
    QSignalSpy planned(&dialog, &PruneDialog::planned);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    // Type the limit as a user would.
    QSpinBox* box = dialog.keepLimitBox();
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, QString::number(limit));
    QCOMPARE(box->value(), limit);
    // What is shown is Pruner::plan's answer for this policy, made in the background.
    QTRY_VERIFY(dialog.plan() && dialog.plan()->policy.keepLimit == limit);
    QVERIFY(!planned.isEmpty());
    const PrunePlan expected =
        Pruner::plan(CandleLayout::instance().loadRun(f.root()), dialog.policy());
    QCOMPARE(expected.toDelete.size(), static_cast<std::size_t>(deleted.size()));
    const std::vector<int> got = dialog.epochsToDelete();
    QCOMPARE(QList<int>(got.begin(), got.end()), deleted);
    QCOMPARE(dialog.bytesFreed(), expected.bytesFreed);
    QVERIFY(deleted.isEmpty() || dialog.bytesFreed() >= 100 * static_cast<quint64>(deleted.size()));
    // Protected epochs are never marked for deletion, and say so.
    auto* table = dialog.findChild<QTableWidget*>();
    QVERIFY(table->item(1, 2)->text().contains("protected"));
    QVERIFY(table->item(5, 2)->text().contains("protected"));
    // Nothing to delete: the delete button is off.
    QPushButton* ok = nullptr;
    for (auto* b : dialog.findChild<QDialogButtonBox*>()->buttons())
        if (b->text().startsWith("Delete"))
            ok = qobject_cast<QPushButton*>(b);
    QVERIFY(ok);
    QCOMPARE(ok->isEnabled(), !deleted.isEmpty());
}

QTEST_MAIN(tst_PruneDialog)
#include "tst_PruneDialog.moc"
