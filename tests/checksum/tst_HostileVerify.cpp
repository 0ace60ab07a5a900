#include "CandleFixture.h"
#include "SpecialFiles.h"
#include "candle/CandleLayout.h"
#include "checksum/CrcReader.h"
#include "checksum/Verifier.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace ckpt;
using test::CandleFixture;
using test::SpecialFiles;
namespace fs = std::filesystem;

namespace {

// Replaces epoch 2's model.h5 with something that is not a model file.
using Plant = std::function<void(const fs::path& model)>;

Verifier::Options options(CrcReader::Strategy strategy)
{
    Verifier::Options o;
    o.threads = 2;
    o.reader.strategy = strategy;
    return o;
}

} // namespace

class tst_HostileVerify : public QObject
{
    Q_OBJECT

private slots:
    void specialModel_data();
    void specialModel();
    void modelFileOutsideIsNeverRead();
    void crcFileRefusesSpecialFiles();
};

void tst_HostileVerify::specialModel_data()
{
    QTest::addColumn<Plant>("plant");
    QTest::addColumn<int>("strategy");
    QTest::addColumn<QString>("what");
    const Plant fifo = SpecialFiles::fifo;
    const Plant zero = [](const fs::path& p) { fs::create_symlink("/dev/zero", p); };
    for (auto strategy : {CrcReader::Strategy::Mmap, CrcReader::Strategy::Read}) {
        const QByteArray tag = strategy == CrcReader::Strategy::Mmap ? " (mmap)" : " (read)";
        QTest::newRow("FIFO" + tag) << fifo << int(strategy) << "a FIFO (named pipe)";
        QTest::newRow("/dev/zero" + tag) << zero << int(strategy) << "a character device";
    }
}

void tst_HostileVerify::specialModel()
{
    QFETCH(Plant, plant);
    QFETCH(int, strategy);
    QFETCH(QString, what);
    QTemporaryDir tmp;
    CandleFixture f(fs::path(tmp.path().toStdString()) / "run");
    f.addEpoch(1, 0.5, 100, true);
    f.addEpoch(2, 0.4, 100);
    const fs::path model = f.epochDir(2) / "model.h5";
    fs::remove(model);
    plant(model);

    const Run run = CandleLayout::instance().loadRun(f.root());
    QElapsedTimer timer;
    timer.start();
    auto report = Verifier::verifyRun(run, options(CrcReader::Strategy(strategy)));
    QVERIFY2(timer.elapsed() < 5000, "verify must neither block on a FIFO nor read /dev/zero");
    QVERIFY(report);
    const auto& epochs = report->runs.at(0).epochs;
    QCOMPARE(epochs.size(), std::size_t(2));
    QVERIFY(epochs[0].status == VerifyStatus::Ok);
    QVERIFY(epochs[1].status == VerifyStatus::Error);
    QCOMPARE(epochs[1].bytes, 0u);
    QCOMPARE(QString::fromStdString(epochs[1].message), QString::fromStdString(model.string()) +
                                                            " is " + what +
                                                            ", not a regular file: not read");
}

void tst_HostileVerify::modelFileOutsideIsNeverRead()
{
    // The file outside carries the very CRC ckpt-info.json records: following
    // model_file would report it "ok". It must be a bad ckpt-info.json instead.
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    const std::string secret = "not a model, but its CRC matches";
    CandleFixture::writeText(base / "secret", secret);
    CandleFixture f(base / "run");
    const std::string crc = std::to_string(CandleFixture::crc32Of(secret));
    const std::string outside[] = {"../../../secret", (base / "secret").string()};
    for (int i = 0; i < 2; ++i)
        f.writeInfo(i + 1, "{\"epoch\": " + std::to_string(i + 1) + ", \"model_file\": \"" +
                               outside[i] + "\", \"checksum\": \"" + crc + "\"}");
    const Run run = CandleLayout::instance().loadRun(f.root());
    auto report = Verifier::verifyRun(run, options(CrcReader::Strategy::Read));
    QVERIFY(report);
    const auto& epochs = report->runs.at(0).epochs;
    QCOMPARE(epochs.size(), std::size_t(2));
    for (int i = 0; i < 2; ++i) {
        QVERIFY(epochs[i].status == VerifyStatus::BadInfo);
        QCOMPARE(epochs[i].bytes, 0u);
        QVERIFY(epochs[i].actual.empty());
        const std::string info = (f.epochDir(i + 1) / "ckpt-info.json").string();
        QCOMPARE(epochs[i].path, info);
        QVERIFY2(epochs[i].message.starts_with(info + ": model_file \"" + outside[i] + "\" "),
                 epochs[i].message.c_str());
        QVERIFY2(epochs[i].message.find("not followed") != std::string::npos,
                 epochs[i].message.c_str());
    }
}

void tst_HostileVerify::crcFileRefusesSpecialFiles()
{
    QTemporaryDir tmp;
    const fs::path fifo = fs::path(tmp.path().toStdString()) / "fifo";
    SpecialFiles::fifo(fifo);
    CrcReader reader({CrcReader::Strategy::Read, 4096});
    QElapsedTimer timer;
    timer.start();
    auto crc = reader.crcFile(fifo);
    QVERIFY(!crc);
    QCOMPARE(crc.error().message, fifo.string() + " is a FIFO (named pipe), not a regular file");
    auto zero = reader.crcFile("/dev/zero");
    QVERIFY(!zero);
    QCOMPARE(zero.error().message, "/dev/zero is a character device, not a regular file");
    QVERIFY(timer.elapsed() < 5000);
}

QTEST_GUILESS_MAIN(tst_HostileVerify)
#include "tst_HostileVerify.moc"
