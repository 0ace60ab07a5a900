#include "model/EpochList.h"

#include <QTest>

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

using namespace ckpt;

class tst_EpochList : public QObject
{
    Q_OBJECT

private slots:
    void readsNeverCopy();
    void writesCopyFirst();
    void positionsFromBeforeTheCopy();
    void emptyAndClear();
    void copiesAcrossThreads();
    void recycleKeepsTheLargestUnsharedList();
    void clearedEpochEqualsANewOne();
};

namespace {
Epoch epoch(int number)
{
    Epoch e;
    e.number = number;
    e.dir = "epochs/" + std::to_string(number);
    return e;
}

EpochList list(std::initializer_list<int> numbers)
{
    EpochList out;
    for (int n : numbers)
        out.push_back(epoch(n));
    return out;
}

std::vector<int> numbers(const EpochList& epochs)
{
    std::vector<int> out;
    for (const Epoch& e : epochs)
        out.push_back(e.number);
    return out;
}
} // namespace

void tst_EpochList::readsNeverCopy()
{
    const EpochList a = list({1, 2, 3});
    const EpochList b = a;
    QVERIFY(a.sharesWith(b));
    QCOMPARE(b.size(), std::size_t(3));
    QCOMPARE(b[1].number, 2);
    QCOMPARE(b.back().number, 3);
    QCOMPARE(std::as_const(b).rbegin()->number, 3);
    const std::vector<Epoch>& all = b; // functions taking the vector read it in place
    QCOMPARE(&all, &a.items());
    QVERIFY(a.sharesWith(b));
}

void tst_EpochList::writesCopyFirst()
{
    EpochList a = list({1, 2, 3});
    EpochList b = a;
    b[0].dir = "changed";
    QVERIFY(!a.sharesWith(b));
    QCOMPARE(a[0].dir, std::string("epochs/1"));
    QCOMPARE(b[0].dir, std::string("changed"));

    EpochList c = a;
    c.eraseIf([](const Epoch& e) { return e.number == 2; });
    QCOMPARE(numbers(c), (std::vector<int>{1, 3}));
    QCOMPARE(numbers(a), (std::vector<int>{1, 2, 3}));

    EpochList d = a;
    auto& all = d.edit();
    std::sort(all.begin(), all.end(),
              [](const Epoch& x, const Epoch& y) { return x.number > y.number; });
    QCOMPARE(numbers(d), (std::vector<int>{3, 2, 1}));
    QCOMPARE(numbers(a), (std::vector<int>{1, 2, 3}));

    // The only owner writes in place.
    EpochList e = list({7});
    const Epoch* before = &std::as_const(e)[0];
    e[0].number = 8;
    QCOMPARE(&std::as_const(e)[0], before);
}

void tst_EpochList::positionsFromBeforeTheCopy()
{
    EpochList a = list({1, 3});
    EpochList b = a;
    // A position found by reading (shared buffer) is still right after the copy.
    const EpochList& read = b;
    auto at = std::lower_bound(read.begin(), read.end(), 2,
                               [](const Epoch& e, int n) { return e.number < n; });
    b.insert(at, epoch(2));
    QCOMPARE(numbers(b), (std::vector<int>{1, 2, 3}));
    QCOMPARE(numbers(a), (std::vector<int>{1, 3}));
    EpochList c = b;
    c.erase(std::as_const(c).begin());
    QCOMPARE(numbers(c), (std::vector<int>{2, 3}));
    c.erase(std::as_const(c).begin(), std::as_const(c).end());
    QVERIFY(c.empty());
    QCOMPARE(numbers(b), (std::vector<int>{1, 2, 3}));
}

void tst_EpochList::emptyAndClear()
{
    EpochList none;
    QVERIFY(none.empty());
    QVERIFY(!none.sharesWith(EpochList()));
    QVERIFY(std::as_const(none).begin() == std::as_const(none).end());
    EpochList a = list({1});
    EpochList b = a;
    b.clear();
    QVERIFY(b.empty());
    QCOMPARE(a.size(), std::size_t(1));
    a = std::move(b);
    QVERIFY(a.empty());
    EpochList c = list({4, 5});
    const EpochList& same = c;
    c = same; // self-assignment keeps the content
    QCOMPARE(numbers(c), (std::vector<int>{4, 5}));
    c.reserve(100);
    c.shrink_to_fit();
    QCOMPARE(numbers(c), (std::vector<int>{4, 5}));
}

void tst_EpochList::copiesAcrossThreads()
{
    // The watcher thread and the window hold copies of the same runs.
    const EpochList source = list({1, 2, 3});
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([source] {
            for (int i = 0; i < 5000; ++i) {
                EpochList mine = source;
                if (i % 3 == 0)
                    mine.push_back(epoch(4 + i));
                if (i % 5 == 0)
                    mine[0].number = -i;
            }
        });
    for (auto& t : threads)
        t.join();
    QCOMPARE(numbers(source), (std::vector<int>{1, 2, 3}));
}

void tst_EpochList::recycleKeepsTheLargestUnsharedList()
{
    QVERIFY(EpochList::takeRecycled().empty());
    EpochList a = list({1, 2, 3});
    const Epoch* storage = &a.items()[0];
    EpochList::recycle(std::move(a));
    QVERIFY(a.empty()); // NOLINT(bugprone-use-after-move): taken, as the comment says
    EpochList small = list({7});
    EpochList::recycle(std::move(small)); // smaller than what is kept: dropped
    EpochList shared = list({4, 5, 6, 7});
    const EpochList reader = shared;
    EpochList::recycle(std::move(shared)); // another list reads it: not taken
    QCOMPARE(numbers(reader), (std::vector<int>{4, 5, 6, 7}));

    // Kept per thread: another thread has none.
    bool otherHadNone = false;
    std::thread([&] { otherHadNone = EpochList::takeRecycled().empty(); }).join();
    QVERIFY(otherHadNone);

    EpochList::Vector kept = EpochList::takeRecycled();
    QCOMPARE(kept.size(), std::size_t(3));
    QCOMPARE(&kept[0], storage); // the same epochs, not copies
    QCOMPARE(kept[2].number, 3);
    QVERIFY(EpochList::takeRecycled().empty());
}

// Epoch::clear() must reset every member: the binding below stops compiling
// when a member is added, to be added to clear() and to this test.
void tst_EpochList::clearedEpochEqualsANewOne()
{
    Epoch e;
    auto& [number, firstSave, recorded, step, elapsed, dir, savedAt, monitored, files, metrics,
           metadata, problems] = e;
    number = 12;
    firstSave = true;
    recorded = true;
    step = 1200;
    elapsed = 55.5;
    dir = "epochs/012 with a name longer than a short string";
    savedAt = "2026-11-22 13:00:01";
    monitored = "val_loss of a long metric name";
    files.push_back(EpochFile{"model.h5", 100, true, true, ChecksumAlgo::Crc32, "123", 0, 1, 2});
    metrics.push_back(EpochMetric{"best_so_far", 0.5});
    const KeyValues::Entry entries[] = {{"epoch", "12"}};
    metadata.assignDistinct(entries, 1, true);
    problems.push_back(Problem{ProblemKind::BadInfo, "bad", "/x", 12});
    const std::size_t dirRoom = dir.capacity();

    e.clear();
    const Epoch fresh;
    QCOMPARE(number, fresh.number);
    QCOMPARE(firstSave, fresh.firstSave);
    QCOMPARE(recorded, fresh.recorded);
    QCOMPARE(step, fresh.step);
    QCOMPARE(elapsed, fresh.elapsed);
    QCOMPARE(dir, fresh.dir);
    QCOMPARE(savedAt, fresh.savedAt);
    QCOMPARE(monitored, fresh.monitored);
    QVERIFY(files.empty());
    QVERIFY(metrics.empty());
    QVERIFY(metadata == fresh.metadata);
    QVERIFY(!metadata.canonical());
    QVERIFY(problems.empty());
    QVERIFY(!e.hasRecord());
    QVERIFY(!e.modelFile());
    // The room stays for the next read.
    QCOMPARE(dir.capacity(), dirRoom);
    QVERIFY(files.capacity() >= 1);
    QVERIFY(metrics.capacity() >= 1);
}

QTEST_GUILESS_MAIN(tst_EpochList)
#include "tst_EpochList.moc"
