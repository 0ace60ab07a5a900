#include "CliRunner.h"
#include "FileTree.h"
#include "config/ConfigWriter.h"
#include "config/ParamSet.h"
#include "launch/LaunchRecord.h"
#include "lightning/LightningLayout.h"
#include "lightning/LightningResume.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>
#include <sys/stat.h>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

// A Lightning run steered as its users resume it: the example trainer
// (resources/examples/lightning_trainer.py, real PyTorch) trained, then
// restarted and forked through `ckpt launch`, and a prepared launch undone.
class tst_LightningResume : public QObject
{
    Q_OBJECT

    QString m_python;
    std::unique_ptr<QTemporaryDir> m_dir;
    fs::path m_folder;  // the trainer's default_root_dir
    fs::path m_version; // lightning_logs/version_0, the run trained first

    const QString kTrainer =
        QStringLiteral(CKPT_SOURCE_DIR "/resources/examples/lightning_trainer.py");

    QStringList command() const
    {
        return {QStringLiteral("--"),
                m_python,
                kTrainer,
                QStringLiteral("--config"),
                QStringLiteral("{config}"),
                QStringLiteral("--ckpt_path"),
                QStringLiteral("{checkpoint}"),
                QStringLiteral("--default_root_dir"),
                QStringLiteral("{output_dir}"),
                QStringLiteral("--version"),
                QStringLiteral("{version}")};
    }


    static QByteArray readAll(const fs::path& path)
    {
        QFile f(QString::fromStdString(path.string()));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    // The run's checkpoints as Lightning named them.
    static QStringList checkpoints(const fs::path& version)
    {
        QStringList names;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(version / "checkpoints", ec))
            names << QString::fromStdString(e.path().filename().string());
        names.sort();
        return names;
    }

    // The global step of checkpoint `epoch` (the run's epoch numbers are steps).
    int stepOf(int epoch) const
    {
        const Run run = LightningLayout::instance().loadRun(m_version);
        for (const Epoch& e : run.epochs)
            if (e.metadata.get("epoch") == std::to_string(epoch))
                return e.number;
        return -1;
    }

private slots:
    void initTestCase()
    {
        // Debian's python3-torch belongs to /usr/bin/python3 (not a pyenv's).
        for (const QString& candidate :
             {QStringLiteral("/usr/bin/python3"), QStringLiteral("python3")}) {
            QProcess probe;
            probe.start(candidate, {QStringLiteral("-c"), QStringLiteral("import torch, yaml")});
            if (probe.waitForFinished(60000) && probe.exitStatus() == QProcess::NormalExit &&
                probe.exitCode() == 0) {
                m_python = candidate;
                return;
            }
        }
        QSKIP("torch is not importable by /usr/bin/python3 or python3: install python3-torch "
              "(scripts/setup-deps.sh) to run this test");
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_folder = fs::path(m_dir->path().toStdString()) / "mnist run";
        fs::create_directories(m_folder);
        QProcess train;
        train.setWorkingDirectory(QString::fromStdString(m_folder.string()));
        train.start(m_python, {kTrainer, QStringLiteral("--max_epochs"), QStringLiteral("4")});
        QVERIFY(train.waitForFinished(120000));
        QVERIFY2(train.exitCode() == 0, train.readAllStandardError().constData());
        m_version = m_folder / "lightning_logs" / "version_0";
        QCOMPARE(checkpoints(m_version).size(), 4);
    }

    // A restart goes on in the logger's next version, as Lightning's own
    // resume does: from the chosen checkpoint, at Lightning's next epoch, with
    // the edited hyperparameters; version_0 stays byte for byte.
    void restartContinuesInTheNextVersion()
    {
        const auto before = filesByHash(m_version);
        const int from = stepOf(1);
        QVERIFY(from > 0);
        QStringList args{QStringLiteral("launch"), QString::fromStdString(m_version.string()),
                         QStringLiteral("--from"), QString::number(from),
                         QStringLiteral("--set"),  QStringLiteral("max_epochs=6"),
                         QStringLiteral("--set"),  QStringLiteral("hidden=16")};
        const CliResult r = runCli(args + command(), 180000);
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QVERIFY2(r.out.contains("resumed from"), r.out.constData());

        const fs::path next = m_folder / "lightning_logs" / "version_1";
        const QStringList names = checkpoints(next);
        QCOMPARE(names.size(), 4); // epochs 2..5
        QVERIFY2(names.first().startsWith(QStringLiteral("epoch=2-")), qPrintable(names.join(' ')));
        QVERIFY(readAll(next / "metrics.csv").contains("\n2,"));
        QVERIFY(!readAll(next / "metrics.csv").contains("\n1,"));
        QVERIFY2(readAll(next / "hparams.yaml").contains("max_epochs: 6"),
                 readAll(next / "hparams.yaml").constData());
        QVERIFY(filesByHash(m_version) == before);

        // The lineage: version_1 is the restart of version_0 at that checkpoint.
        auto record = LaunchRecord::load(LaunchRecord::pathFor(next));
        QVERIFY(record);
        QVERIFY(record->latest());
        const LaunchPlan& plan = record->latest()->plan;
        QCOMPARE(plan.mode, LaunchPlan::Mode::Restart);
        QVERIFY(plan.parent);
        QCOMPARE(fs::path(plan.parent->runRoot), m_version);
        QCOMPARE(plan.parent->epoch, from);
    }

    // A fork is a new folder holding the checkpoint (hard-linked) and
    // metrics.csv up to its epoch; the trainer goes on there.
    void forkHoldsTheCheckpointAndItsMetrics()
    {
        const auto before = filesByHash(m_version);
        const int from = stepOf(1);
        const fs::path into = fs::path(m_dir->path().toStdString()) / "wider";
        QStringList args{QStringLiteral("launch"),
                         QString::fromStdString(m_version.string()),
                         QStringLiteral("--from"),
                         QString::number(from),
                         QStringLiteral("--fork"),
                         QStringLiteral("--into"),
                         QString::fromStdString(into.string()),
                         QStringLiteral("--set"),
                         QStringLiteral("max_epochs=5")};
        const CliResult r = runCli(args + command(), 180000);
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());

        const fs::path fork = into / "lightning_logs" / "version_0";
        const QString linked = QStringLiteral("epoch=1-step=%1.ckpt").arg(from);
        QCOMPARE(checkpoints(fork).first(), linked);
        struct stat a = {}, b = {};
        QCOMPARE(::stat((fork / "checkpoints" / linked.toStdString()).c_str(), &a), 0);
        QCOMPARE(::stat((m_version / "checkpoints" / linked.toStdString()).c_str(), &b), 0);
        QCOMPARE(a.st_ino, b.st_ino);
        QCOMPARE(checkpoints(fork).size(), 4); // epoch 1 linked, 2..4 trained
        const QByteArray metrics = readAll(fork / "metrics.csv");
        const QList<QByteArray> rows = metrics.trimmed().split('\n');
        QCOMPARE(rows.size(), 6); // the header, epochs 0 and 1 kept, 2..4 appended
        QVERIFY(rows[1].startsWith("0,") && rows[3].startsWith("2,") && rows[5].startsWith("4,"));
        QVERIFY(filesByHash(m_version) == before);
    }

    // Prepared but not launched, then undone: every file as it was.
    void undoBeforeLaunchRestoresEveryFile_data()
    {
        QTest::addColumn<bool>("fork");
        QTest::newRow("restart") << false;
        QTest::newRow("fork") << true;
    }
    void undoBeforeLaunchRestoresEveryFile()
    {
        QFETCH(bool, fork);
        const fs::path all = m_dir->path().toStdString();
        const auto before = filesByHash(all);
        QStringList args{
            QStringLiteral("launch"),        QString::fromStdString(m_version.string()),
            QStringLiteral("--from"),        QString::number(stepOf(2)),
            QStringLiteral("--set"),         QStringLiteral("lr=0.01"),
            QStringLiteral("--prepare-only")};
        if (fork)
            args << QStringLiteral("--fork");
        const CliResult prepared = runCli(args + command());
        QVERIFY2(prepared.exitCode == 0, (prepared.out + prepared.err).constData());
        std::error_code ec;
        // The fork's folder holds the checkpoint; the restart's next version its config.
        const fs::path made = fork ? fs::path(m_dir->path().toStdString()) / "mnist run-fork-e2"
                                   : m_folder / "lightning_logs" / "version_1";
        QVERIFY2(fs::exists(made, ec), made.c_str());
        const CliResult undone =
            runCli({QStringLiteral("launch"), QString::fromStdString(m_version.string()),
                    QStringLiteral("--undo-prepared")});
        QVERIFY2(undone.exitCode == 0, (undone.out + undone.err).constData());
        QVERIFY(filesByHash(all) == before);
        QVERIFY(!fs::exists(made, ec));
    }

    // Lightning restores the optimizer's learning rate on a resume: the plan
    // says so rather than letting the edit look as if it took effect.
    void anOptimizerEditIsNamedInThePlan()
    {
        const CliResult r =
            runCli(QStringList{QStringLiteral("launch"), QString::fromStdString(m_version.string()),
                               QStringLiteral("--from"), QString::number(stepOf(1)),
                               QStringLiteral("--set"), QStringLiteral("lr=0.01"),
                               QStringLiteral("--dry-run")} +
                   command());
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QVERIFY2(r.out.contains("note:        lr: Lightning's resume restores the optimizer state"),
                 r.out.constData());
        QVERIFY(r.out.contains("lr: 0.05 -> 0.01"));
        const CliResult plain =
            runCli(QStringList{QStringLiteral("launch"), QString::fromStdString(m_version.string()),
                               QStringLiteral("--from"), QString::number(stepOf(1)),
                               QStringLiteral("--set"), QStringLiteral("hidden=32"),
                               QStringLiteral("--dry-run")} +
                   command());
        QVERIFY2(!plain.out.contains("note:"), plain.out.constData());
    }

    // A bad checkpoint is refused naming the file, before anything changes.
    void aHalfWrittenCheckpointIsRefused()
    {
        const int from = stepOf(3);
        const fs::path file =
            m_version / "checkpoints" / ("epoch=3-step=" + std::to_string(from) + ".ckpt");
        fs::resize_file(file, fs::file_size(file) / 2);
        const CliResult r =
            runCli(QStringList{QStringLiteral("launch"), QString::fromStdString(m_version.string()),
                               QStringLiteral("--from"), QString::number(from),
                               QStringLiteral("--dry-run")} +
                   command());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QByteArray::fromStdString(file.string())), r.err.constData());
        QVERIFY2(r.err.contains("not a complete torch zip"), r.err.constData());
    }

    // hparams.yaml is edited in place: comments, order and other keys stay.
    void yamlEditsKeepCommentsAndOrder()
    {
        const std::string text = "# from save_hyperparameters\n"
                                 "lr: 0.05  # the base\n"
                                 "layers:\n"
                                 "- 64\n"
                                 "- 32\n"
                                 "name: wide\n";
        const ParamSet original = ParamSet::parseYaml(text, "hparams.yaml");
        auto lr = ParamEdit::parse("lr=0.01");
        auto layers = ParamEdit::parse("layers=[128, 64]");
        auto added = ParamEdit::parse("seed=3");
        QVERIFY(lr && layers && added);
        auto out = ConfigWriter::render(original, {*lr, *layers, *added});
        QVERIFY(out);
        QCOMPARE(QString::fromStdString(*out), QStringLiteral("# from save_hyperparameters\n"
                                                              "lr: 0.01\n"
                                                              "layers: [128,64]\n"
                                                              "name: wide\n"
                                                              "seed: 3\n"));
        const ParamSet back = ParamSet::parseYaml(*out, "hparams.yaml");
        QVERIFY(back.find("lr"));
        QCOMPARE(back.find("lr")->value.pythonLiteral(), std::string("0.01"));
    }

    void metricsCsvIsCutAtTheEpoch()
    {
        const std::string csv = "epoch,step,lr,val_loss\n"
                                "0,9,0.1,1.0\n"
                                ",10,0.1,\n"
                                "1,19,0.1,0.5\n"
                                "2,29,0.1,0.4\n";
        QCOMPARE(LightningResume::cutMetricsCsv(csv, 1),
                 std::string("epoch,step,lr,val_loss\n0,9,0.1,1.0\n,10,0.1,\n1,19,0.1,0.5\n"));
        QCOMPARE(LightningResume::cutMetricsCsv("step,lr\n1,2\n", 0), std::string("step,lr\n"));
    }
};

QTEST_GUILESS_MAIN(tst_LightningResume)
#include "tst_LightningResume.moc"
