#include "checksum/CrcReader.h"

#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <fcntl.h>
#include <random>
#include <unistd.h>
#include <zlib.h>

using namespace ckpt;

Q_DECLARE_METATYPE(ckpt::CrcReader::Strategy)

namespace {

std::string randomBytes(std::size_t size)
{
    std::mt19937 gen(static_cast<unsigned>(size));
    std::string s(size, '\0');
    for (auto& c : s)
        c = static_cast<char>(gen() & 0xff);
    return s;
}

std::uint32_t zlibCrc(std::string_view s)
{
    return static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(s.data()), static_cast<uInt>(s.size())));
}

} // namespace

class tst_CrcReader : public QObject
{
    Q_OBJECT

private slots:
    void range_data()
    {
        QTest::addColumn<CrcReader::Strategy>("strategy");
        QTest::addColumn<int>("block");
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("length"); // -1: to end
        for (auto [strategy, name] : {std::pair{CrcReader::Strategy::Read, "read"},
                                      std::pair{CrcReader::Strategy::Mmap, "mmap"}}) {
            QTest::addRow("%s whole", name) << strategy << (1 << 20) << 0 << -1;
            QTest::addRow("%s small blocks", name) << strategy << 4096 << 0 << -1;
            QTest::addRow("%s unaligned middle", name) << strategy << 8192 << 12345 << 700001;
            QTest::addRow("%s unaligned tail", name) << strategy << 65536 << 99999 << -1;
            QTest::addRow("%s empty range", name) << strategy << 65536 << 4096 << 0;
        }
    }
    void range()
    {
        QFETCH(CrcReader::Strategy, strategy);
        QFETCH(int, block);
        QFETCH(int, offset);
        QFETCH(int, length);
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("m").toStdString();
        const std::string content = randomBytes(1234567);
        test::CandleFixture::writeText(path, content);
        const std::string_view expected = std::string_view(content).substr(
            static_cast<std::size_t>(offset),
            length < 0 ? std::string_view::npos : static_cast<std::size_t>(length));
        CrcReader reader({strategy, static_cast<std::size_t>(block)});
        const int fd = ::open(path.c_str(), O_RDONLY);
        QVERIFY(fd >= 0);
        std::uint64_t reported = 0;
        auto out =
            reader.crcRange(fd, path, static_cast<std::uint64_t>(offset),
                            length < 0 ? CrcReader::kToEnd : static_cast<std::uint64_t>(length),
                            [&](std::uint64_t n) {
                                reported += n;
                                return true;
                            });
        ::close(fd);
        QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
        QCOMPARE(out->bytes, std::uint64_t{expected.size()});
        QCOMPARE(reported, std::uint64_t{expected.size()});
        QCOMPARE(out->crc, zlibCrc(expected));
    }

    void boundedRangePastEndFails_data()
    {
        QTest::addColumn<CrcReader::Strategy>("strategy");
        QTest::newRow("read") << CrcReader::Strategy::Read;
        QTest::newRow("mmap") << CrcReader::Strategy::Mmap;
    }
    void boundedRangePastEndFails()
    {
        QFETCH(CrcReader::Strategy, strategy);
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("m").toStdString();
        test::CandleFixture::writeText(path, randomBytes(1000));
        CrcReader reader({strategy, 4096});
        const int fd = ::open(path.c_str(), O_RDONLY);
        auto out = reader.crcRange(fd, path, 500, 1000);
        ::close(fd);
        QVERIFY(!out.ok());
        QVERIFY(out.error().message.find("shrank") != std::string::npos);
        QVERIFY(out.error().message.find(path.string()) != std::string::npos);
    }

    // A file truncated while mapped raises SIGBUS: an error, not a crash.
    void mappedFileTruncatedIsError()
    {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("m").toStdString();
        test::CandleFixture::writeText(path, randomBytes(1 << 20));
        CrcReader reader({CrcReader::Strategy::Mmap, 64 << 10});
        int blocks = 0;
        auto out = reader.crcFile(path, [&](std::uint64_t) {
            if (++blocks == 2)
                std::filesystem::resize_file(path, 4096);
            return true;
        });
        QVERIFY(!out.ok());
        QVERIFY2(out.error().message.find("shrank") != std::string::npos,
                 out.error().message.c_str());
        QCOMPARE(blocks, 2);
        // The guard is per call: the reader still works afterwards.
        test::CandleFixture::writeText(path, "123456789");
        auto again = reader.crcFile(path);
        QVERIFY(again.ok());
        QCOMPARE(again->crc, 3421780262u);
    }

    void stopsWhenCallbackSaysSo()
    {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("m").toStdString();
        test::CandleFixture::writeText(path, randomBytes(1 << 20));
        CrcReader reader({CrcReader::Strategy::Read, 4096});
        int blocks = 0;
        auto out = reader.crcFile(path, [&](std::uint64_t) { return ++blocks < 3; });
        QVERIFY(!out.ok());
        QCOMPARE(out.error().message, std::string("cancelled"));
        QCOMPARE(blocks, 3);
    }
};

QTEST_GUILESS_MAIN(tst_CrcReader)
#include "tst_CrcReader.moc"
