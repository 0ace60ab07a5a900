#include "watch/EpochDirs.h"

#include <QTest>

#include <vector>

using namespace ckpt;

class tst_EpochDirs : public QObject
{
    Q_OBJECT

private slots:
    void keptSortedByNumber();
};

namespace {
std::vector<int> numbers(const EpochDirs& dirs)
{
    std::vector<int> out;
    for (const auto& [number, dir] : dirs)
        out.push_back(number);
    return out;
}
} // namespace

void tst_EpochDirs::keptSortedByNumber()
{
    EpochDirs dirs;
    dirs.assign({{3, {"003", 30}}, {1, {"001", 10}}});
    QCOMPARE(numbers(dirs), (std::vector<int>{1, 3}));
    dirs.set(2, {"002", 20});
    dirs.set(9, {"009", 90});
    dirs.set(3, {"3", 31}); // replaced in place
    QCOMPARE(numbers(dirs), (std::vector<int>{1, 2, 3, 9}));
    QCOMPARE(dirs.find(3)->name, std::string("3"));
    QCOMPARE(dirs.find(3)->inode, std::uint64_t(31));
    QVERIFY(!dirs.find(4));
    dirs.erase(2);
    dirs.erase(4); // absent: nothing happens
    QCOMPARE(numbers(dirs), (std::vector<int>{1, 3, 9}));
    QVERIFY(dirs.contains(9));
    QCOMPARE(dirs.size(), std::size_t(3));
    dirs.clear();
    QVERIFY(!dirs.contains(1));
}

QTEST_GUILESS_MAIN(tst_EpochDirs)
#include "tst_EpochDirs.moc"
