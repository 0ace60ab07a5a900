#include "H5Writer.h"
#include "ModelFixtures.h"
#include "hdf5/DatasetReader.h"
#include "hdf5/H5Lock.h"
#include "hdf5/TensorDiff.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

using namespace ckpt;
using ckpt::test::H5Writer;
using ckpt::test::ModelFixtures;
using S = TensorDiffEntry::Status;

namespace {

struct Reference
{
    long double l2 = 0, normA = 0, normB = 0, dot = 0, maxAbs = 0;
};

Reference reference(const std::vector<float>& a, const std::vector<float>& b)
{
    Reference r;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!std::isfinite(a[i]) || !std::isfinite(b[i]))
            continue;
        const long double x = a[i], y = b[i];
        r.l2 += (x - y) * (x - y);
        r.normA += x * x;
        r.normB += y * y;
        r.dot += x * y;
        r.maxAbs = std::max(r.maxAbs, std::abs(x - y));
    }
    r.l2 = std::sqrt(r.l2);
    r.normA = std::sqrt(r.normA);
    r.normB = std::sqrt(r.normB);
    return r;
}

bool near(double got, long double want, double rel = 1e-12)
{
    return std::abs(static_cast<long double>(got) - want) <=
           rel * std::max<long double>(std::abs(want), 1e-300L);
}

const TensorDiffEntry* find(const ModelDiff& d, const std::string& key)
{
    for (const auto& t : d.tensors) {
        if (t.key == key)
            return &t;
    }
    return nullptr;
}

} // namespace

class tst_TensorDiff : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void statuses_data();
    void statuses();
    void changedLayerValues();
    void nanAppearing();
    void layersRankedByRelativeChange();
    void blockSizeDoesNotChangeResults();
    void modelAgainstWeightsOnly();
    void optimizerCanBeLeftOut();
    void keras3Paths();
    void zeroBase();
    void progressAndCancel();
    void storagePaths_data();
    void storagePaths();
    void manySmallTensors();
    void matchKeyAndLayer_data();
    void matchKeyAndLayer();

private:
    QTemporaryDir m_dir;
    std::string m_a, m_b;
    std::vector<float> m_kernelA, m_kernelB, m_bigA, m_bigB;
};

void tst_TensorDiff::initTestCase()
{
    m_a = m_dir.filePath("a.h5").toStdString();
    m_b = m_dir.filePath("b.h5").toStdString();
    m_kernelA = ModelFixtures::values(300 * 20, 1);
    m_kernelB = m_kernelA;
    for (std::size_t i = 0; i < m_kernelB.size(); i += 3)
        m_kernelB[i] += 0.01f * static_cast<float>(i % 7);
    m_bigA = ModelFixtures::values(100000, 5);
    m_bigB = ModelFixtures::values(100000, 6);
    const std::vector<float> same = ModelFixtures::values(64, 2);
    std::vector<float> nanA = ModelFixtures::values(10, 3);
    std::vector<float> nanB = nanA;
    nanB[4] = std::numeric_limits<float>::quiet_NaN();
    nanB[6] += 1.0f;
    std::vector<double> asDouble(same.begin(), same.end());

    for (int side = 0; side < 2; ++side) {
        H5Writer w(side == 0 ? m_a : m_b);
        const std::string root = "/model_weights";
        w.attrStrings(root, "layer_names", {"changed", "same", "shape", "nan", "big"});
        w.floats(root + "/changed/changed/kernel:0", {300, 20}, side == 0 ? m_kernelA : m_kernelB);
        w.floats(root + "/changed/changed/bias:0", {64}, same);
        w.floats(root + "/same/same/kernel:0", {8, 8}, same);
        if (side == 0)
            w.floats(root + "/same/same/bias:0", {64}, same);
        else
            w.dataset(root + "/same/same/bias:0", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {64},
                      asDouble.data());
        w.floats(root + "/shape/shape/kernel:0",
                 side == 0 ? std::vector<hsize_t>{4, 16} : std::vector<hsize_t>{16, 4}, same);
        w.floats(root + "/nan/nan/kernel:0", {10}, side == 0 ? nanA : nanB);
        w.dataset(root + "/big/big/kernel:0", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {1000, 100},
                  side == 0 ? m_bigA.data() : m_bigB.data(), {128, 100}, 1);
        if (side == 1)
            w.floats(root + "/extra/extra/kernel:0", {3}, {1, 2, 3});
        w.floats("/optimizer_weights/Adam/changed/kernel/m:0", {2}, {0, float(side)});
    }
}

void tst_TensorDiff::statuses_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("status");
    QTest::newRow("changed kernel") << "changed/changed/kernel:0"
                                    << "changed";
    QTest::newRow("identical bias") << "changed/changed/bias:0"
                                    << "same";
    QTest::newRow("identical layer") << "same/same/kernel:0"
                                     << "same";
    QTest::newRow("float32 vs float64") << "same/same/bias:0"
                                        << "dtype_mismatch";
    QTest::newRow("shape mismatch") << "shape/shape/kernel:0"
                                    << "shape_mismatch";
    QTest::newRow("only in B") << "extra/extra/kernel:0"
                               << "only_b";
    QTest::newRow("NaN appears") << "nan/nan/kernel:0"
                                 << "changed";
    QTest::newRow("chunked gzip") << "big/big/kernel:0"
                                  << "changed";
    QTest::newRow("optimizer") << "optimizer_weights/Adam/changed/kernel/m:0"
                               << "changed";
}

void tst_TensorDiff::statuses()
{
    QFETCH(QString, key);
    QFETCH(QString, status);
    const auto d = TensorDiff::diff(m_a, m_b);
    QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
    QCOMPARE(d->tensors.size(), std::size_t(9));
    const TensorDiffEntry* t = find(*d, key.toStdString());
    QVERIFY(t);
    QCOMPARE(QString::fromStdString(TensorDiff::statusName(t->status)), status);
    if (t->status == S::DtypeMismatch) {
        QVERIFY(t->compared);
        QCOMPARE(t->l2Diff, 0.0);
        QCOMPARE(t->cosine, 1.0);
    }
    if (t->status == S::ShapeMismatch || t->status == S::OnlyB) {
        QVERIFY(!t->compared);
        QVERIFY(std::isnan(t->l2Diff));
    }
    if (t->status == S::OnlyB)
        QVERIFY(t->pathA.empty());
}

void tst_TensorDiff::changedLayerValues()
{
    const auto d = TensorDiff::diff(m_a, m_b);
    QVERIFY(d.ok());
    const TensorDiffEntry* t = find(*d, "changed/changed/kernel:0");
    const Reference r = reference(m_kernelA, m_kernelB);
    QVERIFY(near(t->l2Diff, r.l2));
    QVERIFY(near(t->normA, r.normA));
    QVERIFY(near(t->relChange, r.l2 / r.normA));
    QVERIFY(near(t->maxAbsDiff, r.maxAbs));
    QVERIFY(near(t->cosine, r.dot / (r.normA * r.normB), 1e-14));
    std::uint64_t changed = 0;
    for (std::size_t i = 0; i < m_kernelA.size(); ++i)
        changed += m_kernelA[i] != m_kernelB[i];
    QCOMPARE(t->changedElements, changed);
    QCOMPARE(t->pathA, std::string("/model_weights/changed/changed/kernel:0"));
    QCOMPARE(t->layer, std::string("changed"));

    const TensorDiffEntry* big = find(*d, "big/big/kernel:0");
    const Reference rb = reference(m_bigA, m_bigB);
    QVERIFY(near(big->l2Diff, rb.l2));
    QVERIFY(near(big->cosine, rb.dot / (rb.normA * rb.normB), 1e-9));
    QCOMPARE(big->elements, std::uint64_t(100000));
}

void tst_TensorDiff::nanAppearing()
{
    const auto d = TensorDiff::diff(m_a, m_b);
    QVERIFY(d.ok());
    const TensorDiffEntry* t = find(*d, "nan/nan/kernel:0");
    QCOMPARE(t->nanA, std::uint64_t(0));
    QCOMPARE(t->nanB, std::uint64_t(1));
    QVERIFY(t->nonFiniteAppeared);
    QCOMPARE(t->changedElements, std::uint64_t(2));
    // The NaN pair is left out; the other change is exactly 1 (float rounding aside).
    QVERIFY(std::isfinite(t->l2Diff));
    QVERIFY(std::abs(t->l2Diff - 1.0) < 1e-6);
    QVERIFY(std::abs(t->maxAbsDiff - 1.0) < 1e-6);
    // Reversed, NaN disappears: no flag.
    const auto back = TensorDiff::diff(m_b, m_a);
    QVERIFY(!find(*back, "nan/nan/kernel:0")->nonFiniteAppeared);
}

void tst_TensorDiff::layersRankedByRelativeChange()
{
    const auto d = TensorDiff::diff(m_a, m_b);
    QVERIFY(d.ok());
    std::vector<std::string> names;
    for (const LayerDiff& l : d->layers)
        names.push_back(l.name);
    // big: independent random tensors (rel ~1.4); nan: 1 of ~1.8; optimizer: 0->1 = inf.
    QCOMPARE(names.front(), std::string("optimizer_weights"));
    QVERIFY(std::isinf(d->layers.front().relChange));
    QCOMPARE(names[1], std::string("big"));
    for (std::size_t i = 1; i + 1 < d->layers.size(); ++i) {
        if (!std::isnan(d->layers[i + 1].relChange))
            QVERIFY(d->layers[i].relChange >= d->layers[i + 1].relChange);
    }
    // The "changed" layer concatenates kernel and the identical bias.
    const LayerDiff* changed = nullptr;
    for (const LayerDiff& l : d->layers) {
        if (l.name == "changed")
            changed = &l;
    }
    QVERIFY(changed);
    QCOMPARE(changed->tensors, std::size_t(2));
    QCOMPARE(changed->changed, std::size_t(1));
    QCOMPARE(changed->same, std::size_t(1));
    std::vector<float> catA = m_kernelA, catB = m_kernelB;
    const std::vector<float> bias = ModelFixtures::values(64, 2);
    catA.insert(catA.end(), bias.begin(), bias.end());
    catB.insert(catB.end(), bias.begin(), bias.end());
    const Reference r = reference(catA, catB);
    QVERIFY(near(changed->relChange, r.l2 / r.normA));
    QVERIFY(near(changed->cosine, r.dot / (r.normA * r.normB), 1e-14));
    const LayerDiff* extra = nullptr;
    for (const LayerDiff& l : d->layers) {
        if (l.name == "extra")
            extra = &l;
    }
    QVERIFY(extra && extra->onlyB == 1 && std::isnan(extra->relChange));
    // Nothing compared: last, by name.
    QCOMPARE(d->layers[d->layers.size() - 2].name, std::string("extra"));
    QCOMPARE(d->layers.back().name, std::string("shape"));
}

void tst_TensorDiff::blockSizeDoesNotChangeResults()
{
    TensorDiff::Options tiny;
    tiny.blockBytes = 256; // many blocks per tensor and many buffer hand-overs
    const auto small = TensorDiff::diff(m_a, m_b, tiny);
    const auto normal = TensorDiff::diff(m_a, m_b);
    QVERIFY(small.ok() && normal.ok());
    QCOMPARE(small->tensors.size(), normal->tensors.size());
    for (std::size_t i = 0; i < small->tensors.size(); ++i) {
        const auto& x = small->tensors[i];
        const auto& y = normal->tensors[i];
        QCOMPARE(x.status, y.status);
        QCOMPARE(x.changedElements, y.changedElements);
        if (x.compared) {
            QVERIFY(near(x.l2Diff, y.l2Diff, 1e-13) || x.l2Diff == y.l2Diff);
            QCOMPARE(x.maxAbsDiff, y.maxAbsDiff);
        }
    }
}

void tst_TensorDiff::modelAgainstWeightsOnly()
{
    const std::string model = m_dir.filePath("model.h5").toStdString();
    const std::string weights = m_dir.filePath("weights.h5").toStdString();
    ModelFixtures::keras2Model(model, 9);
    ModelFixtures::keras2Weights(weights, 9);
    TensorDiff::Options noOpt;
    noOpt.includeOptimizer = false;
    const auto d = TensorDiff::diff(model, weights, noOpt);
    QVERIFY(d.ok());
    QCOMPARE(d->tensors.size(), std::size_t(4));
    for (const auto& t : d->tensors)
        QCOMPARE(t.status, S::Same);
    QCOMPARE(d->tensors[0].pathB.front(), '/');
    QVERIFY(d->tensors[0].pathA.starts_with("/model_weights/"));
}

void tst_TensorDiff::optimizerCanBeLeftOut()
{
    TensorDiff::Options noOpt;
    noOpt.includeOptimizer = false;
    const auto d = TensorDiff::diff(m_a, m_b, noOpt);
    QVERIFY(d.ok());
    QCOMPARE(d->tensors.size(), std::size_t(8));
    QVERIFY(!find(*d, "optimizer_weights/Adam/changed/kernel/m:0"));
}

void tst_TensorDiff::keras3Paths()
{
    const std::string a = m_dir.filePath("k3a.weights.h5").toStdString();
    const std::string b = m_dir.filePath("k3b.weights.h5").toStdString();
    ModelFixtures::keras3Weights(a, 1);
    ModelFixtures::keras3Weights(b, 1);
    const auto same = TensorDiff::diff(a, b);
    QVERIFY(same.ok());
    QCOMPARE(same->tensors.size(), std::size_t(6));
    for (const auto& t : same->tensors)
        QCOMPARE(t.status, S::Same);
    ModelFixtures::keras3Weights(b, 2);
    const auto changed = TensorDiff::diff(a, b);
    const TensorDiffEntry* bf = find(*changed, "layers/dense_1/vars/0");
    QVERIFY(bf);
    QCOMPARE(bf->dtypeA.name, std::string("bfloat16"));
    QCOMPARE(bf->status, S::Changed);
    QCOMPARE(bf->layer, std::string("dense_1"));
    QCOMPARE(find(*changed, "optimizer/vars/1")->layer, std::string("optimizer"));
}

void tst_TensorDiff::zeroBase()
{
    const std::string a = m_dir.filePath("z1.h5").toStdString();
    const std::string b = m_dir.filePath("z2.h5").toStdString();
    {
        H5Writer wa(a);
        wa.floats("/zero/both", {3}, {0, 0, 0});
        wa.floats("/zero/grows", {3}, {0, 0, 0});
        H5Writer wb(b);
        wb.floats("/zero/both", {3}, {0, 0, 0});
        wb.floats("/zero/grows", {3}, {0, 3, 4});
    }
    const auto d = TensorDiff::diff(a, b);
    QVERIFY(d.ok());
    const TensorDiffEntry* both = find(*d, "zero/both");
    QCOMPARE(both->relChange, 0.0);
    QCOMPARE(both->cosine, 1.0);
    const TensorDiffEntry* grows = find(*d, "zero/grows");
    QVERIFY(std::isinf(grows->relChange));
    QCOMPARE(grows->l2Diff, 5.0);
    QVERIFY(std::isnan(grows->cosine));
    QCOMPARE(grows->layer, std::string("zero"));
}

void tst_TensorDiff::progressAndCancel()
{
    std::vector<ProgressUpdate> updates;
    Progress progress([&](const ProgressUpdate& u) { updates.push_back(u); });
    TensorDiff::Options small;
    small.blockBytes = 4096;
    const auto d = TensorDiff::diff(m_a, m_b, small, progress);
    QVERIFY(d.ok());
    QVERIFY(updates.size() > 2);
    QCOMPARE(updates.back().unit, std::string("bytes"));
    QCOMPARE(updates.back().done, updates.back().total);
    QCOMPARE(updates.back().total, d->bytesRead);
    for (std::size_t i = 1; i < updates.size(); ++i)
        QVERIFY(updates[i].done >= updates[i - 1].done);

    std::atomic_bool cancel = false;
    Progress cancelling([&](const ProgressUpdate&) { cancel = true; }, &cancel);
    const auto c = TensorDiff::diff(m_a, m_b, small, cancelling);
    QVERIFY(!c.ok());
    QVERIFY(c.error().message.ends_with("cancelled"));
}

// Every way a tensor can be stored reads the same values: contiguous data stored
// as read (pread at H5Dget_offset) and everything else (H5Dread: chunked,
// compressed, big-endian, half floats needing a byte swap, a user block in front)
// give the reference sums; `raw` says which path DatasetReader takes.
void tst_TensorDiff::storagePaths_data()
{
    QTest::addColumn<int>("layout"); // 0 contiguous, 1 chunked, 2 chunked + gzip + shuffle
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("elements");
    QTest::addColumn<int>("userBlock");
    QTest::addColumn<bool>("raw");
    QTest::newRow("f32le contiguous") << 0 << "f32le" << 300 << 0 << true;
    QTest::newRow("f32le contiguous, pipeline") << 0 << "f32le" << 40000 << 0 << true;
    QTest::newRow("f32le contiguous, user block") << 0 << "f32le" << 300 << 512 << true;
    QTest::newRow("f32be contiguous") << 0 << "f32be" << 300 << 0 << false;
    QTest::newRow("f32be contiguous, pipeline") << 0 << "f32be" << 40000 << 0 << false;
    QTest::newRow("f64le contiguous") << 0 << "f64le" << 300 << 0 << true;
    QTest::newRow("f64be contiguous") << 0 << "f64be" << 300 << 0 << false;
    QTest::newRow("f16le contiguous") << 0 << "f16le" << 300 << 0 << true;
    QTest::newRow("f16be contiguous") << 0 << "f16be" << 300 << 0 << false;
    QTest::newRow("i32le contiguous") << 0 << "i32le" << 300 << 0 << true;
    QTest::newRow("i32be contiguous") << 0 << "i32be" << 300 << 0 << false;
    QTest::newRow("f32le chunked") << 1 << "f32le" << 300 << 0 << false;
    QTest::newRow("f32le chunked, pipeline") << 1 << "f32le" << 40000 << 0 << false;
    QTest::newRow("f32le gzip") << 2 << "f32le" << 300 << 0 << false;
    QTest::newRow("f32be gzip, pipeline") << 2 << "f32be" << 40000 << 0 << false;
    QTest::newRow("f16le gzip") << 2 << "f16le" << 300 << 0 << false;
}

void tst_TensorDiff::storagePaths()
{
    QFETCH(int, layout);
    QFETCH(QString, type);
    QFETCH(int, elements);
    QFETCH(int, userBlock);
    QFETCH(bool, raw);
    hid_t fileType = -1;
    {
        H5Lock lock;
        if (type == "f32le")
            fileType = H5Tcopy(H5T_IEEE_F32LE);
        else if (type == "f32be")
            fileType = H5Tcopy(H5T_IEEE_F32BE);
        else if (type == "f64le")
            fileType = H5Tcopy(H5T_IEEE_F64LE);
        else if (type == "f64be")
            fileType = H5Tcopy(H5T_IEEE_F64BE);
        else if (type == "i32le")
            fileType = H5Tcopy(H5T_STD_I32LE);
        else if (type == "i32be")
            fileType = H5Tcopy(H5T_STD_I32BE);
    }
    if (type.startsWith("f16")) {
        fileType = H5Writer::halfType();
        H5Lock lock;
        H5Tset_order(fileType, type == "f16be" ? H5T_ORDER_BE : H5T_ORDER_LE);
    }
    QVERIFY(fileType >= 0);
    // Values every type holds exactly (multiples of 1/4 below 8; integers for
    // int32), so the reference is exact whatever the storage.
    const bool integer = type.startsWith("i");
    std::vector<double> va(static_cast<std::size_t>(elements));
    std::vector<double> vb(va.size());
    for (std::size_t i = 0; i < va.size(); ++i) {
        va[i] = (static_cast<double>(i % 29) - 14.0) * (integer ? 1.0 : 0.25);
        vb[i] = i % 3 == 0 ? va[i] + (integer ? 2.0 : 0.5) : va[i];
    }
    const std::string a = m_dir.filePath("path-a.h5").toStdString();
    const std::string b = m_dir.filePath("path-b.h5").toStdString();
    const auto n = static_cast<hsize_t>(elements);
    const std::vector<hsize_t> chunk =
        layout == 0 ? std::vector<hsize_t>{} : std::vector<hsize_t>{std::min<hsize_t>(n, 1000)};
    for (int side = 0; side < 2; ++side) {
        H5Writer w(side == 0 ? a : b, static_cast<hsize_t>(userBlock));
        w.dataset("/layer/layer/kernel:0", fileType, H5T_NATIVE_DOUBLE, {n},
                  side == 0 ? va.data() : vb.data(), chunk, layout == 2 ? 4 : -1, layout == 2);
    }
    {
        H5Lock lock;
        H5Tclose(fileType);
    }

    auto file = H5File::open(a);
    QVERIFY(file.ok());
    auto links = file->datasetLinks();
    QVERIFY(links.ok());
    QCOMPARE(links->size(), std::size_t(1));
    QCOMPARE(links->front().path, std::string("/layer/layer/kernel:0"));
    auto handle = file->openDataset(links->front());
    QVERIFY(handle.ok());
    auto info = file->datasetInfo(handle->get(), links->front().path, true);
    QVERIFY(info.ok());
    auto reader = DatasetReader::open(*file, links->front().path, *info, &handle.value());
    QVERIFY(reader.ok());
    QCOMPARE(reader->readsRaw(), raw);

    TensorDiff::Options options;
    options.blockBytes = 4096; // the pipeline rows read in many blocks
    for (const auto& d : {TensorDiff::diff(a, b), TensorDiff::diff(a, b, options)}) {
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        QCOMPARE(d->tensors.size(), std::size_t(1));
        const TensorDiffEntry& e = d->tensors.front();
        QCOMPARE(e.status, S::Changed);
        QCOMPARE(e.elements, static_cast<std::uint64_t>(elements));
        long double l2 = 0, na = 0, nb = 0, dot = 0;
        std::uint64_t changed = 0;
        for (std::size_t i = 0; i < va.size(); ++i) {
            l2 += (va[i] - vb[i]) * (va[i] - vb[i]);
            na += va[i] * va[i];
            nb += vb[i] * vb[i];
            dot += va[i] * vb[i];
            changed += va[i] != vb[i] ? 1 : 0;
        }
        QCOMPARE(e.changedElements, changed);
        QVERIFY(near(e.l2Diff, std::sqrt(l2)));
        QVERIFY(near(e.normA, std::sqrt(na)));
        QVERIFY(near(e.normB, std::sqrt(nb)));
        QVERIFY(near(e.dot, dot));
        QCOMPARE(e.maxAbsDiff, integer ? 2.0 : 0.5);
    }
}

// Thousands of small tensors, the case where per-tensor cost dominates: each is
// compared (not just listed), matched across a full model and a weights-only
// file, and the unmatched ones are reported on their side.
void tst_TensorDiff::manySmallTensors()
{
    const std::string a = m_dir.filePath("many-a.h5").toStdString();
    const std::string b = m_dir.filePath("many-b.h5").toStdString();
    constexpr int kTensors = 600;
    {
        H5Writer wa(a);
        H5Writer wb(b);
        for (int t = 0; t < kTensors; ++t) {
            const std::string name =
                "layer_" + std::to_string(t) + "/layer_" + std::to_string(t) + "/kernel:0";
            std::vector<float> v = ModelFixtures::values(16, static_cast<unsigned>(t));
            wa.floats("/model_weights/" + name, {4, 4}, v);
            if (t % 2 == 0)
                v[static_cast<std::size_t>(t) % 16] += 1.0f;
            if (t != 7)
                wb.floats("/" + name, {4, 4}, v);
        }
        wb.floats("/only_b/only_b/bias:0", {2}, {1, 2});
    }
    const auto d = TensorDiff::diff(a, b);
    QVERIFY(d.ok());
    QCOMPARE(d->tensors.size(), std::size_t(kTensors + 1));
    std::size_t same = 0, changed = 0, onlyA = 0, onlyB = 0;
    for (const auto& t : d->tensors) {
        same += t.status == S::Same;
        changed += t.status == S::Changed;
        onlyA += t.status == S::OnlyA;
        onlyB += t.status == S::OnlyB;
        if (t.status == S::Changed)
            QVERIFY(std::abs(t.maxAbsDiff - 1.0) < 1e-6);
    }
    QCOMPARE(onlyA, std::size_t(1));
    QCOMPARE(onlyB, std::size_t(1));
    QCOMPARE(changed, std::size_t(kTensors / 2));
    QCOMPARE(same, std::size_t(kTensors / 2 - 1));
    for (std::size_t i = 1; i < d->tensors.size(); ++i)
        QVERIFY(d->tensors[i - 1].key < d->tensors[i].key);
    const TensorDiffEntry* gone = find(*d, "layer_7/layer_7/kernel:0");
    QVERIFY(gone && gone->status == S::OnlyA && gone->shapeA == std::vector<std::uint64_t>({4, 4}));
    QCOMPARE(d->bytesRead, std::uint64_t(kTensors - 1) * 2 * 16 * 4);
}

void tst_TensorDiff::matchKeyAndLayer_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("layer");
    QTest::newRow("keras2 model") << "/model_weights/dense/dense/kernel:0"
                                  << "dense/dense/kernel:0"
                                  << "dense";
    QTest::newRow("keras2 weights") << "/conv/conv/bias:0"
                                    << "conv/conv/bias:0"
                                    << "conv";
    QTest::newRow("keras3") << "/layers/dense_1/vars/0"
                            << "layers/dense_1/vars/0"
                            << "dense_1";
    QTest::newRow("keras3 nested") << "/layers/block/layers/conv/vars/1"
                                   << "layers/block/layers/conv/vars/1"
                                   << "block/layers/conv";
    QTest::newRow("keras3 optimizer") << "/optimizer/vars/3"
                                      << "optimizer/vars/3"
                                      << "optimizer";
    QTest::newRow("keras2 optimizer") << "/optimizer_weights/Adam/iter:0"
                                      << "optimizer_weights/Adam/iter:0"
                                      << "optimizer_weights";
    QTest::newRow("generic") << "/a/b/c"
                             << "a/b/c"
                             << "a/b";
    QTest::newRow("root dataset") << "/x"
                                  << "x"
                                  << "/";
}

void tst_TensorDiff::matchKeyAndLayer()
{
    QFETCH(QString, path);
    QFETCH(QString, key);
    QFETCH(QString, layer);
    QCOMPARE(QString::fromStdString(TensorDiff::matchKey(path.toStdString())), key);
    QCOMPARE(QString::fromStdString(TensorDiff::layerOf(key.toStdString())), layer);
}

QTEST_GUILESS_MAIN(tst_TensorDiff)
#include "tst_TensorDiff.moc"
