#include "writer/KerasH5Reader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <ProcessRunner.h>

// End to end: the real ckpt-demo-train binary, real files.
namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run train(const QStringList& args)
{
    const ckpt::test::ProcessResult p = ckpt::test::runProcess(CKPT_DEMO_TRAIN, args, 120000);
    Run r;
    if (!p.finished)
        return r;
    r.exitCode = p.exitCode;
    r.out = QString::fromUtf8(p.out);
    r.err = QString::fromUtf8(p.err);
    return r;
}

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QStringList epochDirs(const QString& root)
{
    return QDir(root + "/epochs").entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

// training.log rows as (epoch, loss).
QList<QPair<int, double>> losses(const QString& csvPath)
{
    QList<QPair<int, double>> out;
    const QStringList lines = readText(csvPath).split("\r\n", Qt::SkipEmptyParts);
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(',');
        out.append({cells.value(0).toInt(), cells.value(2).toDouble()});
    }
    return out;
}

} // namespace

class tst_Trainer : public QObject
{
    Q_OBJECT

private slots:
    void fiveEpochs();
    void restartContinuesWhereItStopped();
    void configFileAndOverrides();
    void olderSaveLayout();
    void weightsOnlyRestart();
    void errors_data();
    void errors();
};

void tst_Trainer::fiveEpochs()
{
    QTemporaryDir dir;
    const QString out = dir.filePath("run");
    const Run r = train({"--epochs", "5", "--output_dir", out, "--seed", "3"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString root = out + "/ckpts";
    QCOMPARE(epochDirs(root), (QStringList{"001", "002", "003", "004", "005"}));
    const QFileInfo last(root + "/last");
    QVERIFY(last.isSymLink());
    QVERIFY(QFileInfo(last.symLinkTarget()).isAbsolute());
    QCOMPARE(QFileInfo(last.symLinkTarget()).canonicalFilePath(),
             QFileInfo(root + "/epochs/005").canonicalFilePath());
    const QFileInfo best(root + "/best");
    QVERIFY(best.isSymLink());
    QVERIFY(QFileInfo::exists(best.symLinkTarget() + "/model.h5"));
    for (int e = 1; e <= 5; ++e) {
        const QString info =
            readText(root + QString("/epochs/%1/ckpt-info.json").arg(e, 3, 10, QChar('0')));
        QVERIFY2(
            info.startsWith(QString("{\"epoch\": %1, \"save_best_metric\": \"val_loss\", ").arg(e)),
            qPrintable(info));
    }

    const QString csv = readText(out + "/training.log");
    QVERIFY(csv.startsWith("epoch,accuracy,loss,lr,val_accuracy,val_loss\r\n"));
    const auto rows = losses(out + "/training.log");
    QCOMPARE(rows.size(), 5);
    QCOMPARE(rows.first().first, 0);
    QCOMPARE(rows.last().first, 4);
    QVERIFY(rows.last().second < rows.first().second);

    const QString log = readText(root + "/ckpt.log");
    QVERIFY(log.contains("CandleCheckpoint: Callback initialized."));
    QCOMPARE(log.count("CandleCheckpoint: metrics: val_loss: current="), 5);

    auto model = ckpt::KerasH5Reader::read((root + "/last/model.h5").toStdString());
    QVERIFY2(model.ok(), model.ok() ? "" : model.error().message.c_str());
    QCOMPARE(model->layers.size(), size_t(3));
    QCOMPARE(model->layers[0].inputs, 2);
    QCOMPARE(model->layers[2].units, 3);
    QVERIFY(model->optimizerIterations > 0);
}

void tst_Trainer::restartContinuesWhereItStopped()
{
    QTemporaryDir dir;
    const QString out = dir.filePath("run");
    QCOMPARE(train({"--epochs", "5", "--output_dir", out}).exitCode, 0);
    const auto before = losses(out + "/training.log");
    QCOMPARE(before.size(), 5);

    const Run r = train({"--epochs", "9", "--output_dir", out, "--ckpt_restart_mode", "required"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("at epoch 5"));
    const auto after = losses(out + "/training.log"); // overwritten, like many benchmarks
    QCOMPARE(after.size(), 4);
    QCOMPARE(after.first().first, 5);
    QCOMPARE(after.last().first, 8);
    QVERIFY2(after.first().second < before.last().second, "loss went up after the restart");
    QVERIFY(after.last().second < after.first().second);
    QCOMPARE(epochDirs(out + "/ckpts").size(), 9);
    const QString info6 = readText(out + "/ckpts/epochs/006/ckpt-info.json");
    QVERIFY(info6.contains("\"time_elapsed\": \"__FIRST__\""));
    // As with CANDLE, restart() runs before the callback is created.
    const QString log = readText(out + "/ckpts/ckpt.log");
    const qsizetype restartAt = log.indexOf("CANDLE restart(): restarting from epoch: 5\n");
    QVERIFY(restartAt > 0);
    QVERIFY(log.indexOf("CandleCheckpoint: Callback initialized.", restartAt) > restartAt);
    QCOMPARE(log.count("CandleCheckpoint: Callback initialized."), 2);

    // The resumed run reproduces an uninterrupted one exactly (weights, Adam
    // state and per-epoch shuffles all restored).
    const QString straight = dir.filePath("straight");
    QCOMPARE(train({"--epochs", "9", "--output_dir", straight}).exitCode, 0);
    const QStringList a = readText(out + "/training.log").split("\r\n");
    const QStringList b = readText(straight + "/training.log").split("\r\n");
    QCOMPARE(a.mid(1), b.mid(6));
}

void tst_Trainer::configFileAndOverrides()
{
    QTemporaryDir dir;
    const QString ini = dir.filePath("demo.ini");
    QFile f(ini);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("[Global_Params]\nepochs = 3\nlearning_rate = 0.02\ndense = [16, 8]\n"
            "ckpt_save_best = False\n[Ckpt]\nckpt_save_interval = 2\nepochs = 30\n");
    f.close();
    const QString out = dir.filePath("run");
    const Run r = train({"--config_file", ini, "--epochs=4", "--output_dir", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(epochDirs(out + "/ckpts"), (QStringList{"002", "004"}));
    QVERIFY(!QFileInfo(out + "/ckpts/best").isSymLink());
    QVERIFY(readText(out + "/ckpts/epochs/004/ckpt-info.json")
                .contains("\"save_best_metric\": null, \"best_metric_last\": Infinity,"));
    QCOMPARE(losses(out + "/training.log").size(), 4);
    QVERIFY(readText(out + "/training.log").contains(",0.019999999552965164,")); // lr as float32
    auto model = ckpt::KerasH5Reader::read((out + "/ckpts/last/model.h5").toStdString());
    QVERIFY(model.ok());
    QCOMPARE(model->layers[0].units, 16);
    QCOMPARE(model->layers[1].units, 8);
}

void tst_Trainer::olderSaveLayout()
{
    QTemporaryDir dir;
    const QString out = dir.filePath("run");
    const Run r = train({"--epochs", "3", "--output_dir", out, "--ckpt_layout", "save",
                         "--ckpt_keep_limit", "1", "--metadata", "job 4242"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QFileInfo::exists(out + "/save/ckpt.log"));
    QVERIFY(!epochDirs(out + "/save/ckpts").isEmpty());
    QVERIFY(QFileInfo(out + "/save/ckpts/last").isSymLink());
    QVERIFY(
        readText(out + "/save/ckpts/last/ckpt-info.json").contains("\"metadata\": \"job 4242\""));
}

void tst_Trainer::weightsOnlyRestart()
{
    QTemporaryDir dir;
    const QString out = dir.filePath("run");
    QCOMPARE(
        train({"--epochs", "2", "--output_dir", out, "--ckpt_save_weights_only", "yes"}).exitCode,
        0);
    const Run r = train({"--epochs", "3", "--output_dir", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("at epoch 2"));
    QVERIFY(r.out.contains("optimizer state not in checkpoint"));
}

void tst_Trainer::errors_data()
{
    QTest::addColumn<QString>("setup"); // "", "badini", "tamper"
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("bad ini line") << "badini" << QStringList{} << 2 << "bad.ini:3:";
    QTest::newRow("required, nothing there")
        << "" << QStringList{"--ckpt_restart_mode", "required"} << 3 << "required";
    QTest::newRow("checksum mismatch")
        << "tamper" << QStringList{"--ckpt_checksum", "true"} << 3 << "checksum mismatch";
    QTest::newRow("bad restart mode")
        << "" << QStringList{"--ckpt_restart_mode", "maybe"} << 2 << "ckpt_restart_mode";
    QTest::newRow("positional") << "" << QStringList{"oops"} << 2 << "unexpected argument";
    QTest::newRow("bad dense") << "" << QStringList{"--dense", "[0]"} << 2 << "dense";
}

void tst_Trainer::errors()
{
    QFETCH(QString, setup);
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString out = dir.filePath("run");
    QStringList all = {"--epochs", "2", "--output_dir", out};
    if (setup == "badini") {
        QFile f(dir.filePath("bad.ini"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[Global_Params]\nepochs = 2\noptimizer = adam\n");
        f.close();
        all << "--config_file" << dir.filePath("bad.ini");
    } else if (setup == "tamper") {
        QCOMPARE(train({"--epochs", "2", "--output_dir", out, "--ckpt_checksum", "true"}).exitCode,
                 0);
        QFile m(out + "/ckpts/epochs/002/model.h5");
        QVERIFY(m.open(QIODevice::ReadWrite));
        m.seek(m.size() - 1);
        m.write("\x7f");
        m.close();
        all[1] = "3";
    }
    const Run r = train(all + args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.err.startsWith("ckpt-demo-train: error: "));
}

QTEST_GUILESS_MAIN(tst_Trainer)
#include "tst_Trainer.moc"
