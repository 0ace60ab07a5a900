#include "CandleFixture.h"
#include "layout/DirReader.h"

#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ckpt;
using test::CandleFixture;
namespace fs = std::filesystem;

class tst_DirReader : public QObject
{
    Q_OBJECT
private slots:
    void listTypes();
    void listErrors();
    void typeAt();
    void containsEntry();
    void isDigits_data();
    void isDigits();
};

static QString describe(const DirListing& listing)
{
    QStringList items;
    for (const auto& e : listing.entries) {
        const char* t = e.type == DirEntry::Type::Directory ? "d"
                        : e.type == DirEntry::Type::File    ? "f"
                        : e.type == DirEntry::Type::Symlink ? "l"
                                                            : "o";
        items << QString::fromStdString(e.name) + ":" + t;
    }
    items.sort();
    return items.join(',');
}

void tst_DirReader::listTypes()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    fs::create_directories(base / "dir");
    CandleFixture::writeText(base / "file", "x");
    fs::create_directory_symlink(base / "dir", base / "dirlink");
    fs::create_symlink(base / "nowhere", base / "dangling");
    ::mkfifo((base / "fifo").c_str(), 0644);
    auto listing = DirReader::list(base);
    QVERIFY(listing.ok());
    QCOMPARE(listing->dir, base);
    // Symlinks stay symlinks (never followed), "." and ".." are left out.
    QCOMPARE(describe(*listing), QString("dangling:l,dir:d,dirlink:l,fifo:o,file:f"));
}

void tst_DirReader::listErrors()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    auto missing = DirReader::list(base / "nope");
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().message, (base / "nope").string() + ": No such file or directory");
    CandleFixture::writeText(base / "file", "x");
    std::vector<DirEntry> entries;
    QCOMPARE(DirReader::list((base / "file").c_str(), entries), ENOTDIR);
}

void tst_DirReader::typeAt()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    CandleFixture::writeText(base / "sub" / "f", "x");
    const int fd = ::open(base.c_str(), O_RDONLY | O_DIRECTORY);
    QVERIFY(DirReader::typeAt(fd, "sub") == DirEntry::Type::Directory);
    QVERIFY(DirReader::typeAt(fd, "sub/f") == DirEntry::Type::File);
    QVERIFY(DirReader::typeAt(fd, "none") == DirEntry::Type::Other);
    ::close(fd);
}

void tst_DirReader::containsEntry()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    fs::create_directories(base / "a");
    fs::create_directories(base / "b");
    bool found = true;
    auto isB = [](const DirEntry& e) { return e.name == "b"; };
    auto isC = [](const DirEntry& e) { return e.name == "c"; };
    QCOMPARE(DirReader::containsEntry(base.c_str(), isB, found), 0);
    QVERIFY(found);
    QCOMPARE(DirReader::containsEntry(base.c_str(), isC, found), 0);
    QVERIFY(!found);
    QCOMPARE(DirReader::containsEntry((base / "none").c_str(), isB, found), ENOENT);
    QVERIFY(!found);
}

void tst_DirReader::isDigits_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("digits");
    QTest::newRow("001") << "001" << true;
    QTest::newRow("1000") << "1000" << true;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("letters") << "01a" << false;
    QTest::newRow("sign") << "-1" << false;
}

void tst_DirReader::isDigits()
{
    QFETCH(QString, name);
    QFETCH(bool, digits);
    QCOMPARE(DirReader::isDigits(name.toStdString()), digits);
}

QTEST_GUILESS_MAIN(tst_DirReader)
#include "tst_DirReader.moc"
