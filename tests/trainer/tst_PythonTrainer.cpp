#include "CandleFixture.h"
#include "CliRunner.h"
#include "DemoRun.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>
#include <sstream>

using namespace ckpt;
using test::CandleFixture;
using test::runCli;
namespace fs = std::filesystem;

// The example Python trainer (resources/examples/candle_trainer.py), a program
// that is not ours, trained, restarted and forked through the real `ckpt
// launch`, its checkpoints then scanned and verified by the real `ckpt`.
class tst_PythonTrainer : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void trainsRestartsAndForksThroughTheLauncher();

private:
    QString m_python;
};

namespace {

const QString kTrainer = QStringLiteral(CKPT_SOURCE_DIR "/resources/examples/candle_trainer.py");
const QString kConfig = QStringLiteral(CKPT_SOURCE_DIR "/resources/examples/candle_trainer.ini");

// training.log rows: 1-based epoch -> the learning rate of its newest row.
std::map<int, std::string> ratesByEpoch(const std::string& log)
{
    std::map<int, std::string> out;
    std::istringstream in(log);
    std::string line;
    std::getline(in, line); // epoch,accuracy,loss,lr,val_accuracy,val_loss
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::istringstream row(line);
        for (std::string f; std::getline(row, f, ',');)
            fields.push_back(f);
        if (fields.size() == 6)
            out[std::stoi(fields[0]) + 1] = fields[3];
    }
    return out;
}

} // namespace

void tst_PythonTrainer::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    // Debian's python3-h5py belongs to /usr/bin/python3; a pyenv or venv python
    // first on PATH may not have it.
    for (const QString& candidate :
         {QStringLiteral("/usr/bin/python3"), QStringLiteral("python3")}) {
        QProcess p;
        p.start(candidate, {QStringLiteral("-c"), QStringLiteral("import h5py, numpy")});
        if (p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit &&
            p.exitCode() == 0) {
            m_python = candidate;
            return;
        }
    }
    QSKIP("h5py or numpy is not importable by /usr/bin/python3 or python3: install "
          "python3-h5py and python3-numpy (scripts/setup-deps.sh) to run this test");
}

void tst_PythonTrainer::trainsRestartsAndForksThroughTheLauncher()
{
    QTemporaryDir dir;
    const fs::path base = dir.path().toStdString();
    qputenv("XDG_DATA_HOME", (base / "xdg").string().c_str());
    const fs::path run = base / "RUN";
    fs::create_directories(run);
    const fs::path config = run / "config.ini";
    std::string ini = CandleFixture::readText(kConfig.toStdString());
    const auto at = ini.find("epochs = 10");
    QVERIFY(at != std::string::npos);
    CandleFixture::writeText(config, ini.replace(at, 11, "epochs = 8"));

    // A first run, as a user starts it: in the folder that will hold save/.
    QProcess first;
    first.setWorkingDirectory(QString::fromStdString(run.string()));
    first.start(m_python,
                {kTrainer, QStringLiteral("--config_file"), QString::fromStdString(config.string()),
                 QStringLiteral("--epochs"), QStringLiteral("8")});
    QVERIFY(first.waitForFinished(120000));
    QVERIFY2(first.exitCode() == 0, first.readAllStandardError().constData());
    const fs::path root = run / "save" / "ckpts";
    QCOMPARE(fs::read_symlink(root / "last").string(), std::string("epochs/008"));
    const std::string oldModel = CandleFixture::readText(root / "epochs/006/model.h5");

    // Restart from 4 with a new learning rate, through the launcher.
    const QString rootArg = QString::fromStdString(root.string());
    auto restart = runCli({QStringLiteral("launch"),
                           rootArg,
                           QStringLiteral("--from"),
                           QStringLiteral("4"),
                           QStringLiteral("--config"),
                           QString::fromStdString(config.string()),
                           QStringLiteral("--set"),
                           QStringLiteral("learning_rate=0.01"),
                           QStringLiteral("--"),
                           m_python,
                           kTrainer,
                           QStringLiteral("--config_file"),
                           QStringLiteral("{config}"),
                           QStringLiteral("--output_dir"),
                           QStringLiteral("{output_dir}"),
                           QStringLiteral("--ckpt_directory"),
                           QStringLiteral("{ckpt_directory}"),
                           QStringLiteral("--epochs"),
                           QStringLiteral("{epochs}"),
                           QStringLiteral("--ckpt_restart_mode"),
                           QStringLiteral("{ckpt_restart_mode}")},
                          180000);
    QVERIFY2(restart.exitCode == 0, (restart.out + restart.err).constData());
    // The old 5..8 kept aside, 5..8 trained again with the new rate.
    const fs::path superseded = root / ".ckpt-studio" / "superseded";
    QVERIFY(fs::is_directory(superseded));
    const fs::path aside = fs::directory_iterator(superseded)->path();
    QCOMPARE(CandleFixture::readText(aside / "epochs/006/model.h5"), oldModel);
    QVERIFY(CandleFixture::readText(root / "epochs/006/model.h5") != oldModel);
    const auto rates = ratesByEpoch(CandleFixture::readText(run / "training.log"));
    QCOMPARE(rates.at(4), std::string("0.05"));
    for (int e = 5; e <= 8; ++e)
        QCOMPARE(rates.at(e), std::string("0.01"));
    // The history the app plots shows the new rate for the restarted epochs.
    auto history = runCli({QStringLiteral("history"), rootArg, QStringLiteral("--csv")});
    QCOMPARE(history.exitCode, 0);
    const QList<QByteArray> lines = history.out.trimmed().split('\n');
    const int lrColumn = int(lines.front().split(',').indexOf("lr"));
    QVERIFY(lrColumn > 0);
    QCOMPARE(lines.size(), 9); // header + epochs 1..8, the newest row of each
    QCOMPARE(lines[8].split(',')[lrColumn], QByteArray("0.01"));
    QCOMPARE(lines[4].split(',')[lrColumn], QByteArray("0.05"));

    // Fork from 6 with another rate: the template is remembered from the restart.
    const auto parentBefore = test::treeSnapshot(run);
    auto fork = runCli({QStringLiteral("launch"), rootArg, QStringLiteral("--from"),
                        QStringLiteral("6"), QStringLiteral("--fork"), QStringLiteral("--set"),
                        QStringLiteral("learning_rate=0.02")},
                       180000);
    QVERIFY2(fork.exitCode == 0, (fork.out + fork.err).constData());
    QVERIFY(test::treeSnapshot(run) == parentBefore);
    const fs::path forkRoot = base / "RUN-fork-e006" / "save" / "ckpts";
    QCOMPARE(fs::read_symlink(forkRoot / "last").string(), std::string("epochs/008"));
    const auto forkRates =
        ratesByEpoch(CandleFixture::readText(base / "RUN-fork-e006/training.log"));
    QCOMPARE(forkRates.at(6), std::string("0.01")); // the parent's, up to the fork
    QCOMPARE(forkRates.at(7), std::string("0.02"));

    // What the trainer wrote is a clean CANDLE layout with matching checksums.
    const QString baseArg = QString::fromStdString(base.string());
    auto scan = runCli({QStringLiteral("scan"), baseArg, QStringLiteral("--json")});
    QCOMPARE(scan.exitCode, 0);
    const auto runs = scan.json()["runs"];
    QCOMPARE(int(runs.size()), 2);
    for (const auto& r : runs)
        QVERIFY2(r["problems"].empty(), r["problems"].dump().c_str());
    auto verify = runCli({QStringLiteral("verify"), baseArg, QStringLiteral("--json")});
    QVERIFY2(verify.exitCode == 0, verify.out.constData());
    int ok = 0;
    const auto verified = verify.json();
    for (const auto& r : verified["runs"])
        for (const auto& e : r["epochs"]) {
            const auto field = [&](const char* key) {
                return QString::fromStdString(e[key].get<std::string>());
            };
            QCOMPARE(field("status"), QStringLiteral("ok"));
            QCOMPARE(field("actual"), field("expected"));
            ++ok;
        }
    QCOMPARE(ok, 8 + 3); // the parent's 1..8 and the fork's 6..8
}

QTEST_GUILESS_MAIN(tst_PythonTrainer)
#include "tst_PythonTrainer.moc"
