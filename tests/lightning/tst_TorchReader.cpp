#include "tensor/TensorSource.h"
#include "tensor/TensorSourceDiff.h"
#include "tensor/TensorSourceStats.h"
#include "torch/TorchPickle.h"
#include "torch/TorchZipSource.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <TorchZipWriter.h>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

using namespace ckpt;
using test::TorchZipWriter;
namespace fs = std::filesystem;
using V = TorchZipWriter::Value;

namespace {

const TensorInfo* find(const TensorSource& src, const std::string& name)
{
    for (const auto& t : src.tensors())
        if (t.name == name)
            return &t;
    return nullptr;
}

std::size_t indexOf(const TensorSource& src, const std::string& name)
{
    for (std::size_t i = 0; i < src.tensors().size(); ++i)
        if (src.tensors()[i].name == name)
            return i;
    return src.tensors().size();
}

template <typename T> std::vector<T> readAll(const TensorSource& src, const std::string& name)
{
    const std::size_t i = indexOf(src, name);
    if (i == src.tensors().size())
        return {};
    std::vector<T> out(src.tensors()[i].elements);
    if (!src.read(i, 0, out.size(), out.data()))
        return {};
    return out;
}

std::string readFile(const fs::path& p)
{
    std::string out(fs::file_size(p), '\0');
    std::ifstream(p, std::ios::binary).read(out.data(), static_cast<std::streamsize>(out.size()));
    return out;
}

void writeFile(const fs::path& p, const std::string& data)
{
    std::ofstream(p, std::ios::binary | std::ios::trunc) << data;
}

} // namespace

class tst_TorchReader : public QObject
{
    Q_OBJECT

private slots:
    void listsLightningCheckpoint()
    {
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "epoch=2-step=30.ckpt";
        QVERIFY(TorchZipWriter::write(file, TorchZipWriter::lightningCheckpoint(2, 30)));
        QVERIFY(TensorSources::recognises(file.string()));
        auto src = TensorSources::open(file.string());
        QVERIFY2(src.ok(), src.ok() ? "" : src.error().message.c_str());
        const TensorSource& s = **src;
        QCOMPARE(s.format(), std::string_view("torch"));
        QCOMPARE(s.tensors().size(), std::size_t(7));

        const TensorInfo* w = find(s, "state_dict/layer1.weight");
        QVERIFY(w);
        QCOMPARE(w->dtype.kind, DTypeKind::Float32);
        QCOMPARE(w->shape, (std::vector<std::uint64_t>{3, 4}));
        QCOMPARE(w->elements, std::uint64_t(12));
        QCOMPARE(w->bytes, std::uint64_t(48));
        QVERIFY(!w->optimizerState);
        QCOMPARE(find(s, "state_dict/norm.scale")->dtype.kind, DTypeKind::Float16);
        const TensorInfo* counter = find(s, "state_dict/norm.num_batches_tracked");
        QVERIFY(counter);
        QCOMPARE(counter->dtype.kind, DTypeKind::Int64);
        QVERIFY(counter->shape.empty());
        QCOMPARE(counter->elements, std::uint64_t(1));
        const TensorInfo* avg = find(s, "optimizer_states/0/state/0/exp_avg");
        QVERIFY(avg);
        QVERIFY(avg->optimizerState);
        QVERIFY(find(s, "optimizer_states/0/state/0/step"));

        auto attrs = s.attributes();
        auto attr = [&](const std::string& k) {
            for (const auto& [key, value] : attrs)
                if (key == k)
                    return value;
            return std::string("<none>");
        };
        QCOMPARE(attr("archive"), std::string("archive"));
        QCOMPARE(attr("byteorder"), std::string("little"));
        QCOMPARE(attr("version"), std::string("3"));
        QCOMPARE(attr("epoch"), std::string("2"));
        QCOMPARE(attr("global_step"), std::string("30"));
        QVERIFY(s.problems().empty());
    }

    void readsValuesBackExactly()
    {
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "m.ckpt";
        QVERIFY(TorchZipWriter::write(file, TorchZipWriter::lightningCheckpoint(1, 20)));
        auto src = TensorSources::open(file.string());
        QVERIFY(src.ok());
        const auto w = readAll<float>(**src, "state_dict/layer1.weight");
        QCOMPARE(w.size(), std::size_t(12));
        for (int i = 0; i < 12; ++i)
            QCOMPARE(w[static_cast<std::size_t>(i)], 0.25f * static_cast<float>(i) - 1.0f);
        const auto half = readAll<std::uint16_t>(**src, "state_dict/norm.scale");
        QCOMPARE(half, (std::vector<std::uint16_t>{0x3c00, 0x4000, 0xb800, 0x3400}));
        QCOMPARE(readAll<std::int64_t>(**src, "state_dict/norm.num_batches_tracked"),
                 (std::vector<std::int64_t>{20}));
        // A block from the middle: elements 5..7.
        float part[3] = {};
        QVERIFY((*src)->read(indexOf(**src, "state_dict/layer1.weight"), 5, 3, part).ok());
        QCOMPARE(part[0], 0.25f);
        QCOMPARE(part[2], 0.75f);
        // Past the end is an error, not a read.
        QVERIFY(!(*src)->read(indexOf(**src, "state_dict/layer1.weight"), 11, 2, part).ok());
    }

    void storageOffsetAndSharedStorage()
    {
        // Two views of one storage: the second starts at element 4.
        TorchZipWriter::Tensor whole = TorchZipWriter::floats({1, 2, 3, 4, 5, 6, 7, 8}, {4});
        whole.key = "7";
        TorchZipWriter::Tensor tail = whole;
        tail.storageOffset = 4;
        const V top =
            TorchZipWriter::dict({{TorchZipWriter::str("head"), TorchZipWriter::tensor(whole)},
                                  {TorchZipWriter::str("tail"), TorchZipWriter::tensor(tail)}},
                                 true);
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "views.pt";
        QVERIFY(TorchZipWriter::write(file, top));
        auto src = TensorSources::open(file.string());
        QVERIFY(src.ok());
        QCOMPARE(readAll<float>(**src, "head"), (std::vector<float>{1, 2, 3, 4}));
        QCOMPARE(readAll<float>(**src, "tail"), (std::vector<float>{5, 6, 7, 8}));
        QCOMPARE(find(**src, "tail")->note, std::string("storage 7 @ 4"));
    }

    void stridedViewReadElementWise()
    {
        // x = arange(6).reshape(2, 3).t(): shape (3, 2), strides (1, 3).
        auto t = TorchZipWriter::floats({0, 1, 2, 3, 4, 5}, {3, 2});
        t.stride = {1, 3};
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "t.pt";
        QVERIFY(TorchZipWriter::write(
            file, TorchZipWriter::dict({{TorchZipWriter::str("t"), TorchZipWriter::tensor(t)}})));
        auto src = TensorSources::open(file.string());
        QVERIFY(src.ok());
        QVERIFY((*src)->problems().empty());
        QCOMPARE(readAll<float>(**src, "t"), (std::vector<float>{0, 3, 1, 4, 2, 5}));
        QVERIFY(find(**src, "t")->note.find("strided") != std::string::npos);
    }

    void statsOfEpoch()
    {
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "m.ckpt";
        QVERIFY(TorchZipWriter::write(file, TorchZipWriter::lightningCheckpoint(0, 10)));
        auto src = TensorSources::open(file.string());
        QVERIFY(src.ok());
        auto stats = TensorSourceStats::ofTensor(**src, "state_dict/layer1.bias");
        QVERIFY(stats.ok());
        QCOMPARE(stats->stats.count, std::uint64_t(3));
        QCOMPARE(stats->stats.min, 0.0);
        QCOMPARE(stats->stats.max, 1.0);
        QCOMPARE(stats->stats.mean, 0.5);
        auto half = TensorSourceStats::ofTensor(**src, "state_dict/norm.scale");
        QVERIFY(half.ok());
        QCOMPARE(half->stats.min, -0.5);
        QCOMPARE(half->stats.max, 2.0);
        // Blocks of 8 bytes: every tensor is read in several pieces.
        auto all = TensorSourceStats::of(**src, Progress::none(), 8);
        QVERIFY(all.ok());
        QCOMPARE(all->size(), std::size_t(7));
    }

    void diffOfTwoEpochs()
    {
        QTemporaryDir tmp;
        const fs::path a = fs::path(tmp.path().toStdString()) / "epoch=0-step=10.ckpt";
        const fs::path b = fs::path(tmp.path().toStdString()) / "epoch=1-step=20.ckpt";
        QVERIFY(TorchZipWriter::write(a, TorchZipWriter::lightningCheckpoint(0, 10)));
        QVERIFY(TorchZipWriter::write(b, TorchZipWriter::lightningCheckpoint(1, 20, 0.5f)));
        auto sa = TensorSources::open(a.string());
        auto sb = TensorSources::open(b.string());
        QVERIFY(sa.ok() && sb.ok());
        TensorDiff::Options options;
        options.includeOptimizer = false;
        auto diff = TensorSourceDiff::diff(**sa, **sb, options);
        QVERIFY2(diff.ok(), diff.ok() ? "" : diff.error().message.c_str());
        const TensorDiffEntry* w = nullptr;
        const TensorDiffEntry* scale = nullptr;
        for (const auto& e : diff->tensors) {
            if (e.key.find("layer1.weight") != std::string::npos)
                w = &e;
            if (e.key.find("norm.scale") != std::string::npos)
                scale = &e;
            QVERIFY2(e.key.find("optimizer_states") == std::string::npos, e.key.c_str());
        }
        QVERIFY(w && scale);
        QCOMPARE(w->status, TensorDiffEntry::Status::Changed);
        QCOMPARE(w->changedElements, std::uint64_t(12));
        QCOMPARE(w->maxAbsDiff, 0.5);
        QCOMPARE(w->l2Diff, std::sqrt(12 * 0.25));
        QCOMPARE(scale->status, TensorDiffEntry::Status::Same);
    }

    void hostile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expect"); // in the error, or in problems() when it opens
        QTest::newRow("truncated (no central directory)") << "truncated"
                                                          << "truncated";
        QTest::newRow("unknown opcode") << "opcode"
                                        << "unknown pickle opcode 0xff";
        QTest::newRow("storage shorter than the tensor") << "short"
                                                         << "fewer than the";
        QTest::newRow("storage numel smaller than the shape") << "numel"
                                                              << "of a storage of 2";
        QTest::newRow("strides past the storage") << "strides"
                                                  << "up to 8 of a storage of 6";
        QTest::newRow("unknown global holding a storage") << "global"
                                                          << "not a plain tensor";
        QTest::newRow("GET of a memo never PUT") << "memo"
                                                 << "never PUT";
        QTest::newRow("string past the end") << "string"
                                             << "runs past the end";
        QTest::newRow("no data.pkl") << "nopkl"
                                     << "data.pkl";
        QTest::newRow("big-endian") << "bigendian"
                                    << "little-endian";
        QTest::newRow("empty file") << "empty"
                                    << "";
    }
    void hostile()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expect);
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "bad.ckpt";
        const V good = TorchZipWriter::lightningCheckpoint(0, 10);
        std::vector<std::pair<std::string, std::string>> storages;
        const std::string pkl = TorchZipWriter::pickle(good, &storages);
        bool mustOpen = false;
        if (kind == "truncated") {
            QVERIFY(TorchZipWriter::write(file, good));
            const std::string all = readFile(file);
            writeFile(file, all.substr(0, all.size() * 2 / 3));
        } else if (kind == "opcode") {
            std::string bad = pkl;
            bad.insert(2, "\xff");
            QVERIFY(TorchZipWriter::writeRaw(file, bad, storages));
        } else if (kind == "short") {
            storages[0].second.resize(8); // layer1.weight's storage: 8 of 48 bytes
            QVERIFY(TorchZipWriter::writeRaw(file, pkl, storages));
            mustOpen = true;
        } else if (kind == "numel") {
            auto t = TorchZipWriter::floats({1, 2, 3, 4}, {4});
            t.numelOverride = 2;
            QVERIFY(TorchZipWriter::write(
                file,
                TorchZipWriter::dict({{TorchZipWriter::str("w"), TorchZipWriter::tensor(t)}})));
            mustOpen = true;
        } else if (kind == "strides") {
            auto t = TorchZipWriter::floats({1, 2, 3, 4, 5, 6}, {2, 3});
            t.stride = {3, 2}; // reaches element 3 + 2 * 2 = 7 of 6: past the end
            QVERIFY(TorchZipWriter::write(
                file,
                TorchZipWriter::dict({{TorchZipWriter::str("w"), TorchZipWriter::tensor(t)}})));
            mustOpen = true;
        } else if (kind == "global") {
            std::string bad = pkl;
            const auto at = bad.find("_rebuild_tensor_v2");
            QVERIFY(at != std::string::npos);
            bad.replace(at, 18, "_rebuild_qtensor__");
            QVERIFY(TorchZipWriter::writeRaw(file, bad, storages));
            mustOpen = true;
        } else if (kind == "memo") {
            QVERIFY(TorchZipWriter::writeRaw(file, std::string("\x80\x02h\x09.", 5), {}));
        } else if (kind == "string") {
            QVERIFY(
                TorchZipWriter::writeRaw(file, std::string("\x80\x02X\xff\xff\xff\x7f", 7), {}));
        } else if (kind == "nopkl") {
            QVERIFY(TorchZipWriter::writeRaw(file, pkl, storages));
            std::string all = readFile(file);
            for (std::size_t at = all.find("data.pkl"); at != std::string::npos;
                 at = all.find("data.pkl", at + 1))
                all[at] = 'x';
            writeFile(file, all);
        } else if (kind == "bigendian") {
            QVERIFY(TorchZipWriter::writeRaw(file, pkl, storages));
            std::string all = readFile(file);
            for (std::size_t at = all.find("little"); at != std::string::npos;
                 at = all.find("little", at + 1))
                all.replace(at, 6, "bigbig");
            writeFile(file, all);
        } else if (kind == "empty") {
            writeFile(file, "");
        }
        auto src = TorchZipSource::open(file.string());
        if (mustOpen) {
            QVERIFY2(src.ok(), src.ok() ? "" : src.error().message.c_str());
            QString problems;
            for (const auto& p : (*src)->problems())
                problems += QString::fromStdString(p) + "\n";
            QVERIFY2(problems.contains(expect), qPrintable(problems));
            QVERIFY(problems.contains(QString::fromStdString(file.string())));
            // The refused tensor reads as an error; the others still read.
            bool refused = false;
            for (std::size_t i = 0; i < (*src)->tensors().size(); ++i) {
                std::vector<char> buf((*src)->tensors()[i].bytes + 8);
                if (!(*src)->read(i, 0, (*src)->tensors()[i].elements, buf.data()))
                    refused = true;
            }
            QVERIFY(refused || kind == "global");
            auto stats = TensorSourceStats::of(**src);
            Q_UNUSED(stats); // must not crash; an error is fine
            return;
        }
        QVERIFY(!src.ok());
        const QString message = QString::fromStdString(src.error().message);
        QVERIFY2(message.contains(expect), qPrintable(message));
        QVERIFY2(message.contains(QString::fromStdString(file.string())), qPrintable(message));
    }

    // Cross-check with real torch, run by hand (torch is not needed by the suite):
    // CKPT_WRITE_TORCH_FILE=<path>: write the writer's Lightning checkpoint there
    // for `torch.load`; CKPT_REAL_TORCH_FILE=<path>: list a torch.save'd file and
    // print its tensors with their sums.
    void realTorchCrossCheck()
    {
        const QByteArray out = qgetenv("CKPT_WRITE_TORCH_FILE");
        const QByteArray in = qgetenv("CKPT_REAL_TORCH_FILE");
        if (out.isEmpty() && in.isEmpty())
            QSKIP("set CKPT_WRITE_TORCH_FILE or CKPT_REAL_TORCH_FILE to cross-check with torch");
        if (!out.isEmpty())
            QVERIFY(TorchZipWriter::write(out.toStdString(),
                                          TorchZipWriter::lightningCheckpoint(3, 40, 0.5f)));
        if (in.isEmpty())
            return;
        auto src = TensorSources::open(in.toStdString());
        QVERIFY2(src.ok(), src.ok() ? "" : src.error().message.c_str());
        auto stats = TensorSourceStats::of(**src);
        QVERIFY2(stats.ok(), stats.ok() ? "" : stats.error().message.c_str());
        for (const auto& e : *stats)
            qInfo("%s %s n=%llu mean=%.9g", e.info.name.c_str(), e.info.dtype.name.c_str(),
                  static_cast<unsigned long long>(e.stats.count), e.stats.mean);
        for (const auto& p : (*src)->problems())
            qInfo("problem: %s", p.c_str());
    }

    // Thousands of damaged data.pkl programs (bytes flipped, cut, repeated): each
    // parses or fails with an error naming the file, never crashes or hangs.
    void mutatedPicklesNeverCrash()
    {
        const std::string good =
            TorchZipWriter::pickle(TorchZipWriter::lightningCheckpoint(1, 20), nullptr);
        QVERIFY(TorchPickle::parse(good, "x.ckpt").ok());
        std::mt19937 rng(20261123);
        int failed = 0;
        for (int round = 0; round < 4000; ++round) {
            std::string bad = good;
            const int edits = 1 + int(rng() % 4);
            for (int e = 0; e < edits; ++e) {
                const std::size_t at = rng() % bad.size();
                switch (rng() % 4) {
                case 0:
                    bad[at] = static_cast<char>(rng());
                    break;
                case 1:
                    bad.resize(at);
                    break;
                case 2:
                    bad.insert(at, bad.substr(rng() % bad.size(), 1 + rng() % 16));
                    break;
                default:
                    bad.erase(at, 1 + rng() % 8);
                    break;
                }
                if (bad.empty())
                    bad = "\x80";
            }
            auto parsed = TorchPickle::parse(bad, "x.ckpt");
            if (!parsed) {
                ++failed;
                QVERIFY(parsed.error().message.starts_with("x.ckpt: "));
            }
        }
        QVERIFY(failed > 100); // the mutations did reach the parser's checks
    }

    // Found by fuzz_torch_pickle: a list APPENDed into itself (a shared_ptr
    // cycle the parser leaked; the ASan suite fails on it) and lists that hold
    // one memoised value twice, nested 70 deep (2^64 paths: flattening never ended).
    void sharedAndSelfReferencingValues()
    {
        // PROTO 2, EMPTY_LIST, BINPUT 0, BINGET 0, APPEND, STOP
        const std::string cycle{'\x80', 2, ']', 'q', 0, 'h', 0, 'a', '.'};
        auto parsed = TorchPickle::parse(cycle, "cycle.ckpt");
        QVERIFY(parsed.ok());
        QVERIFY(parsed->tensors.empty());

        // Each level: BINPUT 0 (the list so far), POP, EMPTY_LIST, then BINGET 0 and
        // APPEND twice: [x, x].
        std::string nested{'\x80', 2, ']'};
        for (int level = 0; level < 70; ++level)
            nested += std::string{'q', 0, '0', ']', 'h', 0, 'a', 'h', 0, 'a'};
        nested += '.';
        QElapsedTimer timer;
        timer.start();
        parsed = TorchPickle::parse(nested, "nested.ckpt");
        QVERIFY(parsed.ok());
        QVERIFY(timer.elapsed() < 20000);
        bool noted = false;
        for (const auto& n : parsed->notes)
            noted = noted || n.find("shared or self-referencing") != std::string::npos;
        QVERIFY2(noted, "no note about the values left unread");
    }

    void notSniffedAsTorch()
    {
        QVERIFY(!TorchZipSource::sniff("\x89HDF\r\n\x1a\n", "a.h5"));
        QVERIFY(!TorchZipSource::sniff(std::string_view("PK\x03\x04", 4), "x.zip"));
    }
};

QTEST_GUILESS_MAIN(tst_TorchReader)
#include "tst_TorchReader.moc"
