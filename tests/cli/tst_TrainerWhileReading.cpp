// A trainer writing while we read: the real demo trainer (ckpt-demo-train)
// saves epochs quickly, the CANDLE way (work/ then a rename, links moved after),
// while the real `ckpt scan --json`, `ckpt verify --json`, `ckpt diff` of the
// two newest epochs run in a loop and `ckpt watch --json` follows the run. A
// half-saved epoch must never be listed, verified or diffed as finished, verify
// must never say `mismatch`, nothing may crash, an exit status 2 only where an
// epoch the trainer itself removed is named; once the trainer is done, verify
// says `ok` for every epoch it saved.
#include "CliRunner.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <set>

using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {

// Epochs whose directories are finished: what the trainer renamed in.
std::set<int> epochsOnDisk(const fs::path& root)
{
    std::set<int> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root / "epochs", ec)) {
        const std::string name = e.path().filename().string();
        if (!name.empty() && std::isdigit(static_cast<unsigned char>(name.front())))
            out.insert(std::stoi(name));
    }
    return out;
}

} // namespace

class tst_TrainerWhileReading : public QObject
{
    Q_OBJECT
private slots:
    void readersWhileTheTrainerSaves();
};

void tst_TrainerWhileReading::readersWhileTheTrainerSaves()
{
    const QString trainer = QStringLiteral(CKPT_DEMO_TRAIN);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.path() + QStringLiteral("/RUN000");
    const fs::path root = fs::path(out.toStdString()) / "ckpts";
    const QString r = QString::fromStdString(root.string());
    constexpr int kEpochs = 40;

    QProcess watch;
    watch.start(cliPath(), {"watch", "--json", "--poll", "100", dir.path()});
    QVERIFY(watch.waitForStarted());
    QProcess training;
    training.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    training.setStandardOutputFile(QProcess::nullDevice());
    training.start(trainer, {"--output_dir", out, "--config_file",
                             QStringLiteral(CKPT_SOURCE_DIR "/resources/demo/spirals.ini"),
                             "--samples_per_class", "30", "--epochs", QString::number(kEpochs),
                             "--epoch_delay", "0.05",
                             // 800 kB models: a save takes long enough to be read into
                             "--dense", "[256, 256]"});
    QVERIFY(training.waitForStarted());

    QElapsedTimer clock;
    clock.start();
    int rounds = 0, diffs = 0, verifiedMidway = 0;
    QByteArray seen; // watch's output, read as it comes (its pipe must not fill)
    // (waitForFinished(0) lets QProcess notice the exit: no event loop runs here.)
    while (!training.waitForFinished(0) && training.state() != QProcess::NotRunning) {
        watch.waitForReadyRead(0);
        seen += watch.readAllStandardOutput();
        QVERIFY2(clock.elapsed() < 40000, "the trainer did not finish in 40 s");
        ++rounds;
        const QByteArray round = "round " + QByteArray::number(rounds) + ": ";
        const CliResult scan = runCli({"scan", "--json", dir.path()});
        QVERIFY2(scan.exitCode == 0 || scan.exitCode == 1, (round + scan.err).constData());
        const nlohmann::json runs = scan.json()["runs"];
        if (runs.empty())
            continue; // the trainer has not saved its first epoch yet
        QCOMPARE(runs.size(), std::size_t(1));
        std::vector<int> listed;
        for (const auto& e : runs[0]["epochs"]) {
            listed.push_back(e["epoch"].get<int>());
            // A listed epoch is one the trainer renamed in whole: never work/.
            QVERIFY2(e.dump().find("/work") == std::string::npos, (round + scan.out).constData());
        }
        // Every problem is one a live save explains (none is expected at all).
        for (const auto& p : runs[0]["problems"])
            QVERIFY2(false, (round + QByteArray::fromStdString(p.dump())).constData());
        for (const auto& e : runs[0]["epochs"])
            QVERIFY2(!e.contains("problems") || e["problems"].empty(),
                     (round + QByteArray::fromStdString(e.dump())).constData());

        const CliResult verify = runCli({"verify", "--json", r});
        QVERIFY2(verify.exitCode == 0, (round + verify.out + verify.err).constData());
        QVERIFY2(!verify.out.contains("\"status\": \"mismatch\""),
                 (round + verify.out).constData());
        verifiedMidway += !training.waitForFinished(0);

        if (listed.size() >= 2) {
            std::sort(listed.begin(), listed.end());
            const QString a = QString::number(listed[listed.size() - 2]);
            const QString b = QString::number(listed.back());
            const CliResult diff = runCli({"diff", r, "--epochs", a, b, "--json"});
            QVERIFY2(diff.exitCode == 0, (round + diff.err).constData());
            QVERIFY(!diff.json()["tensors"].empty());
            ++diffs;
        }
    }
    QCOMPARE(training.exitStatus(), QProcess::NormalExit);
    QCOMPARE(training.exitCode(), 0);
    QVERIFY2(verifiedMidway >= 3, "the readers hardly overlapped the trainer: nothing proved");

    // Every epoch the trainer saved is verified ok.
    const std::set<int> saved = epochsOnDisk(root);
    QCOMPARE(int(saved.size()), kEpochs);
    const CliResult verify = runCli({"verify", "--json", r});
    QVERIFY2(verify.exitCode == 0, (verify.out + verify.err).constData());
    std::set<int> ok;
    QByteArray others;
    const nlohmann::json verified = verify.json();
    for (const auto& run : verified["runs"])
        for (const auto& e : run["epochs"])
            if (e["status"] == "ok")
                ok.insert(e["epoch"].get<int>());
            else
                others += QByteArray::fromStdString(e.dump()) + "\n";
    QVERIFY2(ok == saved, ("ok " + QByteArray::number(qsizetype(ok.size())) + " of " +
                           QByteArray::number(qsizetype(saved.size())) + "\n" + others)
                              .constData());

    // watch: each saved epoch announced (the first ones with the run), whole JSON lines, never
    // work/.
    std::set<int> added;
    QElapsedTimer wait;
    wait.start();
    while (added != saved && wait.elapsed() < 10000) {
        watch.waitForReadyRead(100);
        seen += watch.readAllStandardOutput();
        added.clear();
        QList<QByteArray> lines = seen.split('\n');
        lines.removeLast(); // empty, or a line still being written
        for (const QByteArray& line : lines) {
            const nlohmann::json j = nlohmann::json::parse(line.toStdString());
            if (j.contains("event") && j["event"] == "epoch_added")
                added.insert(j["epoch"].get<int>());
            if (j.contains("event") && j["event"] == "run_added") // found with its first epochs
                for (int e = 1; e <= j["epochs"].get<int>(); ++e)
                    added.insert(e);
        }
    }
    QVERIFY2(added == saved, seen.left(3000).constData());
    QVERIFY2(!seen.contains("/work\""), seen.right(2000).constData());
    watch.terminate();
    QVERIFY(watch.waitForFinished(5000));
    QCOMPARE(watch.exitStatus(), QProcess::NormalExit);
    QCOMPARE(watch.exitCode(), 0);
    qInfo("%d rounds while the trainer ran (%d diffs), %lld ms", rounds, diffs,
          static_cast<long long>(clock.elapsed()));
}

QTEST_GUILESS_MAIN(tst_TrainerWhileReading)
#include "tst_TrainerWhileReading.moc"
