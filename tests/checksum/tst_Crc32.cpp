#include "checksum/Crc32.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <ProcessRunner.h>
#include <random>
#include <zlib.h>

using namespace ckpt;

namespace {

std::string randomBytes(std::size_t size, unsigned seed)
{
    std::mt19937 gen(seed);
    std::string s(size, '\0');
    for (auto& c : s)
        c = static_cast<char>(gen() & 0xff);
    return s;
}

std::uint32_t zlibCrc(const char* data, std::size_t size)
{
    return static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(data), static_cast<uInt>(size)));
}

} // namespace

class tst_Crc32 : public QObject
{
    Q_OBJECT

private slots:
    void knownVectors_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("decimal");
        QTest::newRow("empty") << QByteArray() << "0";
        QTest::newRow("check") << QByteArray("123456789") << "3421780262";
        QTest::newRow("a") << QByteArray("a") << "3904355907";
        QTest::newRow("fox") << QByteArray("The quick brown fox jumps over the lazy dog")
                             << "1095738169";
    }
    void knownVectors()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, decimal);
        const auto crc = Crc32::update(0, data.constData(), static_cast<std::size_t>(data.size()));
        QCOMPARE(QString::fromStdString(Crc32::toDecimal(crc)), decimal);
    }

    // Every size around ISA-L's folding widths (16/64/128 bytes) and every alignment.
    void matchesZlib_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("offset");
        const int sizes[] = {
            1,  2,   3,   7,   8,   15,  16,  17,   31,   32,   33,   63,    64,
            65, 127, 128, 129, 255, 256, 257, 1000, 4095, 4096, 4097, 65539, (1 << 20) + 13};
        for (int size : sizes) {
            for (int offset = 0; offset < 8; ++offset)
                QTest::addRow("%d@%d", size, offset) << size << offset;
        }
    }
    void matchesZlib()
    {
        QFETCH(int, size);
        QFETCH(int, offset);
        const std::string buf = randomBytes(static_cast<std::size_t>(size + offset),
                                            static_cast<unsigned>(size * 31 + offset));
        const char* p = buf.data() + offset;
        QCOMPARE(Crc32::update(0, p, static_cast<std::size_t>(size)),
                 zlibCrc(p, static_cast<std::size_t>(size)));
    }

    void chainedUpdatesEqualOneShot()
    {
        const std::string buf = randomBytes(300000, 7);
        std::mt19937 gen(11);
        for (int round = 0; round < 50; ++round) {
            std::size_t cut = gen() % buf.size();
            std::uint32_t crc = Crc32::update(0, buf.data(), cut);
            crc = Crc32::update(crc, buf.data() + cut, buf.size() - cut);
            QCOMPARE(crc, zlibCrc(buf.data(), buf.size()));
        }
    }

    void combineEqualsConcatenation_data()
    {
        QTest::addColumn<int>("sizeA");
        QTest::addColumn<int>("sizeB");
        QTest::newRow("empty B") << 100 << 0;
        QTest::newRow("empty A") << 0 << 100;
        QTest::newRow("small") << 3 << 5;
        QTest::newRow("MiB parts") << (1 << 20) << (1 << 20) + 17;
    }
    void combineEqualsConcatenation()
    {
        QFETCH(int, sizeA);
        QFETCH(int, sizeB);
        const std::string buf = randomBytes(static_cast<std::size_t>(sizeA + sizeB), 3);
        const auto a = static_cast<std::size_t>(sizeA);
        const auto b = static_cast<std::size_t>(sizeB);
        const auto crcA = Crc32::update(0, buf.data(), a);
        const auto crcB = Crc32::update(0, buf.data() + a, b);
        QCOMPARE(Crc32::combine(crcA, crcB, b), zlibCrc(buf.data(), buf.size()));
    }

    // The decimal string must be exactly what CANDLE stores: str(zlib.crc32(data)).
    void ofFileMatchesPython()
    {
        const QString python = QStandardPaths::findExecutable("python3");
        if (python.isEmpty())
            QSKIP("python3 is not installed");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path path = dir.filePath("model.h5").toStdString();
        test::CandleFixture::writeText(path, randomBytes((3u << 20) + 17, 5));
        const test::ProcessResult proc =
            test::runProcess(python,
                             {"-c",
                              "import sys, zlib\n"
                              "print(str(zlib.crc32(open(sys.argv[1], 'rb').read())))",
                              QString::fromStdString(path.string())},
                             30000);
        QVERIFY(proc.finished);
        QCOMPARE(proc.exitCode, 0);
        const QString expected = QString::fromUtf8(proc.out).trimmed();
        auto crc = Crc32::ofFile(path);
        QVERIFY2(crc.ok(), crc.ok() ? "" : crc.error().message.c_str());
        QCOMPARE(QString::fromStdString(Crc32::toDecimal(*crc)), expected);
    }

    void ofFileReportsBytes()
    {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("m").toStdString();
        const std::size_t size = (2u << 20) + 5;
        test::CandleFixture::writeText(path, randomBytes(size, 9));
        std::uint64_t lastDone = 0;
        std::uint64_t lastTotal = 0;
        Progress progress([&](const ProgressUpdate& u) {
            QVERIFY(u.done >= lastDone);
            QCOMPARE(u.unit, std::string("bytes"));
            lastDone = u.done;
            lastTotal = u.total;
        });
        QVERIFY(Crc32::ofFile(path, progress).ok());
        QCOMPARE(lastDone, std::uint64_t{size});
        QCOMPARE(lastTotal, std::uint64_t{size});
    }

    // A big file is read in parts on every core; the combined CRC is the
    // file's, and progress ends at its size.
    void ofFileInPartsMatchesOneReader()
    {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("big").toStdString();
        const std::string data = randomBytes(Crc32::kParallelBytes + (32u << 20) + 13, 3);
        test::CandleFixture::writeText(path, data);
        std::uint64_t lastDone = 0;
        Progress progress([&](const ProgressUpdate& u) { lastDone = u.done; });
        auto crc = Crc32::ofFile(path, progress);
        QVERIFY2(crc.ok(), crc.ok() ? "" : crc.error().message.c_str());
        QCOMPARE(*crc, zlibCrc(data.data(), data.size()));
        QCOMPARE(lastDone, std::uint64_t{data.size()});
    }

    void ofFileCancels()
    {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("m").toStdString();
        test::CandleFixture::writeText(path, randomBytes(4u << 20, 9));
        std::atomic_bool cancel{true};
        Progress progress({}, &cancel);
        auto crc = Crc32::ofFile(path, progress);
        QVERIFY(!crc.ok());
        QCOMPARE(crc.error().message, std::string("cancelled"));
    }

    void ofFileMissingNamesTheFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("absent.h5").toStdString();
        auto crc = Crc32::ofFile(path);
        QVERIFY(!crc.ok());
        QVERIFY(crc.error().message.find(path) != std::string::npos);
        QVERIFY(crc.error().message.find("No such file") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(tst_Crc32)
#include "tst_Crc32.moc"
