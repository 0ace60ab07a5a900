#include "models/ModelRoles.h"
#include "models/ProblemsModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace ckpt;

class tst_ProblemsModel : public QObject
{
    Q_OBJECT
private slots:
    void replacesPerRun_data();
    void replacesPerRun();
    void repairableThroughPredicate();
};

static Problems make(int n, ProblemKind kind = ProblemKind::DanglingLink)
{
    Problems out;
    for (int i = 0; i < n; ++i)
        out.push_back(Problem{kind, "problem " + std::to_string(i), "/r/last", i + 1});
    return out;
}

void tst_ProblemsModel::replacesPerRun_data()
{
    QTest::addColumn<int>("before");
    QTest::addColumn<int>("after");
    QTest::newRow("grow") << 1 << 3;
    QTest::newRow("shrink") << 3 << 1;
    QTest::newRow("clear") << 2 << 0;
    QTest::newRow("same") << 2 << 2;
}

void tst_ProblemsModel::replacesPerRun()
{
    QFETCH(int, before);
    QFETCH(int, after);
    ProblemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProblems("/a", "a", make(2));
    model.setProblems("/r", "r", make(before));
    model.setProblems("/z", "z", make(1));
    model.setProblems("/r", "r", make(after));
    QCOMPARE(model.rowCount(), 3 + after);
    QCOMPARE(model.problemCount("/r"), after);
    QCOMPARE(model.problemCount("/a"), 2);
    QCOMPARE(model.rootAt(model.rowCount() - 1), QString("/z"));
    if (after > 0) {
        // People read plain words; the machine name stays in a role and the tooltip.
        const QModelIndex kind = model.index(2, ProblemsModel::KindColumn);
        QCOMPARE(kind.data().toString(), QString("Broken link"));
        QCOMPARE(kind.data(roles::ProblemKindRole).toString(), QString("dangling_link"));
        QVERIFY(kind.data(Qt::ToolTipRole).toString().contains("dangling_link"));
        QCOMPARE(model.index(2, ProblemsModel::RunColumn).data(Qt::ToolTipRole).toString(),
                 QString("/r"));
        QCOMPARE(model.index(2, ProblemsModel::FileColumn).data().toString(), QString("last"));
        QCOMPARE(model.index(2, ProblemsModel::EpochColumn).data(roles::EpochRole).toInt(), 1);
    }
}

void tst_ProblemsModel::repairableThroughPredicate()
{
    ProblemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRepairPredicate([](const Problem& p) { return p.kind == ProblemKind::RelocatedLink; });
    Problems ps = make(1, ProblemKind::RelocatedLink);
    ps.push_back(Problem{ProblemKind::BadInfo, "bad", "/r/epochs/001/ckpt-info.json", 1});
    model.setProblems("/r", "r", ps);
    QCOMPARE(model.index(0, 0).data(roles::RepairableRole).toBool(), true);
    QCOMPARE(model.index(1, 0).data(roles::RepairableRole).toBool(), false);
    QCOMPARE(model.index(1, ProblemsModel::FileColumn).data().toString(),
             QString("epochs/001/ckpt-info.json"));
    QVERIFY(model.problemAt(1)->kind == ProblemKind::BadInfo);
}

QTEST_GUILESS_MAIN(tst_ProblemsModel)
#include "tst_ProblemsModel.moc"
