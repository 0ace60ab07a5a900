// Real device nodes (mknod, the numbers of /dev/zero and /dev/null) and FIFOs
// where a checkpoint's files belong: ckpt-info.json, model.h5, training.log,
// ckpt.log of a CANDLE run, and the checkpoint files of the torch (.ckpt zip),
// MindSpore (.ckpt protobuf) and Caffe2 (minidb) layouts. Every command of the
// real `ckpt` and every reader must say "character device" or "FIFO", never
// read it (a /dev/zero reader never ends) and never block. mknod of a device
// needs root: only there do the device cases skip (CI runs as root).
#include "CandleFixture.h"
#include "CliRunner.h"
#include "LightningFixture.h"
#include "ProtobufFixture.h"
#include "SpecialFiles.h"
#include "TorchZipWriter.h"
#include "caffe2/Caffe2MiniDb.h"
#include "mindspore/MindSporeCheckpoint.h"
#include "models/ChecksumState.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "session/Workspace.h"
#include "torch/TorchZipSource.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <functional>
#include <memory>
#include <unistd.h>

using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {

// Each command must end well inside this (a read of a device never would).
constexpr int kTimeoutMs = 20000;
constexpr const char* kNoRoot = "mknod of a character device needs root (CI runs as root)";

QByteArray kindWords(const QString& kind)
{
    return kind == "device" ? "is a character device, not a regular file"
                            : "is a FIFO (named pipe), not a regular file";
}

} // namespace

class tst_DeviceNodes : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        m_base = fs::path(m_tmp->path().toStdString());
    }
    void cleanup() { m_tmp.reset(); }
    void candleRun();
    void window();
    void tensorFormats_data();
    void tensorFormats();

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_base;
};

// Devices as ckpt-info.json (epoch 2), model.h5 (epoch 3), training.log and
// ckpt.log: scan, verify, history, inspect, diff and watch name them and end.
void tst_DeviceNodes::candleRun()
{
    if (::geteuid() != 0)
        QSKIP(kNoRoot);
    CandleFixture f(m_base / "RUN" / "ckpts");
    for (int e = 1; e <= 4; ++e)
        f.addEpoch(e, 1.0 / e, 4096, e == 1);
    f.linkAbsolute("last", 4);
    const fs::path info = f.epochDir(2) / "ckpt-info.json";
    const fs::path model = f.epochDir(3) / "model.h5";
    const fs::path trainingLog = f.root() / "training.log";
    const fs::path ckptLog = f.root() / "ckpt.log";
    fs::remove(info);
    fs::remove(model);
    QCOMPARE(SpecialFiles::device(info, "/dev/zero"), 0);
    QCOMPARE(SpecialFiles::device(model, "/dev/zero"), 0);
    QCOMPARE(SpecialFiles::device(trainingLog, "/dev/zero"), 0);
    QCOMPARE(SpecialFiles::device(ckptLog, "/dev/null"), 0);
    const QString root = QString::fromStdString(f.root().string());
    const auto names = [](const QByteArray& text, const fs::path& p) {
        return text.contains(QByteArray::fromStdString(p.string() + " is a character device"));
    };

    QElapsedTimer clock;
    clock.start();
    const CliResult scan = runCli({"scan", "--json", m_tmp->path()}, kTimeoutMs);
    QVERIFY2(scan.exitCode == 1, (scan.out + scan.err).constData());
    QVERIFY2(names(scan.out, info), scan.out.constData());
    const nlohmann::json runs = scan.json()["runs"];
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0]["epochs"].size(), std::size_t(4)); // the device's epoch listed, not dropped

    const CliResult verify = runCli({"verify", "--json", root}, kTimeoutMs);
    QVERIFY2(verify.exitCode == 1, (verify.out + verify.err).constData());
    QVERIFY2(names(verify.out, model) && verify.out.contains("not read"), verify.out.constData());
    QVERIFY2(!verify.out.contains("\"status\": \"mismatch\""), verify.out.constData());

    const CliResult history = runCli({"history", root}, kTimeoutMs);
    QVERIFY2(history.exitCode == 0 || history.exitCode == 1, history.err.constData());
    QVERIFY2(names(history.out + history.err, trainingLog) &&
                 names(history.out + history.err, ckptLog),
             (history.out + history.err).constData());

    for (const QStringList& args :
         {QStringList{"inspect", QString::fromStdString(f.epochDir(3).string())},
          QStringList{"inspect", QString::fromStdString(model.string())},
          QStringList{"diff", root, "--epochs", "1", "3"}}) {
        const CliResult r = runCli(args, kTimeoutMs);
        QVERIFY2(r.exitCode == 2 && names(r.err, model),
                 (args.join(' ') + ": " + r.err).toUtf8().constData());
    }
    QVERIFY2(clock.elapsed() < kTimeoutMs, "the commands took too long together");

    // watch: the devices are problems of the run, a new epoch still arrives.
    QProcess p;
    p.start(cliPath(), {"watch", "--json", m_tmp->path()});
    QVERIFY(p.waitForStarted());
    QByteArray seen;
    const auto waitFor = [&](const QByteArray& needle) {
        QElapsedTimer t;
        t.start();
        while (!seen.contains(needle) && t.elapsed() < 10000) {
            p.waitForReadyRead(100);
            seen += p.readAllStandardOutput();
        }
        return seen.contains(needle);
    };
    QVERIFY2(waitFor("\"event\":\"ready\""), seen.constData());
    // A save whose files are devices, renamed in as CANDLE does, then a good one.
    const fs::path work = f.root() / "work";
    fs::create_directories(work);
    QCOMPARE(SpecialFiles::device(work / "ckpt-info.json", "/dev/zero"), 0);
    QCOMPARE(SpecialFiles::device(work / "model.h5", "/dev/zero"), 0);
    fs::rename(work, f.epochDir(5));
    QVERIFY2(waitFor(QByteArray::fromStdString((f.epochDir(5) / "ckpt-info.json").string() +
                                               " is a character device")),
             seen.constData());
    f.addEpoch(6, 0.2, 4096);
    QVERIFY2(waitFor("\"epoch\":6"), seen.constData());
    p.terminate();
    QVERIFY(p.waitForFinished(5000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
}

// The window's controller on the same devices: the run loads with its four
// epochs, the device record is a problem naming it, verify says `error`.
void tst_DeviceNodes::window()
{
    if (::geteuid() != 0)
        QSKIP(kNoRoot);
    QStandardPaths::setTestModeEnabled(true); // the verify cache of the test, not the user's
    CandleFixture f(m_base / "RUN" / "ckpts");
    for (int e = 1; e <= 4; ++e)
        f.addEpoch(e, 1.0 / e, 4096, e == 1);
    f.linkAbsolute("last", 4);
    const fs::path info = f.epochDir(2) / "ckpt-info.json";
    const fs::path model = f.epochDir(3) / "model.h5";
    fs::remove(info);
    fs::remove(model);
    QCOMPARE(SpecialFiles::device(info, "/dev/zero"), 0);
    QCOMPARE(SpecialFiles::device(model, "/dev/zero"), 0);
    QCOMPARE(SpecialFiles::device(f.root() / "training.log", "/dev/zero"), 0);
    const QString root = QString::fromStdString(f.root().string());

    ckpt::Workspace ws;
    QSignalSpy scanned(&ws, &ckpt::Workspace::allScansFinished);
    ws.openFolders({m_tmp->path()});
    QVERIFY(scanned.wait(kTimeoutMs));
    QTRY_VERIFY(ws.isIdle());
    ws.flushWatcher();
    QVERIFY(ws.runTree()->summary(root));
    QCOMPARE(ws.runTree()->summary(root)->epochs, 4);
    bool named = false;
    const ckpt::ProblemsModel* problems = ws.problems();
    for (int row = 0; row < problems->rowCount(); ++row)
        if (const ckpt::Problem* p = problems->problemAt(row))
            named = named || (p->kind == ckpt::ProblemKind::BadInfo &&
                              p->message.find(info.string() + " is a character device") !=
                                  std::string::npos);
    QVERIFY(named);

    ws.showRuns({root}); // the history reads training.log: a device, not read
    QSignalSpy verified(&ws, &ckpt::Workspace::verifyFinished);
    ws.verify({{root, {}}});
    QVERIFY(verified.wait(kTimeoutMs));
    QTRY_VERIFY(ws.isIdle());
    QCOMPARE(ws.state(root)->checks.at(3).state, ckpt::ChecksumState::Error);
    QCOMPARE(ws.state(root)->checks.at(1).state, ckpt::ChecksumState::Ok);
}

void tst_DeviceNodes::tensorFormats_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("kind");
    for (const char* format : {"torch", "mindspore", "caffe2"})
        for (const char* kind : {"fifo", "device"})
            QTest::addRow("%s, %s", format, kind) << format << kind;
}

// The newest checkpoint of each layout a FIFO or a device: the format's reader
// refuses it naming the file within 2 s; `ckpt inspect` of it and `ckpt diff`
// against the good one exit 2 naming it; `ckpt scan` of the folder ends.
void tst_DeviceNodes::tensorFormats()
{
    QFETCH(QString, format);
    QFETCH(QString, kind);
    if (kind == "device" && ::geteuid() != 0)
        QSKIP(kNoRoot);
    fs::path good, bad;
    std::function<ckpt::Result<std::unique_ptr<ckpt::TensorSource>>(const std::string&)> open;
    if (format == "torch") {
        LightningFixture l(m_base / "lightning_logs" / "version_0");
        good = l.addCheckpoint(0, 100);
        bad = l.checkpointsDir() / LightningFixture::ckptName(1, 200);
        open = ckpt::TorchZipSource::open;
    } else if (format == "mindspore") {
        good = m_base / "ms" / "net-1_10.ckpt";
        ProtobufFixture::write(
            good, ProtobufFixture::mindspore(ProtobufFixture::network(1, 10), true), true);
        bad = m_base / "ms" / "net-2_10.ckpt";
        open = ckpt::MindSporeCheckpoint::open;
    } else {
        good = m_base / "c2" / "trainer_0.1";
        ProtobufFixture::write(
            good, ProtobufFixture::minidb({C2Blob{"w", {1}, {1.0f}, {}, -1, -1, {}, 0, {}}}));
        bad = m_base / "c2" / "trainer_0.2";
        open = ckpt::Caffe2MiniDb::open;
    }
    if (kind == "device")
        QCOMPARE(SpecialFiles::device(bad, "/dev/zero"), 0);
    else
        SpecialFiles::fifo(bad);
    const QByteArray named = QByteArray::fromStdString(bad.string()) + ' ' + kindWords(kind);

    QElapsedTimer clock;
    clock.start();
    auto source = open(bad.string());
    QVERIFY(!source);
    QVERIFY2(QByteArray::fromStdString(source.error().message).contains(named),
             source.error().message.c_str());
    QVERIFY(clock.elapsed() < 2000);
    if (format == "mindspore") // verify reads the CRC trailer: never of a FIFO or device
        QVERIFY(!ckpt::MindSporeCheckpoint::readTrailer(bad.string()));

    const QString a = QString::fromStdString(good.string());
    const QString b = QString::fromStdString(bad.string());
    for (const QStringList& args :
         {QStringList{"inspect", b}, QStringList{"inspect", "--json", b}, QStringList{"diff", a, b},
          QStringList{"diff", b, a, "--json"}}) {
        const CliResult r = runCli(args, kTimeoutMs);
        QVERIFY2(r.exitCode == 2 && r.err.contains(named),
                 (args.join(' ') + ": " + r.err).toUtf8().constData());
    }
    const CliResult scan = runCli({"scan", "--json", m_tmp->path()}, kTimeoutMs);
    QVERIFY2(scan.exitCode == 0 || scan.exitCode == 1, (scan.out + scan.err).constData());
    QCOMPARE(scan.json()["runs"].size(), std::size_t(1));
    const CliResult verify = runCli({"verify", "--json", m_tmp->path()}, kTimeoutMs);
    QVERIFY2(verify.exitCode == 0 || verify.exitCode == 1, (verify.out + verify.err).constData());
    QVERIFY2(!verify.out.contains("\"status\": \"mismatch\""), verify.out.constData());
}

QTEST_GUILESS_MAIN(tst_DeviceNodes)
#include "tst_DeviceNodes.moc"
