#include "CandleFixture.h"
#include "CliRunner.h"
#include "ProcessRunner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <limits>
#include <memory>

using namespace ckpt::test;
namespace fs = std::filesystem;

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        m_root = fs::path(m_tmp->path().toStdString());
    }
    void cleanup() { m_tmp.reset(); }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("needle");
        QTest::newRow("no command") << QStringList{} << 2 << "Usage: ckpt COMMAND";
        QTest::newRow("help") << QStringList{"--help"} << 0 << "scan";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << 2 << "unknown command";
        QTest::newRow("scan help") << QStringList{"scan", "--help"} << 0 << "Usage: ckpt scan";
        QTest::newRow("scan no dir") << QStringList{"scan"} << 2 << "missing argument";
        QTest::newRow("scan bad option") << QStringList{"scan", "--nope", "."} << 2 << "nope";
        QTest::newRow("params help")
            << QStringList{"params", "--help"} << 0 << "Usage: ckpt params";
        QTest::newRow("params missing") << QStringList{"params"} << 2 << "missing argument";
        QTest::newRow("runs help") << QStringList{"runs", "--help"} << 0 << "Usage: ckpt runs";
        QTest::newRow("stop missing") << QStringList{"stop"} << 2 << "missing argument";
        QTest::newRow("stop bad grace")
            << QStringList{"stop", ".", "--grace", "x"} << 2 << "--grace";
        QTest::newRow("launch commands listed") << QStringList{"--help"} << 0 << "params";
    }
    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, needle);
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(r.out + r.err).contains(needle), (r.out + r.err).constData());
    }

    void scanJsonFollowsTheSchema()
    {
        CandleFixture a(m_root / "exp" / "RUN000" / "save" / "ckpts");
        a.addEpoch(1, std::numeric_limits<double>::infinity(), 100, true);
        a.addEpoch(2, 0.5, 200);
        a.addEpoch(3, 0.4, 300);
        a.linkAbsolute("last", 3);
        a.linkAbsolute("best", 3);
        CandleFixture b(m_root / "exp" / "RUN001" / "ckpts");
        b.addEpoch(1, 0.9, 10, true);
        b.linkAbsolute("last", 1);

        const CliResult r = runCli({"scan", "--json", m_tmp->path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = r.json();
        QCOMPARE(j["runs"].size(), 2u);
        const auto& run = j["runs"][0];
        QCOMPARE(run["root"].get<std::string>(), fs::canonical(a.root()).string());
        QCOMPARE(run["layout"].get<std::string>(), std::string("candle"));
        QCOMPARE(run["last"].get<int>(), 3);
        QCOMPARE(run["best"].get<int>(), 3);
        QCOMPARE(run["epochs"].size(), 3u);
        const auto& first = run["epochs"][0];
        QCOMPARE(first["epoch"].get<int>(), 1);
        QCOMPARE(first["model_bytes"].get<int>(), 100);
        QVERIFY(first["info"]["best_metric_last"].is_null()); // Infinity -> null
        QCOMPARE(first["info"]["time_elapsed"].get<std::string>(), std::string("__FIRST__"));
        QCOMPARE(run["epochs"][2]["info"]["best_metric_last"].get<double>(), 0.4);
        QVERIFY(run["problems"].empty());
        QCOMPARE(j["runs"][1]["best"].is_null(), true);
    }

    // Runs are printed as they load, yet in root order: the walk meets a/ckpts,
    // then a/x/ckpts, then a-2/ckpts, and the first run to sort, a-2 ('-' is
    // before '/'), is the last to finish loading.
    void scanJsonPrintsRunsInRootOrderWhateverTheyLoad()
    {
        const std::vector<std::string> names{"a", "a/x", "a-2", "b"};
        for (const std::string& name : names) {
            CandleFixture run(m_root / name / "ckpts");
            const int epochs = name == "a-2" ? 400 : 1;
            for (int e = 1; e <= epochs; ++e)
                run.addEpoch(e, 1.0 / e, 8, e == 1);
            run.linkAbsolute("last", epochs);
        }
        std::vector<std::string> expected;
        for (const std::string& name : names)
            expected.push_back(fs::canonical(m_root / name / "ckpts").string());
        std::sort(expected.begin(), expected.end());
        QCOMPARE(expected.front(), fs::canonical(m_root / "a-2" / "ckpts").string());

        for (int pass = 0; pass < 5; ++pass) {
            const CliResult r = runCli({"scan", "--json", m_tmp->path()});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const auto j = r.json();
            std::vector<std::string> roots;
            for (const auto& run : j["runs"])
                roots.push_back(run["root"].get<std::string>());
            QCOMPARE(roots, expected);
            QCOMPARE(j["runs"][0]["epochs"].size(), 400u);
        }
    }

    void scanReportsProblemsWithExitOne()
    {
        CandleFixture a(m_root / "ckpts");
        a.addEpoch(1, 0.9, 64, true);
        a.addEpoch(2, 0.8, 64);
        a.linkAbsolute("last", 2);
        fs::create_directories(a.root() / "work");
        CandleFixture::backdate(a.root() / "work", 3600); // a crashed save, an hour ago
        a.writeInfo(3, "{\"epoch\": 3, \"save_best");

        const CliResult r = runCli({"scan", "--json", m_tmp->path()});
        QCOMPARE(r.exitCode, 1);
        const auto j = r.json();
        QStringList kinds;
        for (const auto& p : j["runs"][0]["problems"])
            kinds << QString::fromStdString(p["kind"].get<std::string>());
        for (const auto& e : j["runs"][0]["epochs"])
            for (const auto& p : e["problems"])
                kinds << QString::fromStdString(p["kind"].get<std::string>());
        QVERIFY2(kinds.contains("interrupted_save"), qPrintable(kinds.join(',')));
        QVERIFY2(kinds.contains("bad_info"), qPrintable(kinds.join(',')));
        QCOMPARE(j["runs"][0]["liveness"].get<std::string>(), std::string("interrupted"));

        const CliResult human = runCli({"scan", m_tmp->path()});
        QCOMPARE(human.exitCode, 1);
        QVERIFY(human.out.contains("interrupted_save"));
        QVERIFY(human.out.contains(", interrupted\n"));
        QVERIFY(human.out.contains("ckpt-info.json"));
    }

    void scanOfAMissingFolderIsAnIoError()
    {
        const QString missing = m_tmp->path() + "/does-not-exist";
        const CliResult r = runCli({"scan", missing});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("does-not-exist"), r.err.constData());
        // With --json (and --stream) stdout stays empty: no torn document.
        for (const QStringList& json : {QStringList{"--json"}, QStringList{"--json", "--stream"}}) {
            const CliResult j = runCli(QStringList{"scan"} + json + QStringList{missing});
            QCOMPARE(j.exitCode, 2);
            QVERIFY2(j.out.isEmpty(), j.out.constData());
        }
    }

    // `ckpt` runs a plain scan itself, without loading Qt, and hands anything
    // else to the full program it execs: both must print the same.
    void frontEndScansAloneAndHandsTheRestOn()
    {
        CandleFixture a(m_root / "exp" / "RUN000" / "ckpts");
        a.addEpoch(1, std::numeric_limits<double>::infinity(), 100, true);
        a.addEpoch(2, 0.5, 200);
        a.linkAbsolute("last", 2);
        a.writeInfo(3, "{\"epoch\": 3, trunc");
        const QString full = QFileInfo(cliPath()).absolutePath() + "/../libexec/ckpt/ckpt";
        QVERIFY2(QFileInfo(full).isExecutable(), qPrintable(full));

        qputenv("LD_DEBUG", "libs"); // the loader names each library it loads, on stderr
        const CliResult plain = runCli({"scan", "--json", m_tmp->path()});
        const CliResult help = runCli({"scan", "--help"});
        qunsetenv("LD_DEBUG");
        QCOMPARE(plain.exitCode, 1); // epoch 3's record is torn
        QVERIFY2(!plain.err.contains("libQt6Core"), plain.err.constData());
        QVERIFY2(plain.err.contains("libstdc++"), plain.err.constData()); // LD_DEBUG did work
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("Usage: ckpt scan"));
        QVERIFY(help.err.contains("libQt6Core"));

        // Folders as users type them: relative, with "." and "..", doubled and
        // trailing slashes, several at once; the front end makes them absolute
        // as QDir does in the full program.
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_tmp->path() + "/exp"));
        const QList<QStringList> cases{
            {"scan", "--json", "."},
            {"scan", "RUN000/./ckpts/../ckpts//", "--json"},
            {"scan", "--summary", "../exp/RUN000/", m_tmp->path() + "//exp"},
            {"scan", "--json", "--stream", "RUN000"},
            {"scan", "RUN000"},
        };
        for (const QStringList& args : cases) {
            const CliResult front = runCli(args);
            const ProcessResult back = runProcess(full, args);
            QCOMPARE(front.exitCode, back.exitCode);
            QCOMPARE(front.out, back.out);
            QCOMPARE(front.err, back.err);
            QVERIFY2(front.out.contains(QFile::encodeName(m_tmp->path() + "/exp/RUN000/ckpts")),
                     front.out.constData());
        }
        QVERIFY(QDir::setCurrent(before));
    }

    void scanOfAnEmptyFolderSaysSo()
    {
        const CliResult r = runCli({"scan", m_tmp->path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains("no checkpoint runs found"));
    }

    void relinkRollsBackAndUndoRestores()
    {
        CandleFixture a(m_root / "ckpts");
        for (int e = 1; e <= 4; ++e)
            a.addEpoch(e, 1.0 / e, 64, e == 1);
        a.linkAbsolute("last", 4);
        const std::string before = fs::read_symlink(a.root() / "last").string();

        CliResult r =
            runCli({"relink", QString::fromStdString(a.root().string()), "--last", "2", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(fs::read_symlink(a.root() / "last").string(), std::string("epochs/002"));
        const auto j = r.json();
        QCOMPARE(j["previous_target"].get<std::string>(), before);
        QVERIFY(j["restart_overwrites"] == nlohmann::json::array({3, 4}));
        QVERIFY(CandleFixture::readText(a.root() / "ckpt.log").find("linking: last") !=
                std::string::npos);

        r = runCli({"relink", m_tmp->path(), "--undo"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(fs::read_symlink(a.root() / "last").string(), before);
    }

    void relinkRefusesACorruptEpochUnlessForced()
    {
        CandleFixture a(m_root / "ckpts");
        a.addEpoch(1, 0.9, 64, true);
        a.addEpoch(2, 0.8, 64);
        a.linkAbsolute("last", 2);
        std::string model = CandleFixture::readText(a.epochDir(1) / "model.h5");
        model[10] = static_cast<char>(model[10] ^ 0x01);
        a.writeModel(1, model);

        CliResult r = runCli({"relink", m_tmp->path(), "--last", "1"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("checksum"), r.err.constData());
        QVERIFY(fs::read_symlink(a.root() / "last").is_absolute()); // untouched

        r = runCli({"relink", m_tmp->path(), "--last", "1", "--force"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(fs::read_symlink(a.root() / "last").string(), std::string("epochs/001"));
    }

    void copiedRunScansAndRepairsAll()
    {
        CandleFixture a(m_root / "orig" / "ckpts");
        for (int e = 1; e <= 3; ++e)
            a.addEpoch(e, 1.0 / e, 64, e == 1);
        a.linkAbsolute("last", 3);
        a.linkAbsolute("best", 3);
        const fs::path copy = m_root / "copy";
        QCOMPARE(QProcess::execute("cp", {"-a", QString::fromStdString((m_root / "orig").string()),
                                          QString::fromStdString(copy.string())}),
                 0);
        const QString run = QString::fromStdString((copy / "ckpts").string());

        // scan reports the copy's own epochs as last/best, with a copied_link note.
        CliResult r = runCli({"scan", "--json", run});
        const auto scanned = r.json()["runs"][0];
        QCOMPARE(scanned["last"].get<int>(), 3);
        QCOMPARE(scanned["best"].get<int>(), 3);
        QVERIFY2(r.out.contains("copied_link"), r.out.constData());

        r = runCli({"relink", run, "--repair", "all", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.json()["repairs"].size(), std::size_t(2));
        QCOMPARE(fs::read_symlink(copy / "ckpts/last").string(), std::string("epochs/003"));
        QCOMPARE(fs::read_symlink(copy / "ckpts/best").string(), std::string("epochs/003"));
        QVERIFY(fs::read_symlink(a.root() / "last").is_absolute()); // the original untouched

        r = runCli({"relink", run, "--repair", "all"});
        QCOMPARE(r.exitCode, 1); // nothing left to repair
        QVERIFY2(r.err.contains("no link to repair"), r.err.constData());
    }

    void relinkNeedsExactlyOneAction()
    {
        CandleFixture a(m_root / "ckpts");
        a.addEpoch(1, 0.9, 64, true);
        QCOMPARE(runCli({"relink", m_tmp->path()}).exitCode, 2);
        QCOMPARE(runCli({"relink", m_tmp->path(), "--last", "1", "--best", "1"}).exitCode, 2);
        QCOMPARE(runCli({"relink", m_tmp->path(), "--last", "x"}).exitCode, 2);
    }

    void pruneIsADryRunUntilYes()
    {
        CandleFixture a(m_root / "ckpts");
        for (int e = 1; e <= 6; ++e)
            a.addEpoch(e, 1.0 / e, 100, e == 1);
        a.linkAbsolute("last", 6);
        a.linkAbsolute("best", 2);

        CliResult r = runCli({"prune", m_tmp->path(), "--keep-limit", "1", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto j = r.json();
        QVERIFY(j["dry_run"].get<bool>());
        std::vector<int> planned;
        for (const auto& d : j["delete"])
            planned.push_back(d["epoch"].get<int>());
        QCOMPARE(planned, (std::vector<int>{1, 3, 4, 5}));
        for (int e = 1; e <= 6; ++e)
            QVERIFY(fs::exists(a.epochDir(e)));

        r = runCli({"prune", m_tmp->path(), "--keep-limit", "1", "--yes"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (int e : {1, 3, 4, 5})
            QVERIFY(!fs::exists(a.epochDir(e)));
        QVERIFY(fs::exists(a.epochDir(2)));
        QVERIFY(fs::exists(a.epochDir(6)));
        QCOMPARE(runCli({"prune", m_tmp->path()}).exitCode, 2);
        QCOMPARE(
            runCli({"prune", m_tmp->path(), "--keep-limit", "2", "--keep-mode", "odd"}).exitCode,
            2);
    }

    // --trash: the epochs go to the desktop trash (here a home trash under a
    // test XDG_DATA_HOME), each listed with where it went; nothing is deleted.
    void pruneTrashMovesToTheTrash()
    {
        CandleFixture a(m_root / "ckpts");
        for (int e = 1; e <= 4; ++e)
            a.addEpoch(e, 1.0 / e, 100, e == 1);
        a.linkAbsolute("last", 4);
        const QString xdg = m_tmp->path() + "/xdg";
        const QByteArray saved = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", xdg.toUtf8());
        CliResult r =
            runCli({"prune", m_tmp->path(), "--keep-limit", "1", "--yes", "--trash", "--json"});
        qputenv("XDG_DATA_HOME", saved);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto j = r.json();
        QCOMPARE(j["trashed"].size(), std::size_t(3));
        for (const auto& t : j["trashed"]) {
            const fs::path trashed = t["trashed"].get<std::string>();
            QVERIFY2(trashed.string().rfind(xdg.toStdString() + "/Trash/files/", 0) == 0,
                     trashed.c_str());
            QVERIFY(fs::is_regular_file(trashed / "model.h5"));
            QVERIFY(fs::is_regular_file(t["info"].get<std::string>()));
            QVERIFY(!fs::exists(t["dir"].get<std::string>()));
        }
        QVERIFY(fs::exists(a.epochDir(4)));
        QVERIFY(
            CandleFixture::readText(m_root / "ckpts" / "ckpt.log").find("moving to the trash") !=
            std::string::npos);
    }

    void historyMergesTrainingLogAndCkptInfo()
    {
        CandleFixture a(m_root / "out" / "ckpts");
        a.addEpoch(1, 0.9, 64, true);
        a.addEpoch(2, 0.7, 64);
        a.linkAbsolute("last", 2);
        CandleFixture::writeText(m_root / "out" / "training.log",
                                 "epoch,loss,val_loss\r\n0,1.5,0.9\r\n1,1.25,0.7\r\n");

        CliResult r = runCli({"history", "--csv", m_tmp->path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith("epoch,segment,wall_time,"), qPrintable(lines[0]));
        QVERIFY(lines[0].contains("best_so_far"));
        QVERIFY(lines[0].contains(",loss,"));
        QVERIFY2(lines[2].startsWith("2,"), qPrintable(lines[2]));
        QVERIFY2(lines[2].contains(",1.25,"), qPrintable(lines[2]));

        r = runCli({"history", "--json", m_tmp->path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = r.json();
        QCOMPARE(j["rows"].size(), 2u);
        QCOMPARE(j["rows"][1]["values"]["val_loss"].get<double>(), 0.7);
        QCOMPARE(j["rows"][1]["sources"]["val_loss"].get<std::string>(),
                 std::string("training.log"));
        QCOMPARE(runCli({"history", "--csv", "--json", m_tmp->path()}).exitCode, 2);
    }

    void verifyFindsAFlippedByte()
    {
        CandleFixture a(m_root / "r" / "ckpts");
        for (int e = 1; e <= 3; ++e)
            a.addEpoch(e, 1.0 / e, 4096, e == 1);
        a.linkAbsolute("last", 3);
        CliResult r = runCli({"verify", "--json", m_tmp->path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.json()["totals"]["ok"].get<int>(), 3);

        std::string model = CandleFixture::readText(a.epochDir(2) / "model.h5");
        model[100] = static_cast<char>(model[100] ^ 0x40);
        a.writeModel(2, model);
        r = runCli({"verify", "--json", m_tmp->path()});
        QCOMPARE(r.exitCode, 1);
        const auto j = r.json();
        QCOMPARE(j["totals"]["mismatch"].get<int>(), 1);
        const auto& bad = j["runs"][0]["epochs"][1];
        QCOMPARE(bad["epoch"].get<int>(), 2);
        QCOMPARE(bad["status"].get<std::string>(), std::string("mismatch"));
        QCOMPARE(bad["expected"].get<std::string>(),
                 std::to_string(CandleFixture::crc32Of(CandleFixture::modelContent(2, 4096))));
        QCOMPARE(bad["actual"].get<std::string>(), std::to_string(CandleFixture::crc32Of(model)));

        r = runCli({"verify", "--epoch", "3", m_tmp->path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("1 ok"));
        QCOMPARE(runCli({"verify", "--epoch", "9", m_tmp->path()}).exitCode, 2);
        // Several epochs, as a list or repeated: exactly those, in order.
        for (const QStringList& chosen :
             {QStringList{"--epoch", "3,1"}, QStringList{"--epoch", "1", "--epoch", "3"}}) {
            r = runCli(QStringList{"verify", "--json"} + chosen + QStringList{m_tmp->path()});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const auto epochs = r.json()["runs"][0]["epochs"];
            QCOMPARE(epochs.size(), std::size_t(2));
            QCOMPARE(epochs[0]["epoch"].get<int>(), 1);
            QCOMPARE(epochs[1]["epoch"].get<int>(), 3);
        }
        r = runCli({"verify", "--epoch", "3,x", m_tmp->path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("3,x"), r.err.constData());

        fs::remove(a.epochDir(3) / "model.h5");
        r = runCli({"verify", "--epoch", "3", "--json", m_tmp->path()});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json()["runs"][0]["epochs"][0]["status"].get<std::string>(),
                 std::string("missing"));
    }

    void watchPrintsANewEpochAndStopsOnSigterm()
    {
        CandleFixture a(m_root / "r" / "ckpts");
        a.addEpoch(1, 0.9, 64, true);
        a.linkAbsolute("last", 1);

        QProcess p;
        p.start(cliPath(), {"watch", "--json", m_tmp->path()});
        QVERIFY(p.waitForStarted());
        QByteArray seen;
        auto waitFor = [&](const QByteArray& needle) {
            QElapsedTimer t;
            t.start();
            while (!seen.contains(needle) && t.elapsed() < 5000) {
                p.waitForReadyRead(100);
                seen += p.readAllStandardOutput();
            }
            return seen.contains(needle);
        };
        QVERIFY2(waitFor("\"event\":\"ready\""), seen.constData());
        QVERIFY(seen.contains("\"event\":\"run_found\""));
        // Epoch 1 was saved a moment ago: the run counts as live (Liveness).
        QVERIFY2(seen.contains("\"liveness\":\"live\""), seen.constData());

        // A save as CANDLE makes it: write into work/, then rename to epochs/002.
        const fs::path work = a.root() / "work";
        CandleFixture::writeText(work / "model.h5", CandleFixture::modelContent(2, 64));
        CandleFixture::writeText(work / "ckpt-info.json", "{\"epoch\": 2}");
        fs::rename(work, a.epochDir(2));
        QVERIFY2(waitFor("\"event\":\"epoch_added\""), seen.constData());
        QVERIFY(seen.contains("\"epoch\":2"));

        // last pointed outside the run (ln -sfn) at an epoch this run does not have (one it
        // has would be a copied run's link, resolved locally): the problem is an event too.
        QTemporaryDir elsewhere;
        const fs::path target = fs::path(elsewhere.path().toStdString()) / "epochs/099";
        fs::create_directories(target);
        fs::remove(a.root() / "last");
        fs::create_directory_symlink(target, a.root() / "last");
        QVERIFY2(waitFor("link_outside_run"), seen.constData());
        QVERIFY(seen.contains("\"event\":\"run_changed\""));

        p.terminate();
        QVERIFY(p.waitForFinished(5000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
    }

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_root;
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
