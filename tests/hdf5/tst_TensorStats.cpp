#include "H5Writer.h"
#include "ModelFixtures.h"
#include "hdf5/TensorStats.h"

#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <random>

using namespace ckpt;
using ckpt::test::H5Writer;
using ckpt::test::ModelFixtures;

namespace {

// Reference statistics computed naively in long double from the generated values.
struct Expected
{
    std::uint64_t count = 0, nan = 0, inf = 0, zeros = 0;
    long double min = 0, max = 0, mean = 0, stddev = 0, l2 = 0;
};

Expected expect(const std::vector<long double>& v)
{
    Expected e;
    e.count = v.size();
    long double sum = 0, sq = 0;
    std::uint64_t n = 0;
    bool first = true;
    for (long double x : v) {
        if (std::isnan(x)) {
            ++e.nan;
            continue;
        }
        if (std::isinf(x)) {
            ++e.inf;
            continue;
        }
        e.zeros += x == 0;
        e.min = first ? x : std::min(e.min, x);
        e.max = first ? x : std::max(e.max, x);
        first = false;
        sum += x;
        sq += x * x;
        ++n;
    }
    e.mean = sum / n;
    long double m2 = 0;
    for (long double x : v) {
        if (std::isfinite(x))
            m2 += (x - e.mean) * (x - e.mean);
    }
    e.stddev = std::sqrt(m2 / n);
    e.l2 = std::sqrt(sq);
    return e;
}

// IEEE half decoded by its definition, not by bit tricks.
long double halfValue(std::uint16_t h)
{
    const int sign = (h >> 15) ? -1 : 1;
    const int exp = (h >> 10) & 0x1f;
    const int mant = h & 0x3ff;
    if (exp == 31)
        return mant ? std::numeric_limits<long double>::quiet_NaN()
                    : sign * std::numeric_limits<long double>::infinity();
    if (exp == 0)
        return sign * std::ldexp(static_cast<long double>(mant), -24);
    return sign * std::ldexp(1.0L + mant / 1024.0L, exp - 15);
}

bool close(double got, long double want, double rel = 1e-12)
{
    const long double scale = std::max<long double>(std::abs(want), 1e-300L);
    return std::abs(static_cast<long double>(got) - want) <= rel * scale;
}

} // namespace

class tst_TensorStats : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void matchesReference_data();
    void matchesReference();
    void allNonFinite();
    void oneDataset();

private:
    QTemporaryDir m_dir;
    std::string m_file;
    std::map<std::string, std::vector<long double>> m_expected;
};

void tst_TensorStats::initTestCase()
{
    m_file = m_dir.filePath("stats.h5").toStdString();
    H5Writer w(m_file);
    std::mt19937 gen(11);

    // float32 with NaN, Inf and zeros injected; 2-D, contiguous.
    std::vector<float> f32 = ModelFixtures::values(300 * 70, 21, 3.0f);
    f32[5] = std::numeric_limits<float>::quiet_NaN();
    f32[77] = std::numeric_limits<float>::infinity();
    f32[78] = -std::numeric_limits<float>::infinity();
    f32[1000] = std::numeric_limits<float>::quiet_NaN();
    for (int i = 2000; i < 2010; ++i)
        f32[i] = 0.0f;
    w.floats("/f32", {300, 70}, f32);
    m_expected["/f32"].assign(f32.begin(), f32.end());

    // float32 chunked + gzip, with a partial last chunk.
    std::vector<float> gz = ModelFixtures::values(1003 * 5, 22, 100.0f);
    w.dataset("/gzip", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {1003, 5}, gz.data(), {64, 5}, 6, true);
    m_expected["/gzip"].assign(gz.begin(), gz.end());

    // Larger than one 1 MiB block: streamed in several chunk-aligned blocks.
    std::vector<float> large = ModelFixtures::values(700 * 500, 24, 7.0f);
    large[123456] = std::numeric_limits<float>::infinity();
    w.dataset("/large", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {700, 500}, large.data(), {64, 500}, 1);
    m_expected["/large"].assign(large.begin(), large.end());

    // float64, big-endian in the file, offset so that naive variance would suffer.
    std::vector<double> f64(5000);
    std::normal_distribution<double> normal(1e6, 0.5);
    for (double& v : f64)
        v = normal(gen);
    w.dataset("/f64", H5T_IEEE_F64BE, H5T_NATIVE_DOUBLE, {5000}, f64.data());
    m_expected["/f64"].assign(f64.begin(), f64.end());

    // int32 (negative values, zeros).
    std::vector<std::int32_t> i32(999);
    std::uniform_int_distribution<std::int32_t> ints(-100000, 100000);
    for (auto& v : i32)
        v = ints(gen) / 1000;
    w.dataset("/i32", H5T_STD_I32LE, H5T_NATIVE_INT32, {999}, i32.data());
    m_expected["/i32"].assign(i32.begin(), i32.end());

    // float16: every finite positive and negative pattern plus inf and NaN.
    std::vector<std::uint16_t> f16;
    for (std::uint32_t h = 0; h < 65536; h += 7)
        f16.push_back(static_cast<std::uint16_t>(h));
    f16.push_back(0x7c00); // +inf
    f16.push_back(0x7e00); // NaN
    const hid_t half = H5Writer::halfType();
    w.dataset("/f16", half, half, {f16.size()}, f16.data());
    for (std::uint16_t h : f16)
        m_expected["/f16"].push_back(halfValue(h));

    // bfloat16 as Keras 3 writes it: uint16 with attr dtype="bfloat16".
    std::vector<std::uint16_t> bf16;
    std::vector<long double> bfExpected;
    for (float v : ModelFixtures::values(4097, 23, 50.0f)) {
        const auto bits = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(v) >> 16);
        bf16.push_back(bits);
        bfExpected.push_back(std::bit_cast<float>(std::uint32_t(bits) << 16));
    }
    w.dataset("/layers/dense/vars/0", H5T_STD_U16LE, H5T_NATIVE_UINT16, {4097}, bf16.data());
    w.attrFixedString("/layers/dense/vars/0", "dtype", "bfloat16");
    m_expected["/layers/dense/vars/0"] = bfExpected;

    // A string dataset: not numeric, left out.
    const char* names[] = {"a", "b"};
    hid_t str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, H5T_VARIABLE);
    w.dataset("/names", str, str, {2}, names);
    H5Tclose(str);
}

void tst_TensorStats::matchesReference_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("dtype");
    QTest::newRow("float32 with NaN/Inf") << "/f32"
                                          << "float32";
    QTest::newRow("chunked gzip") << "/gzip"
                                  << "float32";
    QTest::newRow("several blocks") << "/large"
                                    << "float32";
    QTest::newRow("float64 big-endian") << "/f64"
                                        << "float64";
    QTest::newRow("int32") << "/i32"
                           << "int32";
    QTest::newRow("float16") << "/f16"
                             << "float16";
    QTest::newRow("bfloat16 (Keras 3)") << "/layers/dense/vars/0"
                                        << "bfloat16";
}

void tst_TensorStats::matchesReference()
{
    QFETCH(QString, path);
    QFETCH(QString, dtype);
    const auto all = TensorStats::ofFile(m_file);
    QVERIFY2(all.ok(), all.ok() ? "" : all.error().message.c_str());
    QCOMPARE(all->size(), std::size_t(7)); // the string dataset is left out
    const TensorStats::Entry* entry = nullptr;
    for (const auto& e : *all) {
        if (e.path == path.toStdString())
            entry = &e;
    }
    QVERIFY(entry);
    QCOMPARE(QString::fromStdString(entry->info.dtype.name), dtype);
    const Expected want = expect(m_expected[path.toStdString()]);
    const ValueStats& s = entry->stats;
    QCOMPARE(s.count, want.count);
    QCOMPARE(s.nan, want.nan);
    QCOMPARE(s.inf, want.inf);
    QCOMPARE(s.zeros, want.zeros);
    QCOMPARE(s.finite, want.count - want.nan - want.inf);
    QCOMPARE(static_cast<long double>(s.min), want.min);
    QCOMPARE(static_cast<long double>(s.max), want.max);
    QVERIFY2(close(s.mean, want.mean, 1e-11), qPrintable(QString::number(s.mean, 'g', 17)));
    QVERIFY2(close(s.stddev, want.stddev, 1e-9), qPrintable(QString::number(s.stddev, 'g', 17)));
    QVERIFY2(close(s.l2, want.l2), qPrintable(QString::number(s.l2, 'g', 17)));
}

void tst_TensorStats::allNonFinite()
{
    const std::string file = m_dir.filePath("nan.h5").toStdString();
    {
        H5Writer w(file);
        w.floats("/x", {2}, {std::numeric_limits<float>::quiet_NaN(), 1.0f / 0.0f});
    }
    const auto all = TensorStats::ofFile(file);
    QVERIFY(all.ok());
    const ValueStats& s = all->front().stats;
    QCOMPARE(s.nan, std::uint64_t(1));
    QCOMPARE(s.inf, std::uint64_t(1));
    QVERIFY(std::isnan(s.mean));
    QVERIFY(std::isnan(s.min));
    QVERIFY(std::isnan(s.l2));
}

void tst_TensorStats::oneDataset()
{
    const auto one = TensorStats::ofDataset(m_file, "i32");
    QVERIFY(one.ok());
    QCOMPARE(one->path, std::string("/i32"));
    QCOMPARE(one->stats.count, std::uint64_t(999));
    const auto missing = TensorStats::ofDataset(m_file, "/nope");
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().message, m_file + ": dataset /nope: no such dataset");
    const auto text = TensorStats::ofDataset(m_file, "/names");
    QVERIFY(!text.ok());
    QVERIFY(text.error().message.find("not numeric") != std::string::npos);
}

QTEST_GUILESS_MAIN(tst_TensorStats)
#include "tst_TensorStats.moc"
