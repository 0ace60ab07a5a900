#include "CandleFixture.h"
#include "SpecialFiles.h"
#include "candle/CandleLayout.h"
#include "candle/CkptInfoReader.h"

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

// Puts something hostile where epochs/002/ckpt-info.json belongs.
using Plant = std::function<void(const fs::path& info)>;

std::string nested(int depth)
{
    return "{\"epoch\": 2, \"metadata\": " + std::string(depth, '[') + std::string(depth, ']') +
           "}";
}

std::string info(const std::string& modelFile)
{
    return "{\"epoch\": 2, \"model_file\": \"" + modelFile + "\", \"checksum\": \"1\"}";
}

} // namespace

class tst_HostileEpochs : public QObject
{
    Q_OBJECT

private slots:
    void hostileInfo_data();
    void hostileInfo();
    void modelFileOutside_data();
    void modelFileOutside();
    void modelFileInside();
};

void tst_HostileEpochs::hostileInfo_data()
{
    QTest::addColumn<Plant>("plant");
    QTest::addColumn<QString>("message"); // what the BadInfo problem says after the path

    const auto text = [](std::string s) {
        return Plant([s](const fs::path& p) { CandleFixture::writeText(p, s); });
    };
    QTest::newRow("FIFO") << Plant([](const fs::path& p) { SpecialFiles::fifo(p); })
                          << " is a FIFO (named pipe), not a regular file";
    QTest::newRow("symlink to /dev/zero")
        << Plant([](const fs::path& p) { fs::create_symlink("/dev/zero", p); })
        << " is a character device, not a regular file";
    QTest::newRow("socket") << Plant(SpecialFiles::socket) << " is a socket, not a regular file";
    QTest::newRow("directory") << Plant([](const fs::path& p) { fs::create_directories(p); })
                               << " is a directory, not a regular file";
    QTest::newRow("sparse 1 GiB") << Plant([](const fs::path& p) {
        const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT, 0644);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, off_t(1) << 30), 0);
        ::close(fd);
    }) << " is 1.0 GiB, over the 4.0 MiB such a file may have: not read";
    QTest::newRow("binary") << text(std::string("\x89HDF\r\n\x1a\n\0\0\xff", 11))
                            << ": expected a value at 1:1 (found byte 0x89)";
    QTest::newRow("nested 100000 deep")
        << text(nested(100000)) << ": nesting deeper than 256 levels at 1:281";
    QTest::newRow("nested 256 deep is fine, but not an epoch")
        << text("[" + nested(254) + "]") << ": expected a JSON object ({...}), found an array";
}

void tst_HostileEpochs::hostileInfo()
{
    QFETCH(Plant, plant);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    CandleFixture f(fs::path(tmp.path().toStdString()) / "run");
    f.addEpoch(1, 0.5, 64, true);
    f.addEpoch(3, 0.3);
    const fs::path infoPath = f.epochDir(2) / "ckpt-info.json";
    fs::create_directories(f.epochDir(2));
    CandleFixture::writeText(f.epochDir(2) / "model.h5", "model");
    plant(infoPath);

    QElapsedTimer timer;
    timer.start();
    const Run run = CandleLayout::instance().loadRun(f.root());
    QVERIFY2(timer.elapsed() < 5000, "a hostile ckpt-info.json must not stall the scan");
    QCOMPARE(run.epochs.size(), std::size_t(3));
    const Epoch& e = run.epochs[1];
    QCOMPARE(e.number, 2);
    QVERIFY(!e.hasRecord());
    QCOMPARE(e.problems.size(), std::size_t(1));
    const Problem& p = e.problems.front();
    QVERIFY(p.kind == ProblemKind::BadInfo);
    QCOMPARE(p.path, infoPath.string());
    QVERIFY2(QString::fromStdString(p.message).startsWith(
                 QString::fromStdString(infoPath.string()) + message),
             p.message.c_str());
    // The model beside it is still shown, and the other epochs are untouched.
    QCOMPARE(e.modelBytes(), std::optional<std::uint64_t>(5));
    QVERIFY(run.epochs[0].hasRecord() && run.epochs[2].hasRecord());
    QVERIFY(run.epochs[0].problems.empty() && run.epochs[2].problems.empty());
    // The watcher's single-epoch reload says the same.
    auto again = CandleLayout::instance().loadEpoch(run, 2);
    QVERIFY(again && !again->hasRecord());
    QCOMPARE(again->problems.front().message, p.message);
}

void tst_HostileEpochs::modelFileOutside_data()
{
    QTest::addColumn<QString>("modelFile");
    QTest::addColumn<QString>("why");
    QTest::newRow("parent") << "../001/model.h5"
                            << "climbs out of the epoch directory (\"..\"): not followed";
    QTest::newRow("far up") << "../../../../etc/passwd"
                            << "climbs out of the epoch directory (\"..\"): not followed";
    QTest::newRow("inner ..") << "sub/../../x"
                              << "climbs out of the epoch directory";
    QTest::newRow("bare ..") << ".."
                             << "climbs out of the epoch directory";
    QTest::newRow("absolute") << "/etc/passwd"
                              << "is an absolute path, outside the epoch directory: not followed";
    QTest::newRow("empty") << ""
                           << "is empty";
}

void tst_HostileEpochs::modelFileOutside()
{
    QFETCH(QString, modelFile);
    QFETCH(QString, why);
    QTemporaryDir tmp;
    CandleFixture f(fs::path(tmp.path().toStdString()) / "run");
    f.addEpoch(1, 0.5, 64, true);
    f.writeInfo(2, info(modelFile.toStdString()));
    const Run run = CandleLayout::instance().loadRun(f.root());
    const Epoch& e = run.epochs.at(1);
    QVERIFY(e.hasRecord()); // the file parsed; only its model_file is refused
    QVERIFY2(run.modelPath(e).empty(), run.modelPath(e).c_str());
    QVERIFY(!e.modelBytes());
    QCOMPARE(e.problems.size(), std::size_t(1));
    const Problem& p = e.problems.front();
    QVERIFY(p.kind == ProblemKind::BadInfo);
    const std::string infoPath = (f.epochDir(2) / "ckpt-info.json").string();
    QCOMPARE(p.path, infoPath);
    const QString expected =
        QString::fromStdString(infoPath) + ": model_file \"" + modelFile + "\" " + why;
    QVERIFY2(QString::fromStdString(p.message).startsWith(expected), p.message.c_str());
    QCOMPARE(CkptInfoReader::modelFileProblem(modelFile.toStdString()).has_value(), true);
}

void tst_HostileEpochs::modelFileInside()
{
    for (const char* name : {"model.h5", "sub/model.pt", "./model.h5", "a..b", "..model"})
        QVERIFY2(!CkptInfoReader::modelFileProblem(name), name);
    QVERIFY(CkptInfoReader::modelFileProblem(std::string("model\0.h5", 9)));
    QTemporaryDir tmp;
    CandleFixture f(fs::path(tmp.path().toStdString()) / "run");
    f.writeInfo(2, info("sub/weights.pt"));
    CandleFixture::writeText(f.epochDir(2) / "sub" / "weights.pt", "1234");
    const Run run = CandleLayout::instance().loadRun(f.root());
    const Problems& problems = run.epochs.at(0).problems;
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
    QCOMPARE(run.modelPath(run.epochs.at(0)), (f.epochDir(2) / "sub" / "weights.pt").string());
    QCOMPARE(run.epochs.at(0).modelBytes(), std::optional<std::uint64_t>(4));
}

QTEST_GUILESS_MAIN(tst_HostileEpochs)
#include "tst_HostileEpochs.moc"
