#include "CandleFixture.h"
#include "SpecialFiles.h"
#include "io/RegularFile.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>

using namespace ckpt;
using test::CandleFixture;
using test::SpecialFiles;
namespace fs = std::filesystem;

namespace {

// Makes the entry `path` of one kind; the test reads it back.
using Maker = std::function<void(const fs::path& path)>;

} // namespace

class tst_RegularFile : public QObject
{
    Q_OBJECT

private slots:
    void readAt_data();
    void readAt();
    void limitHoldsWhileReading();
    void stringKeptFromFileToFile();
    void openGivesTheDescriptor();
    void sizeText();
};

void tst_RegularFile::readAt_data()
{
    QTest::addColumn<Maker>("make");
    QTest::addColumn<qulonglong>("limit");
    QTest::addColumn<int>("err");
    QTest::addColumn<QString>("refusal"); // empty: the read succeeds
    QTest::addColumn<int>("bytes");

    const auto text = [](std::size_t n) {
        return Maker([n](const fs::path& p) { CandleFixture::writeText(p, std::string(n, 'j')); });
    };
    const auto link = [](const char* target) {
        return Maker([target](const fs::path& p) { fs::create_symlink(target, p); });
    };
    QTest::newRow("small") << text(300) << 4096ull << 0 << "" << 300;
    QTest::newRow("several reads") << text(200000) << 1000000ull << 0 << "" << 200000;
    QTest::newRow("empty") << text(0) << 16ull << 0 << "" << 0;
    QTest::newRow("exactly the limit") << text(1024) << 1024ull << 0 << "" << 1024;
    QTest::newRow("one byte over")
        << text(1025) << 1024ull << 0 << "is 1025 bytes, over the 1024 bytes such a file may have"
        << 0;
    QTest::newRow("sparse 1 GiB") << Maker([](const fs::path& p) {
        SpecialFiles::sparse(p, 1ull << 30);
    }) << qulonglong(RegularFile::kMetadataLimit)
                                  << 0
                                  << "is 1.0 GiB, over the 4.0 MiB such a file may have: not read"
                                  << 0;
    QTest::newRow("FIFO without a writer")
        << Maker([](const fs::path& p) { SpecialFiles::fifo(p); }) << 4096ull << 0
        << "is a FIFO (named pipe), not a regular file" << 0;
    QTest::newRow("symlink to /dev/zero")
        << link("/dev/zero") << 4096ull << 0 << "is a character device, not a regular file" << 0;
    QTest::newRow("symlink to /dev/urandom")
        << link("/dev/urandom") << 4096ull << 0 << "is a character device, not a regular file" << 0;
    QTest::newRow("socket") << Maker(SpecialFiles::socket) << 4096ull << 0
                            << "is a socket, not a regular file" << 0;
    QTest::newRow("directory") << Maker([](const fs::path& p) { fs::create_directory(p); })
                               << 4096ull << 0 << "is a directory, not a regular file" << 0;
    QTest::newRow("missing") << Maker([](const fs::path&) {}) << 4096ull << ENOENT << "" << 0;
    QTest::newRow("dangling symlink") << link("nowhere") << 4096ull << ENOENT << "" << 0;
    QTest::newRow("symlink loop") << Maker([](const fs::path& p) { fs::create_symlink(p, p); })
                                  << 4096ull << ELOOP << "" << 0;
}

void tst_RegularFile::readAt()
{
    QFETCH(Maker, make);
    QFETCH(qulonglong, limit);
    QFETCH(int, err);
    QFETCH(QString, refusal);
    QFETCH(int, bytes);
    QTemporaryDir tmp;
    const fs::path path = fs::path(tmp.path().toStdString()) / "ckpt-info.json";
    make(path);
    QElapsedTimer timer;
    timer.start();
    std::string out = "stale";
    const RegularFile::Outcome got = RegularFile::readAt(AT_FDCWD, path.c_str(), limit, out);
    QVERIFY2(timer.elapsed() < 2000, "a hostile file must cost one open and one fstat");
    QCOMPARE(got.err, err);
    QVERIFY2(QString::fromStdString(got.refusal).startsWith(refusal),
             got.refusal.c_str()); // "" prefixes everything: checked by ok() below
    QCOMPARE(got.ok(), err == 0 && refusal.isEmpty());
    QCOMPARE(got.missing(), err == ENOENT);
    QCOMPARE(out.size(), std::size_t(bytes));
    if (!got.ok()) {
        // The message names the file, and read() gives the same as an Error.
        QVERIFY(got.message(path.string()).starts_with(path.string()));
        auto read = RegularFile::read(path, limit);
        QVERIFY(!read);
        QCOMPARE(read.error().message, got.message(path.string()));
        QCOMPARE(read.error().path, path.string());
    }
}

void tst_RegularFile::limitHoldsWhileReading()
{
    // /proc files say 0 bytes in fstat and then produce more: the limit counts
    // what is read, not what fstat promised (a file growing under us, too).
    std::string out;
    const auto got = RegularFile::readAt(AT_FDCWD, "/proc/self/maps", 16, out);
    QVERIFY2(got.refusal.starts_with("is ") && got.refusal.ends_with(": not read"),
             got.refusal.c_str());
    QVERIFY(out.empty());
    QVERIFY(RegularFile::readAt(AT_FDCWD, "/proc/self/maps", 1 << 20, out).ok());
    QVERIFY(!out.empty());
}

// The scan reads every ckpt-info.json into one string, written over rather
// than cleared: what a longer file left in it must never show in a shorter one.
void tst_RegularFile::stringKeptFromFileToFile()
{
    QTemporaryDir tmp;
    const fs::path dir(tmp.path().toStdString());
    const std::string longer(70000, 'L');
    const std::string shorter = R"({"epoch": 7})";
    CandleFixture::writeText(dir / "a", longer);
    CandleFixture::writeText(dir / "b", shorter);
    CandleFixture::writeText(dir / "c", "");
    std::string out;
    QVERIFY(RegularFile::readAt(AT_FDCWD, (dir / "a").c_str(), 1 << 20, out).ok());
    QCOMPARE(out, longer);
    QVERIFY(RegularFile::readAt(AT_FDCWD, (dir / "b").c_str(), 1 << 20, out).ok());
    QCOMPARE(out, shorter);
    QVERIFY(RegularFile::readAt(AT_FDCWD, (dir / "c").c_str(), 1 << 20, out).ok());
    QCOMPARE(out, std::string());
    QVERIFY(RegularFile::readAt(AT_FDCWD, (dir / "a").c_str(), 1 << 20, out).ok());
    QCOMPARE(out, longer);
    // A refusal or a missing file leaves nothing of the last file behind.
    QVERIFY(!RegularFile::readAt(AT_FDCWD, (dir / "a").c_str(), 100, out).ok());
    QVERIFY(out.empty());
    out = longer;
    QVERIFY(RegularFile::readAt(AT_FDCWD, (dir / "missing").c_str(), 1 << 20, out).missing());
    QVERIFY(out.empty());
}

void tst_RegularFile::openGivesTheDescriptor()
{
    QTemporaryDir tmp;
    const fs::path dir(tmp.path().toStdString());
    CandleFixture::writeText(dir / "sub" / "f", "hello");
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    UniqueFd fd;
    std::uint64_t size = 0;
    QVERIFY(RegularFile::openAt(dirFd, "sub/f", fd, &size).ok());
    ::close(dirFd);
    QVERIFY(fd.valid());
    QCOMPARE(size, 5u);
    char buf[8] = {};
    QCOMPARE(::read(fd.get(), buf, sizeof buf), 5);
    QCOMPARE(std::string(buf), std::string("hello"));

    SpecialFiles::fifo((dir / "fifo"));
    auto fifo = RegularFile::open(dir / "fifo");
    QVERIFY(!fifo);
    QCOMPARE(fifo.error().message,
             (dir / "fifo").string() + " is a FIFO (named pipe), not a regular file");
}

void tst_RegularFile::sizeText()
{
    QCOMPARE(RegularFile::sizeText(0), std::string("0 bytes"));
    QCOMPARE(RegularFile::sizeText(1023), std::string("1023 bytes"));
    QCOMPARE(RegularFile::sizeText(1536), std::string("1536 bytes"));
    QCOMPARE(RegularFile::sizeText(98304), std::string("96.0 KiB"));
    QCOMPARE(RegularFile::sizeText(4ull << 20), std::string("4.0 MiB"));
    QCOMPARE(RegularFile::sizeText(1ull << 30), std::string("1.0 GiB"));
}

QTEST_GUILESS_MAIN(tst_RegularFile)
#include "tst_RegularFile.moc"
