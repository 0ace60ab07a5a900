#include "watch/RunDiff.h"

#include <QTest>

using namespace ckpt;

namespace {

Epoch epoch(int number, const std::string& checksum = "1")
{
    Epoch e;
    e.number = number;
    e.dir = "/r/epochs/" + std::to_string(number);
    e.recorded = true;
    e.metadata.set("epoch", std::to_string(number));
    e.metadata.set("checksum", "\"" + checksum + "\"");
    EpochFile model;
    model.name = "model.h5";
    model.model = true;
    model.algo = ChecksumAlgo::Crc32;
    model.checksum = checksum;
    e.files.push_back(model);
    return e;
}

RunLink link(const std::string& name, int target)
{
    RunLink l;
    l.name = name;
    l.path = "/r/" + name;
    l.target = "/r/epochs/" + std::to_string(target);
    l.epoch = target;
    return l;
}

} // namespace

class tst_RunDiff : public QObject
{
    Q_OBJECT

private slots:
    void identicalRunsHaveNoChanges()
    {
        Run a;
        a.epochs = {epoch(1), epoch(2)};
        a.setLink("last", link("last", 2));
        QVERIFY(RunDiff::diff(a, a).empty());
    }

    void epochsAddedRemovedChanged()
    {
        Run a;
        a.epochs = {epoch(1), epoch(2), epoch(3)};
        Run b;
        b.epochs = {epoch(2, "7"), epoch(3), epoch(4), epoch(5)};
        const RunChanges c = RunDiff::diff(a, b);
        QCOMPARE(c.removed, std::vector<int>{1});
        QCOMPARE(c.added.size(), std::size_t{2});
        QCOMPARE(c.added[0].number, 4);
        QCOMPARE(c.added[1].number, 5);
        QCOMPARE(c.changed.size(), std::size_t{1});
        QCOMPARE(c.changed[0].number, 2);
        QVERIFY(c.links.empty());
        QVERIFY(!c.saveInProgress);
    }

    void nonFiniteValuesCompareEqual()
    {
        Epoch a = epoch(1);
        a.setMetric(kBestSoFar, std::numeric_limits<double>::quiet_NaN());
        a.metadata.set("best_metric_last", "NaN");
        QVERIFY(RunDiff::sameEpoch(a, a));
    }

    void linksAndWork()
    {
        Run a;
        a.setLink("last", link("last", 2));
        a.setLink("best", link("best", 1));
        Run b;
        b.setLink("last", link("last", 3));
        b.inProgress.push_back({"/r/work", std::nullopt});
        const RunChanges c = RunDiff::diff(a, b);
        QCOMPARE(c.links.size(), std::size_t{2});
        QCOMPARE(c.links[0].name, std::string("last"));
        QCOMPARE(c.links[0].epoch.value_or(-1), 3);
        QCOMPARE(c.links[1].name, std::string("best"));
        QVERIFY(!c.links[1].epoch);
        QVERIFY(c.links[1].path.empty());
        QVERIFY(c.saveInProgress.value_or(false));
        QVERIFY(!RunDiff::diff(b, a).saveInProgress.value_or(true));
    }
};

QTEST_GUILESS_MAIN(tst_RunDiff)
#include "tst_RunDiff.moc"
