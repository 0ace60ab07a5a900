#include "CandleFixture.h"
#include "DemoRun.h"
#include "LightningFixture.h"
#include "OrbaxFixture.h"
#include "report/RunJson.h"
#include "report/RunJsonReader.h"
#include "scan/Scanner.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <memory>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

// What `ckpt scan --json` prints, read back by RunJsonReader (the remote
// client's model of a far run), is the run a local scan gives: writing the read
// run again gives the same JSON, and the fields the views use are equal.
class TestRunJsonReader : public QObject
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

    void roundTrip_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::newRow("demo (trained)") << "demo";
        QTest::newRow("candle with problems") << "candle";
        QTest::newRow("orbax with a save in progress") << "orbax";
        QTest::newRow("lightning") << "lightning";
    }
    void roundTrip()
    {
        QFETCH(QString, layout);
        build(layout);
        auto scanned = Scanner::scan(m_root);
        QVERIFY2(scanned, scanned ? "" : scanned.error().message.c_str());
        QVERIFY(!scanned->runs.empty());

        // The streamed form the CLI prints, with an extra member as the CLI adds.
        std::string text = "{\"protocol\": 1, \"runs\": [";
        for (std::size_t i = 0; i < scanned->runs.size(); ++i) {
            text += i == 0 ? "\n" : ",\n";
            RunJson::write(scanned->runs[i], [&](std::string_view chunk) { text += chunk; },
                           {{"liveness", "idle"}});
        }
        text += "\n]}\n";
        auto read = RunJsonReader::scan(text);
        QVERIFY2(read, read ? "" : read.error().message.c_str());
        QCOMPARE(read->protocol, 1);
        QCOMPARE(read->runs.size(), scanned->runs.size());
        QCOMPARE(read->liveness.front(), std::string("idle"));

        for (std::size_t i = 0; i < scanned->runs.size(); ++i) {
            const Run& local = scanned->runs[i];
            const Run& remote = read->runs[i];
            QCOMPARE(RunJson::toJson(remote).dump(), RunJson::toJson(local).dump());
            QCOMPARE(remote.root, local.root);
            QCOMPARE(remote.layout, local.layout);
            QCOMPARE(remote.epochs.size(), local.epochs.size());
            for (std::size_t e = 0; e < local.epochs.size(); ++e) {
                const Epoch& a = local.epochs[e];
                const Epoch& b = remote.epochs[e];
                QCOMPARE(b.number, a.number);
                QCOMPARE(b.dir, a.dir);
                QCOMPARE(b.step, a.step);
                QCOMPARE(b.modelBytes(), a.modelBytes());
                QCOMPARE(remote.modelPath(b), local.modelPath(a));
                QCOMPARE(b.metrics.size(), a.metrics.size());
                for (std::size_t m = 0; m < a.metrics.size(); ++m) {
                    QCOMPARE(b.metrics[m].name, a.metrics[m].name);
                    if (std::isfinite(a.metrics[m].value))
                        QCOMPARE(b.metrics[m].value, a.metrics[m].value);
                    else
                        QVERIFY(std::isnan(b.metrics[m].value));
                }
                QCOMPARE(b.problems.size(), a.problems.size());
            }
            QCOMPARE(remote.links.size(), local.links.size());
            for (const RunLink& l : local.links)
                QCOMPARE(remote.linkedEpoch(l.name), local.linkedEpoch(l.name));
            QCOMPARE(remote.sources.size(), local.sources.size());
            QCOMPARE(remote.inProgress.size(), local.inProgress.size());
            QCOMPARE(remote.allProblems().size(), local.allProblems().size());
        }
    }

    void rejectsWhatIsNotAScan_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("needle");
        QTest::newRow("not json") << "{\"runs\": ["
                                  << "not JSON";
        QTest::newRow("no runs") << "{\"protocol\": 1}"
                                 << "no \"runs\"";
        QTest::newRow("run without root") << "{\"runs\": [{}]}"
                                          << "without a root";
        QTest::newRow("epoch without number")
            << "{\"runs\": [{\"root\": \"/r\", \"epochs\": [{}]}]}"
            << "without a number";
    }
    void rejectsWhatIsNotAScan()
    {
        QFETCH(QString, text);
        QFETCH(QString, needle);
        auto read = RunJsonReader::scan(text.toStdString());
        QVERIFY(!read);
        QVERIFY2(QString::fromStdString(read.error().message).contains(needle),
                 read.error().message.c_str());
    }

    void unknownProblemKindsAreKept()
    {
        auto read = RunJsonReader::scan(
            R"({"protocol": 2, "runs": [{"root": "/r", "layout": "candle", "epochs": [],
                "problems": [{"kind": "from_the_future", "message": "m", "path": "/r/x"}]}]})");
        QVERIFY(read);
        QCOMPARE(read->protocol, 2);
        QCOMPARE(read->runs[0].problems.size(), std::size_t(1));
        QCOMPARE(read->runs[0].problems[0].message, std::string("m"));
    }

private:
    void build(const QString& layout)
    {
        if (layout == QLatin1String("demo")) {
            trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_root / "EXP" / "RUN000",
                         (m_root / "EXP" / "RUN000" / "config.ini").string(),
                         "[Global_Params]\nepochs = 5\nlearning_rate = 0.01\n"
                         "samples_per_class = 40\nckpt_checksum = True\n");
        } else if (layout == QLatin1String("candle")) {
            CandleFixture a(m_root / "A" / "ckpts");
            a.addEpoch(1, std::numeric_limits<double>::infinity(), 100, true);
            a.addEpoch(2, 0.5, 200);
            a.addEpoch(3, 0.4, std::nullopt); // info without model
            a.writeInfo(4, "{\"epoch\": 4, trunc");
            a.linkAbsolute("last", 2);
            a.linkRelative("best", 9); // to a missing epoch
            CandleFixture::writeText(m_root / "A" / "training.log", "epoch,loss\n0,1\n");
        } else if (layout == QLatin1String("orbax")) {
            OrbaxFixture o(m_root / "orbax");
            o.addStep(100, {{"loss", 0.5}});
            o.addStep(200, {{"loss", 0.25}, {"acc", 0.9}});
            o.addTmp(300);
        } else {
            LightningFixture l(m_root / "lightning");
            l.addCheckpoint(0, 10);
            l.addCheckpoint(1, 20);
            l.linkLast(LightningFixture::ckptName(1, 20));
            l.writeMetrics("epoch,step,val_loss\n0,9,0.5\n1,19,0.25\n");
        }
    }

    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_root;
};

QTEST_GUILESS_MAIN(TestRunJsonReader)
#include "tst_RunJsonReader.moc"
