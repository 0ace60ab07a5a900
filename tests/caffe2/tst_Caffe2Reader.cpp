#include "caffe2/Caffe2MiniDb.h"
#include "tensor/TensorSourceDiff.h"
#include "tensor/TensorSourceStats.h"

#include <QTemporaryDir>
#include <QTest>

#include <ProtobufFixture.h>
#include <cstring>
#include <filesystem>

using namespace ckpt;
using test::C2Blob;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

std::vector<C2Blob> blobs(float shift)
{
    std::vector<float> big(10);
    for (std::size_t i = 0; i < big.size(); ++i)
        big[i] = float(i) * 0.25f;
    C2Blob a{"fc_w", {2, 2}, {1 + shift, 2, 3, 4 - shift}, {}, -1, -1, {}, 0, {}};
    C2Blob b{"fc_b", {2}, {0.5f, -0.5f}, {}, -1, -1, {}, 0, {}};
    C2Blob it{"iter", {1}, {}, {-7}, -1, -1, {}, 0, {}};
    // A blob saved in two chunks (segments), the second record first.
    C2Blob s2{"emb", {2, 5}, {big.begin() + 6, big.end()}, {}, 6, 10, {}, 0, {}};
    C2Blob s1{"emb", {2, 5}, {big.begin(), big.begin() + 6}, {}, 0, 6, {}, 0, {}};
    return {a, b, it, s2, s1};
}

std::size_t indexOf(const TensorSource& s, const std::string& name)
{
    for (std::size_t i = 0; i < s.tensors().size(); ++i)
        if (s.tensors()[i].name == name)
            return i;
    return s.tensors().size();
}

} // namespace

class tst_Caffe2Reader : public QObject
{
    Q_OBJECT

private slots:
    void listsAndReadsBack()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("trainer_0.1").toStdString();
        ProtobufFixture::write(path, ProtobufFixture::minidb(blobs(0)));
        auto opened = TensorSources::open(path);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        const TensorSource& s = **opened;
        QCOMPARE(s.format(), std::string_view("caffe2"));
        QCOMPARE(s.tensors().size(), std::size_t(4));
        QVERIFY2(s.problems().empty(), s.problems().empty() ? "" : s.problems()[0].c_str());

        const TensorInfo& w = s.tensors()[indexOf(s, "fc_w")];
        QCOMPARE(w.dtype.kind, DTypeKind::Float32);
        QCOMPARE(w.shape, (std::vector<std::uint64_t>{2, 2}));
        float wv[4] = {};
        QVERIFY(s.read(indexOf(s, "fc_w"), 0, 4, wv).ok());
        QCOMPARE(wv[0], 1.0f);
        QCOMPARE(wv[3], 4.0f);

        // int32_data is packed varints: a negative value round-trips.
        const TensorInfo& it = s.tensors()[indexOf(s, "iter")];
        QCOMPARE(it.dtype.kind, DTypeKind::Int32);
        std::int32_t iv = 0;
        QVERIFY(s.read(indexOf(s, "iter"), 0, 1, &iv).ok());
        QCOMPARE(iv, -7);

        // Segments joined in order, whatever the record order; a read spans both.
        const TensorInfo& e = s.tensors()[indexOf(s, "emb")];
        QCOMPARE(e.elements, std::uint64_t(10));
        QCOMPARE(e.note, std::string("joined from 2 segments"));
        float ev[6] = {};
        QVERIFY(s.read(indexOf(s, "emb"), 3, 6, ev).ok());
        for (int i = 0; i < 6; ++i)
            QCOMPARE(ev[i], float(i + 3) * 0.25f);
        QVERIFY(!s.read(indexOf(s, "emb"), 8, 3, ev).ok());

        auto stats = TensorSourceStats::ofTensor(s, "fc_b");
        QVERIFY(stats.ok());
        QCOMPARE(stats->stats.min, -0.5);
        QCOMPARE(stats->stats.max, 0.5);
    }

    // int32_data is read in blocks that continue where the last stopped, and
    // still right when a read goes back.
    void varintFieldsReadInBlocks()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("trainer_0.1").toStdString();
        std::vector<std::int32_t> ints(1000);
        for (std::size_t i = 0; i < ints.size(); ++i)
            ints[i] = std::int32_t(i * i) - 5000;
        ProtobufFixture::write(
            path, ProtobufFixture::minidb({C2Blob{"v", {1000}, {}, ints, -1, -1, {}, 0, {}}}));
        auto s = Caffe2MiniDb::open(path);
        QVERIFY(s.ok());
        std::vector<std::int32_t> got(1000);
        for (std::uint64_t at = 0; at < 1000; at += 7) {
            const std::uint64_t n = std::min<std::uint64_t>(7, 1000 - at);
            QVERIFY((*s)->read(0, at, n, got.data() + at).ok());
        }
        QCOMPARE(got, ints);
        std::int32_t back = 0;
        QVERIFY((*s)->read(0, 10, 1, &back).ok());
        QCOMPARE(back, ints[10]);
    }

    // Which field holds which type follows caffe2/core/blob_serialization.cc:
    // with caffe2_serialize_using_bytes_as_holder the narrow types are raw
    // little-endian bytes in byte_data; the FLOAT_BFLOAT16 option stores a float
    // tensor as bfloat16 in raw_data with data_format FMT_BFLOAT16; a format
    // this version does not know is named, not misread.
    void fieldsAsCaffe2WritesThem()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("trainer_0.2").toStdString();
        std::string u8 = {'\x01', '\xff', '\x10'};
        const std::uint16_t halfBits[2] = {0x3c00, 0xc000}; // 1.0, -2.0
        std::string f16(reinterpret_cast<const char*>(halfBits), 4);
        C2Blob bytesU8{"mask", {3}, {}, {}, -1, -1, u8, 6, {}};     // UINT8
        C2Blob bytesF16{"scale", {2}, {}, {}, -1, -1, f16, 12, {}}; // FLOAT16
        C2Blob bf16{"w_bf16", {3}, {}, {}, -1, -1, {}, 0, {0x3f80, 0xc040, 0x0000}};
        std::string odd = ProtobufFixture::minidb({bytesU8, bytesF16, bf16});
        ProtobufFixture::write(path, odd);
        auto opened = Caffe2MiniDb::open(path);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        const TensorSource& s = **opened;
        QVERIFY2(s.problems().empty(), s.problems().empty() ? "" : s.problems()[0].c_str());

        const std::size_t m = indexOf(s, "mask");
        QCOMPARE(s.tensors()[m].dtype.kind, DTypeKind::UInt8);
        QCOMPARE(s.tensors()[m].elements, std::uint64_t(3));
        unsigned char mv[3] = {};
        QVERIFY(s.read(m, 0, 3, mv).ok());
        QCOMPARE(int(mv[1]), 255);

        auto scale = TensorSourceStats::ofTensor(s, "scale");
        QVERIFY(scale.ok());
        QCOMPARE(scale->info.dtype.kind, DTypeKind::Float16);
        QCOMPARE(scale->stats.min, -2.0);
        QCOMPARE(scale->stats.max, 1.0);

        auto w = TensorSourceStats::ofTensor(s, "w_bf16");
        QVERIFY(w.ok());
        QCOMPARE(w->info.dtype.kind, DTypeKind::BFloat16);
        QCOMPARE(w->info.elements, std::uint64_t(3));
        QVERIFY(w->info.note.find("bfloat16") != std::string::npos);
        QCOMPARE(w->stats.min, -3.0);
        QCOMPARE(w->stats.max, 1.0);
        QCOMPARE(w->stats.zeros, std::uint64_t(1));
    }

    void unknownDataFormatIsNamed()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("trainer_0.4").toStdString();
        // data_format 7 (field 15, varint) appended to the tensor of "w".
        C2Blob w{"w", {1}, {1.0f}, {}, -1, -1, {}, 0, {}};
        std::string bytes = ProtobufFixture::minidb({w});
        // Rewrite the record: BlobProto.tensor (field 3) gains "\x78\x07".
        const std::string key = "w";
        std::int32_t vl = 0;
        std::memcpy(&vl, bytes.data() + 4, 4);
        std::string value = bytes.substr(8 + key.size());
        const std::size_t tensorTag = value.find('\x1a');
        QVERIFY(tensorTag != std::string::npos);
        const auto tensorLen = static_cast<unsigned char>(value[tensorTag + 1]);
        QVERIFY(tensorLen < 126);
        value[tensorTag + 1] = static_cast<char>(tensorLen + 2);
        value.insert(tensorTag + 2 + tensorLen, "\x78\x07");
        vl = static_cast<std::int32_t>(value.size());
        std::string out = bytes.substr(0, 4);
        out.append(reinterpret_cast<const char*>(&vl), 4);
        out += key + value;
        ProtobufFixture::write(path, out);
        auto opened = Caffe2MiniDb::open(path);
        QVERIFY(opened.ok());
        QCOMPARE((*opened)->tensors().size(), std::size_t(1));
        QVERIFY(!(*opened)->tensors()[0].dtype.numeric());
        QVERIFY((*opened)->problems().size() == 1);
        QVERIFY2((*opened)->problems()[0].find("serialization format 7") != std::string::npos,
                 (*opened)->problems()[0].c_str());
    }

    void diffOfTwoEpochs()
    {
        QTemporaryDir tmp;
        const std::string a = tmp.filePath("trainer_0.1").toStdString();
        const std::string b = tmp.filePath("trainer_0.2").toStdString();
        ProtobufFixture::write(a, ProtobufFixture::minidb(blobs(0)));
        ProtobufFixture::write(b, ProtobufFixture::minidb(blobs(0.25f)));
        auto sa = Caffe2MiniDb::open(a);
        auto sb = Caffe2MiniDb::open(b);
        QVERIFY(sa.ok() && sb.ok());
        auto diff = TensorSourceDiff::diff(**sa, **sb, TensorDiff::Options{});
        QVERIFY(diff.ok());
        int changed = 0;
        for (const auto& entry : diff->tensors) {
            if (entry.status == TensorDiffEntry::Status::Changed) {
                ++changed;
                QVERIFY(entry.key.find("fc_w") != std::string::npos);
                QCOMPARE(entry.changedElements, std::uint64_t(2));
                QCOMPARE(entry.maxAbsDiff, 0.25);
            } else {
                QCOMPARE(int(entry.status), int(TensorDiffEntry::Status::Same));
            }
        }
        QCOMPARE(changed, 1);
    }

    void hostileInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("opens");
        const std::string good = ProtobufFixture::minidb(blobs(0));
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("garbage") << QByteArray("\xff\xff\xff\xffzzzzzzzzzz", 14) << false;
        QTest::newRow("truncated header") << QByteArray::fromStdString(good.substr(0, 5)) << false;
        QTest::newRow("truncated first value")
            << QByteArray::fromStdString(good.substr(0, 30)) << false;
        QTest::newRow("truncated later")
            << QByteArray::fromStdString(good.substr(0, good.size() - 7)) << true;
        // A 2 GiB value declared in a 12-byte file.
        QTest::newRow("huge value") << QByteArray("\x01\x00\x00\x00\xff\xff\xff\x7f"
                                                  "a\x0a\x01x",
                                                  12)
                                    << false;
        // Caffe2's MiniDBCursor refuses an empty key or value (CHECK_GT 0).
        QTest::newRow("empty key") << QByteArray("\x00\x00\x00\x00\x02\x00\x00\x00"
                                                 "\x0a\x00",
                                                 10)
                                   << false;
        // Valid record framing around a value that is not protobuf.
        QTest::newRow("bad value") << QByteArray("\x01\x00\x00\x00\x03\x00\x00\x00"
                                                 "a\x0a\x7f",
                                                 11)
                                   << false;
    }
    void hostileInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, opens);
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("trainer_0.3").toStdString();
        ProtobufFixture::write(path, bytes.toStdString());
        auto opened = Caffe2MiniDb::open(path);
        QCOMPARE(opened.ok(), opens);
        if (!opened.ok()) {
            QVERIFY(opened.error().message.find(path) != std::string::npos);
            if (!bytes.isEmpty())
                QVERIFY2(opened.error().message.find("byte") != std::string::npos,
                         opened.error().message.c_str());
            return;
        }
        QVERIFY(!(*opened)->problems().empty());
        QVERIFY((*opened)->problems().front().find("truncated") != std::string::npos);
    }

    // Random damage (fixed seed): every mutant opens or fails cleanly, and every
    // listed tensor reads or fails cleanly; no crash, no hang.
    void mutatedFilesNeverCrash()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("trainer_0.1").toStdString();
        const std::string good = ProtobufFixture::minidb(blobs(0));
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
        QTest::addColumn<bool>("caffe2");
        QTest::newRow("minidb") << QByteArray::fromStdString(ProtobufFixture::minidb(blobs(0)))
                                << true;
        QTest::newRow("mindspore") << QByteArray::fromStdString(ProtobufFixture::mindspore(
                                          ProtobufFixture::network(1, 1), false))
                                   << false;
        QTest::newRow("text") << QByteArray("hello world, not a db") << false;
    }
    void sniff()
    {
        QFETCH(QByteArray, head);
        QFETCH(bool, caffe2);
        QCOMPARE(Caffe2MiniDb::sniff(head.toStdString(), "trainer_0.1"), caffe2);
    }
};

QTEST_GUILESS_MAIN(tst_Caffe2Reader)
#include "tst_Caffe2Reader.moc"
