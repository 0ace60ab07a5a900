#include "hdf5/ElementDecoder.h"
#include "mindspore/MindSporeCheckpoint.h"
#include "tensor/TensorSourceDiff.h"
#include "tensor/TensorSourceStats.h"

#include <QTemporaryDir>
#include <QTest>

#include <ProtobufFixture.h>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace ckpt;
using test::MsTensor;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

const TensorInfo* find(const TensorSource& s, const std::string& name)
{
    for (const auto& t : s.tensors())
        if (t.name == name)
            return &t;
    return nullptr;
}

std::size_t indexOf(const TensorSource& s, const std::string& name)
{
    for (std::size_t i = 0; i < s.tensors().size(); ++i)
        if (s.tensors()[i].name == name)
            return i;
    return s.tensors().size();
}

std::string attribute(const TensorSource& s, const std::string& key)
{
    for (const auto& [k, v] : s.attributes())
        if (k == key)
            return v;
    return {};
}

} // namespace

class tst_MindSporeReader : public QObject
{
    Q_OBJECT

private slots:
    void listsAndReadsBack_data()
    {
        QTest::addColumn<bool>("crc");
        QTest::newRow("no trailer") << false;
        QTest::newRow("crc trailer") << true;
    }
    void listsAndReadsBack()
    {
        QFETCH(bool, crc);
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("net-3_100.ckpt").toStdString();
        ProtobufFixture::write(
            path, ProtobufFixture::mindspore(ProtobufFixture::network(3, 100), crc), true);

        // Found by content through the registry, not by the extension.
        auto opened = TensorSources::open(path);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        const TensorSource& s = **opened;
        QCOMPARE(s.format(), std::string_view("mindspore"));
        QCOMPARE(s.tensors().size(), std::size_t(5));
        QVERIFY(s.problems().empty());

        const TensorInfo* w = find(s, "conv.weight");
        QVERIFY(w);
        QCOMPARE(w->dtype.kind, DTypeKind::Float32);
        QCOMPARE(w->shape, (std::vector<std::uint64_t>{2, 3}));
        QCOMPARE(w->elements, std::uint64_t(6));
        float values[6] = {};
        QVERIFY(s.read(indexOf(s, "conv.weight"), 0, 6, values).ok());
        QCOMPARE(values[0], 1.0f);
        QCOMPARE(values[5], 6.0f);

        const TensorInfo* b = find(s, "conv.bias");
        QVERIFY(b);
        QCOMPARE(b->dtype.kind, DTypeKind::Float16);
        std::uint16_t half[4] = {};
        QVERIFY(s.read(indexOf(s, "conv.bias"), 0, 4, half).ok());
        QCOMPARE(half[1], std::uint16_t(0x4000));

        // The split tensor is one tensor; a read across its part boundaries joins them.
        const TensorInfo* fc = find(s, "fc.weight");
        QVERIFY(fc);
        QCOMPARE(fc->note, std::string("split in 3 parts"));
        QCOMPARE(fc->elements, std::uint64_t(12));
        float mid[6] = {};
        QVERIFY(s.read(indexOf(s, "fc.weight"), 3, 6, mid).ok());
        for (int i = 0; i < 6; ++i)
            QCOMPARE(mid[i], 0.5f * float(i + 3) - 1.0f);
        QVERIFY(!s.read(indexOf(s, "fc.weight"), 10, 3, mid).ok());

        QCOMPARE(attribute(s, "epoch_num"), std::string("3"));
        QCOMPARE(attribute(s, "step_num"), std::string("100"));
        QCOMPARE(attribute(s, "crc_trailer") == "none", !crc);

        auto stats = TensorSourceStats::ofTensor(s, "conv.bias");
        QVERIFY(stats.ok());
        QCOMPARE(stats->stats.max, 2.0);
        QCOMPARE(stats->stats.min, -0.5);
        QCOMPARE(stats->stats.zeros, std::uint64_t(1));

        auto* ms = dynamic_cast<const MindSporeCheckpoint*>(&s);
        QVERIFY(ms);
        auto verdict = ms->verifyCrc();
        QVERIFY(verdict.ok());
        QCOMPARE(verdict->has_value(), crc);
        if (crc)
            QVERIFY(**verdict);
    }

    void crcMismatchIsDetected()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("net-1_1.ckpt").toStdString();
        std::string bytes = ProtobufFixture::mindspore(ProtobufFixture::network(1, 1), true);
        // Flip one bit of conv.weight's first float (a value, not the structure).
        const std::string one = ProtobufFixture::floats({1.0f});
        const auto at = bytes.find(one);
        QVERIFY(at != std::string::npos);
        bytes[at + 3] = static_cast<char>(bytes[at + 3] ^ 0x01);
        ProtobufFixture::write(path, bytes);
        auto opened = MindSporeCheckpoint::open(path);
        QVERIFY(opened.ok());
        auto verdict = dynamic_cast<const MindSporeCheckpoint&>(**opened).verifyCrc();
        QVERIFY(verdict.ok());
        QVERIFY(verdict->has_value());
        QVERIFY(!**verdict);
    }

    void diffOfTwoEpochs()
    {
        QTemporaryDir tmp;
        const std::string a = tmp.filePath("net-1_10.ckpt").toStdString();
        const std::string b = tmp.filePath("net-2_10.ckpt").toStdString();
        ProtobufFixture::write(a,
                               ProtobufFixture::mindspore(ProtobufFixture::network(1, 10), false));
        ProtobufFixture::write(
            b, ProtobufFixture::mindspore(ProtobufFixture::network(2, 10, 0.5f), true));
        auto sa = MindSporeCheckpoint::open(a);
        auto sb = MindSporeCheckpoint::open(b);
        QVERIFY(sa.ok() && sb.ok());
        auto diff = TensorSourceDiff::diff(**sa, **sb, TensorDiff::Options{});
        QVERIFY2(diff.ok(), diff.ok() ? "" : diff.error().message.c_str());
        int changed = 0;
        for (const auto& e : diff->tensors) {
            if (e.status != TensorDiffEntry::Status::Changed)
                continue;
            ++changed;
            if (e.key.find("conv.weight") != std::string::npos) {
                QCOMPARE(e.changedElements, std::uint64_t(2));
                QCOMPARE(e.maxAbsDiff, 0.5);
            }
        }
        // conv.weight and epoch_num differ; fc.weight (split) and conv.bias do not.
        QCOMPARE(changed, 2);
    }

    void hostileInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("opens"); // partially readable (with a problem) or refused
        const std::string good = ProtobufFixture::mindspore(ProtobufFixture::network(1, 1), false);
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("garbage") << QByteArray("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11)
                                 << false;
        QTest::newRow("truncated in first value")
            << QByteArray::fromStdString(good.substr(0, 20)) << false;
        QTest::newRow("truncated after two values")
            << QByteArray::fromStdString(good.substr(0, good.find("fc.weight") + 12)) << true;
        // Value of 1 TiB declared in a 9-byte file.
        QTest::newRow("huge length")
            << QByteArray("\x0a\x80\x80\x80\x80\x80\x20\x0a\x01", 9) << false;
        QTest::newRow("group wire type") << QByteArray("\x0b\x0c", 2) << false;
        QTest::newRow("bad trailer digits")
            << QByteArray::fromStdString(good + "crc_numABCDEFGHIJ") << true;
    }
    void hostileInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, opens);
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("bad-1_1.ckpt").toStdString();
        ProtobufFixture::write(path, bytes.toStdString());
        auto opened = MindSporeCheckpoint::open(path);
        QCOMPARE(opened.ok(), opens);
        if (!opened.ok()) {
            QVERIFY(opened.error().message.find(path) != std::string::npos);
            if (!bytes.isEmpty())
                QVERIFY2(opened.error().message.find("byte") != std::string::npos,
                         opened.error().message.c_str());
            return;
        }
        QVERIFY(!(*opened)->problems().empty());
        QVERIFY((*opened)->problems().front().find(path) != std::string::npos);
    }

    void refusesNonRegularFiles()
    {
        QTemporaryDir tmp;
        auto opened = MindSporeCheckpoint::open(tmp.path().toStdString());
        QVERIFY(!opened.ok());
    }

    // Random damage (fixed seed): every mutant opens or fails cleanly, and every
    // listed tensor reads or fails cleanly; no crash, no hang.
    void mutatedFilesNeverCrash()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("m-1_1.ckpt").toStdString();
        const std::string good = ProtobufFixture::mindspore(ProtobufFixture::network(1, 1), true);
        std::uint32_t seed = 12345;
        auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
        int opened = 0;
        for (int i = 0; i < 1500; ++i) {
            std::string bytes = good;
            for (int k = 0, n = 1 + int(next() % 4); k < n; ++k)
                bytes[next() % bytes.size()] = char(next() >> 24);
            if (i % 5 == 0)
                bytes.resize(next() % bytes.size());
            ProtobufFixture::write(path, bytes);
            auto s = TensorSources::open(path);
            if (!s)
                continue;
            ++opened;
            std::vector<char> buf;
            for (std::size_t t = 0; t < (*s)->tensors().size(); ++t) {
                const TensorInfo& info = (*s)->tensors()[t];
                if (!info.dtype.numeric() || info.elements > 4096)
                    continue;
                buf.resize(std::size_t(info.elements) * std::size_t(info.dtype.size) + 1);
                (void)(*s)->read(t, 0, info.elements, buf.data());
            }
        }
        QVERIFY(opened > 0);
    }

    void sniff_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<bool>("mindspore");
        const std::string good = ProtobufFixture::mindspore(ProtobufFixture::network(1, 1), false);
        QTest::newRow("checkpoint") << QByteArray::fromStdString(good) << true;
        QTest::newRow("zip") << QByteArray("PK\x03\x04rest", 8) << false;
        QTest::newRow("hdf5") << QByteArray("\x89HDF\r\n\x1a\n", 8) << false;
        QTest::newRow("text") << QByteArray("\x0a\x05hello", 7) << false;
    }
    void sniff()
    {
        QFETCH(QByteArray, head);
        QFETCH(bool, mindspore);
        QCOMPARE(MindSporeCheckpoint::sniff(head.toStdString(), "x.ckpt"), mindspore);
    }
};

QTEST_GUILESS_MAIN(tst_MindSporeReader)
#include "tst_MindSporeReader.moc"
