#include "CliRunner.h"
#include "FileTree.h"
#include "launch/LaunchRecord.h"

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

// An Orbax run steered as its users resume it (`manager.restore(step)`): the
// example trainer (resources/examples/orbax_trainer.py, NumPy) trained, then
// restarted in place and forked through `ckpt launch`, and a prepared restart
// undone.
class tst_OrbaxResume : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    fs::path m_root;   // the manager's directory
    fs::path m_config; // the hyperparameters, named once

    const QString kTrainer = QStringLiteral(CKPT_SOURCE_DIR "/resources/examples/orbax_trainer.py");

    QStringList command() const
    {
        return {QStringLiteral("--"),
                QStringLiteral("/usr/bin/python3"),
                kTrainer,
                QStringLiteral("--config"),
                QStringLiteral("{config}"),
                QStringLiteral("--checkpoint_dir"),
                QStringLiteral("{run_dir}"),
                QStringLiteral("--restore_step"),
                QStringLiteral("{step}")};
    }

    QStringList launch(int from, const QStringList& more) const
    {
        return QStringList{QStringLiteral("launch"),   QString::fromStdString(m_root.string()),
                           QStringLiteral("--from"),   QString::number(from),
                           QStringLiteral("--config"), QString::fromStdString(m_config.string())} +
               more + command();
    }


    static QStringList steps(const fs::path& root)
    {
        QStringList names;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(root, ec))
            if (e.path().filename().string().front() != '.')
                names << QString::fromStdString(e.path().filename().string());
        std::sort(names.begin(), names.end(),
                  [](const QString& a, const QString& b) { return a.toInt() < b.toInt(); });
        return names;
    }

private slots:
    void initTestCase()
    {
        QProcess probe;
        probe.start(QStringLiteral("/usr/bin/python3"),
                    {QStringLiteral("-c"), QStringLiteral("import numpy")});
        if (!probe.waitForFinished(60000) || probe.exitCode() != 0)
            QSKIP("numpy is not importable by /usr/bin/python3: install python3-numpy "
                  "(scripts/setup-deps.sh) to run this test");
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        const fs::path base = m_dir->path().toStdString();
        m_root = base / "jax run" / "ckpts";
        m_config = base / "jax run" / "params.json";
        fs::create_directories(m_root.parent_path());
        QFile config(QString::fromStdString(m_config.string()));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("{\n    \"lr\": 0.05,\n    \"steps\": 40\n}\n");
        config.close();
        QProcess train;
        train.start(QStringLiteral("/usr/bin/python3"),
                    {kTrainer, QStringLiteral("--config"),
                     QString::fromStdString(m_config.string()), QStringLiteral("--checkpoint_dir"),
                     QString::fromStdString(m_root.string())});
        QVERIFY(train.waitForFinished(60000));
        QVERIFY2(train.exitCode() == 0, train.readAllStandardError().constData());
        QCOMPARE(steps(m_root), (QStringList{"10", "20", "30", "40"}));
    }

    // In place: the later steps go aside, the trainer restores step 20 and
    // its next save is step 30 again, with the edited steps.
    void restartMovesLaterStepsAside()
    {
        const CliResult r =
            runCli(launch(20, {QStringLiteral("--set"), QStringLiteral("steps=50")}), 120000);
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QVERIFY2(r.out.contains("restored step 20"), r.out.constData());
        QCOMPARE(steps(m_root), (QStringList{"10", "20", "30", "40", "50"}));
        // The steps it trained again are new; the old ones are kept aside.
        std::error_code ec;
        int aside = 0;
        for (const auto& e :
             fs::recursive_directory_iterator(m_root / ".ckpt-studio" / "superseded", ec))
            aside += e.path().filename() == "_CHECKPOINT_METADATA";
        QCOMPARE(aside, 2); // steps 30 and 40 as they were
        auto record = LaunchRecord::load(LaunchRecord::pathFor(m_root));
        QVERIFY(record && record->latest() && record->latest()->plan.parent);
        QCOMPARE(record->latest()->plan.parent->epoch, 20);
    }

    // A fork is a new manager directory holding step 20 (hard-linked); the
    // parent keeps every byte.
    void forkHoldsTheStep()
    {
        const auto before = filesByHash(m_root);
        const fs::path into = fs::path(m_dir->path().toStdString()) / "lower lr";
        const CliResult r = runCli(launch(20, {QStringLiteral("--fork"), QStringLiteral("--into"),
                                               QString::fromStdString(into.string()),
                                               QStringLiteral("--set"), QStringLiteral("lr=0.01")}),
                                   120000);
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QCOMPARE(steps(into), (QStringList{"20", "30", "40"}));
        struct stat a = {}, b = {};
        QCOMPARE(::stat((into / "20" / "_CHECKPOINT_METADATA").c_str(), &a), 0);
        QCOMPARE(::stat((m_root / "20" / "_CHECKPOINT_METADATA").c_str(), &b), 0);
        QCOMPARE(a.st_ino, b.st_ino);
        QFile meta(QString::fromStdString((into / "40" / "_CHECKPOINT_METADATA").string()));
        QVERIFY(meta.open(QIODevice::ReadOnly));
        QVERIFY(meta.readAll().contains("\"lr\": 0.01"));
        QVERIFY(filesByHash(m_root) == before);
    }

    void undoBeforeLaunchRestoresEveryFile()
    {
        const fs::path all = m_dir->path().toStdString();
        const auto before = filesByHash(all);
        const CliResult prepared = runCli(launch(10, {QStringLiteral("--prepare-only")}));
        QVERIFY2(prepared.exitCode == 0, (prepared.out + prepared.err).constData());
        QCOMPARE(steps(m_root), (QStringList{"10"}));
        const CliResult undone =
            runCli({QStringLiteral("launch"), QString::fromStdString(m_root.string()),
                    QStringLiteral("--undo-prepared")});
        QVERIFY2(undone.exitCode == 0, (undone.out + undone.err).constData());
        QVERIFY(filesByHash(all) == before);
    }

    // A save still in progress is never a resume point.
    void anInProgressStepIsNoResumePoint()
    {
        std::error_code ec;
        fs::rename(m_root / "40", m_root / "40.orbax-checkpoint-tmp-1", ec);
        QVERIFY(!ec);
        const CliResult r = runCli(launch(40, {QStringLiteral("--dry-run")}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no epoch 40"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(tst_OrbaxResume)
#include "tst_OrbaxResume.moc"
