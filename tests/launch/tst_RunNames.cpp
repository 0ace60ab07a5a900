#include "launch/RunNames.h"

#include <QTest>

using namespace ckpt;

// Runs listed side by side keep their own names; runs that share one (the
// same experiment copied to two places) are told apart by the nearest folder
// above them whose name differs.
class tst_RunNames : public QObject
{
    Q_OBJECT

private slots:
    void distinct_data();
    void distinct();
    void aRootListedTwiceKeepsItsFirstName();
};

using Runs = std::vector<std::pair<std::string, std::string>>;
using Names = std::map<std::string, std::string>;
Q_DECLARE_METATYPE(Runs)
Q_DECLARE_METATYPE(Names)

void tst_RunNames::distinct_data()
{
    QTest::addColumn<Runs>("runs");
    QTest::addColumn<Names>("expected");
    QTest::newRow("different names stay as they are")
        << Runs{{"/p/EXP000/RUN001/ckpts", "RUN001"}, {"/p/EXP000/RUN002/ckpts", "RUN002"}}
        << Names{{"/p/EXP000/RUN001/ckpts", "RUN001"}, {"/p/EXP000/RUN002/ckpts", "RUN002"}};
    QTest::newRow("two copies: the first folder that differs")
        << Runs{{"/tmp/demo/EXP000/RUN001/ckpts", "RUN001"},
                {"/work/build/demo-experiment/EXP000/RUN001/ckpts", "RUN001"},
                {"/tmp/demo/EXP000/RUN001-fork-e006/ckpts", "RUN001-fork-e006"}}
        << Names{{"/tmp/demo/EXP000/RUN001/ckpts", "RUN001 (demo)"},
                 {"/work/build/demo-experiment/EXP000/RUN001/ckpts", "RUN001 (demo-experiment)"},
                 {"/tmp/demo/EXP000/RUN001-fork-e006/ckpts", "RUN001-fork-e006"}};
    // Each copy takes the level at which it alone differs.
    QTest::newRow("five copies, told apart at different levels")
        << Runs{{"/tmp/demo/EXP000/RUN001/ckpts", "RUN001"},
                {"/w/ci-try/build-ci/demo-experiment/EXP000/RUN001/ckpts", "RUN001"},
                {"/w/main/build/demo-experiment/EXP000/RUN001/ckpts", "RUN001"},
                {"/c/w/main/build-ci/demo-experiment/EXP000/RUN001/ckpts", "RUN001"},
                {"/w/fuzz/seeds/.demo/EXP000/RUN001/ckpts", "RUN001"}}
        << Names{{"/tmp/demo/EXP000/RUN001/ckpts", "RUN001 (demo)"},
                 {"/w/ci-try/build-ci/demo-experiment/EXP000/RUN001/ckpts", "RUN001 (ci-try)"},
                 {"/w/main/build/demo-experiment/EXP000/RUN001/ckpts", "RUN001 (build)"},
                 {"/c/w/main/build-ci/demo-experiment/EXP000/RUN001/ckpts", "RUN001 (c)"},
                 {"/w/fuzz/seeds/.demo/EXP000/RUN001/ckpts", "RUN001 (.demo)"}};
    QTest::newRow("a shallow copy and a deep one")
        << Runs{{"/a/RUN1", "RUN1"}, {"/x/a/RUN1", "RUN1"}}
        << Names{{"/a/RUN1", "RUN1 (/)"}, {"/x/a/RUN1", "RUN1 (x)"}};
    QTest::newRow("a save/ckpts root is its run folder")
        << Runs{{"/a/RUN1/save/ckpts", "RUN1"}, {"/b/RUN1/ckpts", "RUN1"}}
        << Names{{"/a/RUN1/save/ckpts", "RUN1 (a)"}, {"/b/RUN1/ckpts", "RUN1 (b)"}};
    // A told apart by "x" one level up, B by "x" two levels up: one word, two
    // places; every copy then shows the folder it lives in.
    QTest::newRow("labels that would still be alike: the parent folder")
        << Runs{{"/m/x/R", "R"}, {"/x/n/R", "R"}, {"/z/n/R", "R"}}
        << Names{{"/m/x/R", "R (/m/x)"}, {"/x/n/R", "R (/x/n)"}, {"/z/n/R", "R (/z/n)"}};
}

void tst_RunNames::distinct()
{
    QFETCH(Runs, runs);
    QFETCH(Names, expected);
    const Names names = RunNames::distinct(runs);
    for (const auto& [root, name] : expected)
        QVERIFY2(
            names.count(root) && names.at(root) == name,
            (root + " -> " + (names.count(root) ? names.at(root) : "(none)") + ", expected " + name)
                .c_str());
    QCOMPARE(names.size(), expected.size());
}

void tst_RunNames::aRootListedTwiceKeepsItsFirstName()
{
    // The Experiments model names a registered run, then again as a parent.
    const Names names = RunNames::distinct(
        {{"/p/RUN1/ckpts", "EXP/RUN1"}, {"/p/RUN1/ckpts", "RUN1"}, {"/q/RUN1/ckpts", "RUN1"}});
    QCOMPARE(names.at("/p/RUN1/ckpts"), std::string("EXP/RUN1"));
    QCOMPARE(names.at("/q/RUN1/ckpts"), std::string("RUN1"));
}

QTEST_GUILESS_MAIN(tst_RunNames)
#include "tst_RunNames.moc"
