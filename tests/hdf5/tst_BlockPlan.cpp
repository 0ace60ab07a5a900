#include "hdf5/BlockPlan.h"

#include <QTest>

using namespace ckpt;
using Shape = std::vector<std::uint64_t>;
Q_DECLARE_METATYPE(Shape)

class tst_BlockPlan : public QObject
{
    Q_OBJECT

private slots:
    void coversInOrder_data();
    void coversInOrder();
};

void tst_BlockPlan::coversInOrder_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<Shape>("chunk");
    QTest::addColumn<qulonglong>("maxElements");
    QTest::addColumn<qulonglong>("blocks");

    QTest::newRow("scalar") << Shape{} << Shape{} << 100ull << 1ull;
    QTest::newRow("empty") << Shape{0, 5} << Shape{} << 100ull << 0ull;
    QTest::newRow("fits whole") << Shape{10, 10} << Shape{} << 100ull << 1ull;
    QTest::newRow("rows") << Shape{10, 10} << Shape{} << 30ull << 4ull;
    QTest::newRow("chunk aligned rows") << Shape{10, 10} << Shape{4, 10} << 50ull << 3ull;
    QTest::newRow("split inside a row") << Shape{3, 1000} << Shape{} << 300ull << 12ull;
    QTest::newRow("1-D long") << Shape{1000} << Shape{} << 64ull << 16ull;
    QTest::newRow("3-D middle dim") << Shape{2, 5, 7} << Shape{} << 14ull << 6ull;
    QTest::newRow("max 1") << Shape{2, 3} << Shape{} << 1ull << 6ull;
}

void tst_BlockPlan::coversInOrder()
{
    QFETCH(Shape, shape);
    QFETCH(Shape, chunk);
    QFETCH(qulonglong, maxElements);
    QFETCH(qulonglong, blocks);

    BlockPlan plan(shape, chunk, maxElements);
    std::uint64_t total = 1;
    for (auto d : shape)
        total *= d;
    // Rebuild the flat index of every element from the hyperslabs: they must tile
    // the tensor in C order, each block contiguous in flat index.
    std::uint64_t expectedOffset = 0;
    std::uint64_t count = 0;
    BlockPlan::Block b;
    while (plan.next(b)) {
        ++count;
        QVERIFY(b.elements <= std::max<std::uint64_t>(maxElements, 1));
        QCOMPARE(b.offset, expectedOffset);
        std::uint64_t product = 1;
        for (auto c : b.count)
            product *= c;
        QCOMPARE(product, shape.empty() ? 1 : b.elements);
        if (!shape.empty()) {
            std::uint64_t flat = 0;
            for (std::size_t i = 0; i < shape.size(); ++i)
                flat = flat * shape[i] + b.start[i];
            QCOMPARE(flat, b.offset);
        }
        if (!chunk.empty() && b.start.size() == chunk.size()) {
            for (std::size_t i = 0; i < chunk.size(); ++i) {
                if (b.count[i] < shape[i] && b.count[i] >= chunk[i])
                    QCOMPARE(b.start[i] % chunk[i], 0ull);
            }
        }
        expectedOffset += b.elements;
        QVERIFY(count <= 100000);
    }
    QCOMPARE(count, std::uint64_t(blocks));
    QCOMPARE(expectedOffset, shape.empty() ? 1 : total);
}

QTEST_GUILESS_MAIN(tst_BlockPlan)
#include "tst_BlockPlan.moc"
