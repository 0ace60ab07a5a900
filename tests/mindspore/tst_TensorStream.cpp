// TensorStream and the accumulators it feeds, on real MindSpore files: every
// element reaches exactly one worker once, batches alternate between the two
// workers, and statistics and diffs merged from both match a long double
// reference whatever the block size, bit for bit the same on every run.
#include "hdf5/DiffAccumulator.h"
#include "mindspore/MindSporeCheckpoint.h"
#include "tensor/TensorSourceDiff.h"
#include "tensor/TensorSourceStats.h"
#include "tensor/TensorStream.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <ProtobufFixture.h>
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <random>

using namespace ckpt;
using test::MsTensor;
using test::ProtobufFixture;

namespace {

std::string readAll(const std::string& path)
{
    QFile file(QString::fromStdString(path));
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

std::vector<float> randomFloats(std::size_t n, unsigned seed, float offset)
{
    std::mt19937 gen(seed);
    std::normal_distribution<float> normal(offset, 0.25f);
    std::vector<float> v(n);
    for (float& x : v)
        x = normal(gen);
    return v;
}

// Population statistics of the finite values, in long double.
struct Reference
{
    std::uint64_t nan = 0, inf = 0, zeros = 0, finite = 0;
    long double min = 0, max = 0, mean = 0, stddev = 0, l2 = 0;
};

Reference reference(const std::vector<float>& v)
{
    Reference r;
    long double sum = 0, sq = 0;
    for (float x : v) {
        if (std::isnan(x)) {
            ++r.nan;
        } else if (std::isinf(x)) {
            ++r.inf;
        } else {
            r.min = r.finite ? std::min<long double>(r.min, x) : x;
            r.max = r.finite ? std::max<long double>(r.max, x) : x;
            ++r.finite;
            r.zeros += x == 0.0f;
            sum += x;
            sq += static_cast<long double>(x) * x;
        }
    }
    r.mean = sum / r.finite;
    long double m2 = 0;
    for (float x : v) {
        if (std::isfinite(x))
            m2 += (x - r.mean) * (x - r.mean);
    }
    r.stddev = std::sqrt(m2 / r.finite);
    r.l2 = std::sqrt(sq);
    return r;
}

bool close(double got, long double want, double rel)
{
    return std::abs(static_cast<long double>(got) - want) <=
           rel * std::max<long double>(std::abs(want), 1e-300L);
}

} // namespace

class tst_TensorStream : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // A big float32 with NaN, Inf and zeros spread over many blocks, a
        // tensor split in 3 parts, small ones to be packed, a float16 and an int64.
        m_big = randomFloats(300000, 1, 1000.0f);
        for (std::size_t i = 7; i < m_big.size(); i += 40009)
            m_big[i] = std::numeric_limits<float>::quiet_NaN();
        m_big[4095] = std::numeric_limits<float>::infinity();
        m_big[4096] = -std::numeric_limits<float>::infinity();
        for (std::size_t i = 100000; i < 100050; ++i)
            m_big[i] = 0.0f;
        m_split = randomFloats(10001, 2, -3.0f);
        m_tensors = {
            {"big", "Float32", {300000}, ProtobufFixture::floats(m_big), 1},
            {"small.a", "Float32", {5}, ProtobufFixture::floats({1, 2, 3, 4, 5}), 1},
            {"half", "Float16", {3}, ProtobufFixture::halfs({0x3c00, 0x4000, 0xc000}), 1},
            {"split", "Float32", {10001}, ProtobufFixture::floats(m_split), 3},
            {"small.b", "Float32", {1}, ProtobufFixture::floats({-7}), 1},
            {"step_num", "Int64", {1}, ProtobufFixture::int64s({42}), 1},
        };
        m_fileA = m_dir.filePath("a.ckpt").toStdString();
        ProtobufFixture::write(m_fileA, ProtobufFixture::mindspore(m_tensors, true));
        // B: `big` shifted by 0.5 where finite, the rest unchanged.
        std::vector<MsTensor> b = m_tensors;
        std::vector<float> shifted = m_big;
        for (float& x : shifted)
            x += 0.5f;
        b[0].content = ProtobufFixture::floats(shifted);
        m_fileB = m_dir.filePath("b.ckpt").toStdString();
        ProtobufFixture::write(m_fileB, ProtobufFixture::mindspore(b, false));
    }

    void everyElementOnceInTurns_data()
    {
        QTest::addColumn<qulonglong>("blockBytes");
        QTest::newRow("64 bytes") << qulonglong(64);
        QTest::newRow("1000 bytes (unaligned)") << qulonglong(1000);
        QTest::newRow("64 KiB") << qulonglong(64 << 10);
        QTest::newRow("1 MiB (one batch for all but big)") << qulonglong(1 << 20);
        QTest::newRow("8 MiB (a single batch)") << qulonglong(8 << 20);
    }
    void everyElementOnceInTurns()
    {
        QFETCH(qulonglong, blockBytes);
        auto a = MindSporeCheckpoint::open(m_fileA);
        auto b = MindSporeCheckpoint::open(m_fileB);
        QVERIFY(a && b);
        std::vector<TensorStream::Job> jobs;
        for (std::size_t i = 0; i < (*a)->tensors().size(); ++i)
            jobs.push_back({i, i});
        // Per job, the bytes seen on each side, placed by offset.
        std::vector<std::string> seenA(jobs.size()), seenB(jobs.size());
        // One byte per element, not vector<bool>: the two workers mark
        // neighbouring elements at once, and packed bits would race.
        std::vector<std::vector<char>> covered(jobs.size());
        for (std::size_t j = 0; j < jobs.size(); ++j) {
            const TensorInfo& t = (*a)->tensors()[j];
            seenA[j].assign(t.bytes, '\0');
            seenB[j].assign(t.bytes, '\0');
            covered[j].assign(t.elements, 0);
        }
        std::array<std::uint64_t, TensorStream::kWorkers> nextOffset{};
        std::array<std::size_t, TensorStream::kWorkers> lastJob{};
        std::array<int, TensorStream::kWorkers> segments{};
        std::atomic_bool twice{false};
        std::atomic_bool outOfOrder{false};
        std::atomic_int busy{0};
        std::atomic_bool concurrentSameWorker{false};
        auto consume = [&](int w, const TensorStream::Segment& seg) {
            const auto wi = static_cast<std::size_t>(w);
            if (busy.fetch_or(1 << w) & (1 << w))
                concurrentSameWorker = true;
            const TensorInfo& t = (*a)->tensors()[seg.job];
            const auto size = static_cast<std::uint64_t>(t.dtype.size);
            std::memcpy(seenA[seg.job].data() + seg.offset * size, seg.a, seg.elements * size);
            std::memcpy(seenB[seg.job].data() + seg.offset * size, seg.b, seg.elements * size);
            for (std::uint64_t i = seg.offset; i < seg.offset + seg.elements; ++i) {
                if (covered[seg.job][i])
                    twice = true;
                covered[seg.job][i] = 1;
            }
            // A worker's segments come in file order.
            if (segments[wi] > 0 &&
                (seg.job < lastJob[wi] || (seg.job == lastJob[wi] && seg.offset < nextOffset[wi])))
                outOfOrder = true;
            lastJob[wi] = seg.job;
            nextOffset[wi] = seg.offset + seg.elements;
            ++segments[wi];
            busy.fetch_and(~(1 << w));
        };
        const Status st = TensorStream::run(**a, b->get(), jobs, consume, Progress::none(),
                                            static_cast<std::uint64_t>(blockBytes));
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        QVERIFY(!twice);
        QVERIFY(!outOfOrder);
        QVERIFY(!concurrentSameWorker);
        for (std::size_t j = 0; j < jobs.size(); ++j) {
            QVERIFY2(
                std::all_of(covered[j].begin(), covered[j].end(), [](char c) { return c != 0; }),
                (*a)->tensors()[j].name.c_str());
            std::string want(seenA[j].size(), '\0');
            QVERIFY((*a)->read(j, 0, (*a)->tensors()[j].elements, want.data()));
            QCOMPARE(seenA[j], want);
            QVERIFY((*b)->read(j, 0, (*b)->tensors()[j].elements, want.data()));
            QCOMPARE(seenB[j], want);
        }
        // The 1.2 MB tensor alone fills several batches: both workers take part.
        if (blockBytes < (1 << 20)) {
            QVERIFY(segments[0] > 0);
            QVERIFY(segments[1] > 0);
        } else if (blockBytes >= (8 << 20)) {
            QCOMPARE(segments[1], 0); // one batch: no second worker
        }
    }

    void statsMatchReference_data()
    {
        QTest::addColumn<qulonglong>("blockBytes");
        QTest::newRow("100 bytes") << qulonglong(100);
        QTest::newRow("4 KiB") << qulonglong(4 << 10);
        QTest::newRow("1 MiB") << qulonglong(1 << 20);
    }
    void statsMatchReference()
    {
        QFETCH(qulonglong, blockBytes);
        auto a = MindSporeCheckpoint::open(m_fileA);
        QVERIFY(a);
        std::map<std::string, ValueStats> first;
        for (int run = 0; run < 3; ++run) {
            auto all = TensorSourceStats::of(**a, Progress::none(), blockBytes);
            QVERIFY(all);
            for (const auto& e : *all) {
                if (run == 0) {
                    first[e.info.name] = e.stats;
                    continue;
                }
                // The same bits on every run: batches go to fixed workers.
                const ValueStats& f = first[e.info.name];
                QCOMPARE(std::memcmp(&f.mean, &e.stats.mean, sizeof(double)), 0);
                QCOMPARE(std::memcmp(&f.stddev, &e.stats.stddev, sizeof(double)), 0);
                QCOMPARE(std::memcmp(&f.l2, &e.stats.l2, sizeof(double)), 0);
            }
        }
        for (const auto& [name, values] :
             {std::pair{std::string("big"), m_big}, std::pair{std::string("split"), m_split}}) {
            const Reference want = reference(values);
            const ValueStats& s = first[name];
            QCOMPARE(s.count, std::uint64_t(values.size()));
            QCOMPARE(s.nan, want.nan);
            QCOMPARE(s.inf, want.inf);
            QCOMPARE(s.zeros, want.zeros);
            QCOMPARE(s.finite, want.finite);
            QCOMPARE(static_cast<long double>(s.min), want.min);
            QCOMPARE(static_cast<long double>(s.max), want.max);
            // The mean of values near 1000 with spread 0.25: no cancellation.
            QVERIFY2(close(s.mean, want.mean, 1e-12), qPrintable(QString::number(s.mean, 'g', 17)));
            QVERIFY2(close(s.stddev, want.stddev, 1e-9),
                     qPrintable(QString::number(s.stddev, 'g', 17)));
            QVERIFY2(close(s.l2, want.l2, 1e-12), qPrintable(QString::number(s.l2, 'g', 17)));
        }
        QCOMPARE(first["half"].min, -2.0);
        QCOMPARE(first["half"].max, 2.0);
        QCOMPARE(first["step_num"].mean, 42.0);
    }

    void diffMatchesReference_data() { statsMatchReference_data(); }
    void diffMatchesReference()
    {
        QFETCH(qulonglong, blockBytes);
        auto a = MindSporeCheckpoint::open(m_fileA);
        auto b = MindSporeCheckpoint::open(m_fileB);
        QVERIFY(a && b);
        TensorDiff::Options options;
        options.blockBytes = blockBytes;
        auto diff = TensorSourceDiff::diff(**a, **b, options);
        QVERIFY(diff);
        const TensorDiffEntry* big = nullptr;
        for (const auto& e : diff->tensors) {
            if (e.key == "big")
                big = &e;
            else if (e.status == TensorDiffEntry::Status::Same)
                QCOMPARE(e.changedElements, std::uint64_t(0));
        }
        QVERIFY(big);
        long double dd = 0, maxAbs = 0;
        std::uint64_t changed = 0;
        for (float x : m_big) {
            const float y = x + 0.5f;
            if (std::isfinite(x)) {
                const long double d = static_cast<long double>(x) - y;
                dd += d * d;
                maxAbs = std::max(maxAbs, std::abs(d));
                changed += x != y;
            }
        }
        // NaN pairs and equal infinities are not changes.
        QCOMPARE(big->changedElements, changed);
        QCOMPARE(big->nanA, std::uint64_t(8));
        QCOMPARE(big->infB, std::uint64_t(2));
        QCOMPARE(static_cast<long double>(big->maxAbsDiff), maxAbs);
        QVERIFY2(close(big->l2Diff, std::sqrt(dd), 1e-12),
                 qPrintable(QString::number(big->l2Diff, 'g', 17)));
    }

    // The file is cut under the open reader just after the first tensor's
    // values: that tensor keeps its statistics, each later one gets an error
    // naming the file, and a diff marks those pairs unreadable.
    void readErrorNamesTheFile()
    {
        const std::string path = m_dir.filePath("cut.ckpt").toStdString();
        std::filesystem::copy_file(m_fileA, path);
        auto a = MindSporeCheckpoint::open(path);
        QVERIFY(a);
        auto b = MindSporeCheckpoint::open(m_fileB);
        QVERIFY(b);
        const std::string bytes = readAll(path);
        const std::string big = ProtobufFixture::floats(m_big);
        const std::size_t at = bytes.find(big);
        QVERIFY(at != std::string::npos);
        std::filesystem::resize_file(path, at + big.size() + 1);
        auto all = TensorSourceStats::of(**a, Progress::none(), 4096);
        QVERIFY2(all, all ? "" : all.error().message.c_str());
        std::size_t failed = 0;
        for (const TensorSourceStats::Entry& e : *all) {
            if (e.info.name == "big") {
                QCOMPARE(e.error, std::string());
                QCOMPARE(e.stats.count, std::uint64_t(m_big.size()));
                continue;
            }
            QVERIFY2(e.error.find("cut.ckpt") != std::string::npos, e.error.c_str());
            ++failed;
        }
        QCOMPARE(failed, all->size() - 1);
        QVERIFY(failed >= 4);
        auto one = TensorSourceStats::ofTensor(**a, "small.a");
        QVERIFY(!one);
        auto diff = TensorSourceDiff::diff(**a, **b, TensorDiff::Options{});
        QVERIFY2(diff, diff ? "" : diff.error().message.c_str());
        std::size_t unreadable = 0;
        for (const TensorDiffEntry& e : diff->tensors) {
            if (e.key == "big") {
                QVERIFY(e.compared);
                continue;
            }
            if (e.status != TensorDiffEntry::Status::Unreadable)
                continue;
            QVERIFY2(e.error.find("cut.ckpt") != std::string::npos, e.error.c_str());
            QVERIFY(!e.compared);
            ++unreadable;
        }
        QVERIFY(unreadable >= 3);
    }

    void cancelStopsBothWorkers()
    {
        auto a = MindSporeCheckpoint::open(m_fileA);
        QVERIFY(a);
        std::atomic_bool cancel{false};
        std::uint64_t lastDone = 0;
        Progress progress(
            [&](const ProgressUpdate& u) {
                lastDone = u.done;
                if (u.done > 100000)
                    cancel = true;
            },
            &cancel);
        auto all = TensorSourceStats::of(**a, progress, 4096);
        QVERIFY(!all);
        QVERIFY2(all.error().message.find("cancelled") != std::string::npos,
                 all.error().message.c_str());
        QVERIFY(lastDone < (*a)->tensors()[0].bytes);
    }

private:
    QTemporaryDir m_dir;
    std::vector<float> m_big;
    std::vector<float> m_split;
    std::vector<MsTensor> m_tensors;
    std::string m_fileA;
    std::string m_fileB;
};

QTEST_GUILESS_MAIN(tst_TensorStream)
#include "tst_TensorStream.moc"
