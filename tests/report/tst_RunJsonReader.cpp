#include "CandleFixture.h"
#include "DemoRun.h"
#include "KerasFixture.h"
#include "LightningFixture.h"
#include "OrbaxFixture.h"
#include "ProtobufFixture.h"
#include "liveness/Liveness.h"
#include "report/RunJson.h"
#include "report/RunJsonReader.h"
#include "scan/Scanner.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <sstream>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {

// Member-by-member comparison of what a scan builds. Each struct is taken
// apart with a structured binding that names every member: a member added
// to Run, Epoch, EpochFile, EpochMetric, RunLink, RunSource, InProgressItem or
// Problem stops this file compiling until it is compared here, and the
// round trip below then fails until RunJson writes it and RunJsonReader reads it.
class Differences
{
public:
    std::string text() const { return m_out.str(); }

    template <typename T> void same(const std::string& where, const T& a, const T& b)
    {
        if (!(a == b))
            m_out << where << " differs: '" << show(a) << "' vs '" << show(b) << "'\n";
    }

    void run(const Run& a, const Run& b)
    {
        const auto& [root, layout, epochs, links, sources, inProgress, problems, dir] = a;
        const auto& [root2, layout2, epochs2, links2, sources2, inProgress2, problems2, dir2] = b;
        const std::string at = "run " + root;
        same(at + " root", root, root2);
        same(at + " layout", layout, layout2);
        same(at + " dir", dir, dir2);
        list(at + " link", links, links2,
             [&](const std::string& w, const RunLink& x, const RunLink& y) { link(w, x, y); });
        list(at + " source", sources, sources2,
             [&](const std::string& w, const RunSource& x, const RunSource& y) {
                 const auto& [kind, path] = x;
                 const auto& [kind2, path2] = y;
                 same(w + " kind", kind, kind2);
                 same(w + " path", path, path2);
             });
        list(at + " in_progress", inProgress, inProgress2,
             [&](const std::string& w, const InProgressItem& x, const InProgressItem& y) {
                 const auto& [path, epoch] = x;
                 const auto& [path2, epoch2] = y;
                 same(w + " path", path, path2);
                 same(w + " epoch", epoch, epoch2);
             });
        this->problems(at, problems, problems2);
        list(at + " epoch", epochs.items(), epochs2.items(),
             [&](const std::string& w, const Epoch& x, const Epoch& y) { epoch(w, x, y); });
    }

    void problems(const std::string& at, const Problems& a, const Problems& b)
    {
        list(at + " problem", a, b, [&](const std::string& w, const Problem& x, const Problem& y) {
            const auto& [kind, message, path, epoch] = x;
            const auto& [kind2, message2, path2, epoch2] = y;
            same(w + " kind", std::string(toString(kind)), std::string(toString(kind2)));
            same(w + " message", message, message2);
            same(w + " path", path, path2);
            same(w + " epoch", epoch, epoch2);
        });
    }

private:
    void link(const std::string& at, const RunLink& a, const RunLink& b)
    {
        const auto& [name, path, target, epoch, relocated, symlink] = a;
        const auto& [name2, path2, target2, epoch2, relocated2, symlink2] = b;
        same(at + " name", name, name2);
        same(at + " path", path, path2);
        same(at + " target", target, target2);
        same(at + " epoch", epoch, epoch2);
        same(at + " relocated", relocated, relocated2);
        same(at + " symlink", symlink, symlink2);
    }

    void epoch(const std::string& w, const Epoch& a, const Epoch& b)
    {
        const auto& [number, firstSave, recorded, step, elapsed, dir, savedAt, monitored, files,
                     metrics, metadata, problems] = a;
        const auto& [number2, firstSave2, recorded2, step2, elapsed2, dir2, savedAt2, monitored2,
                     files2, metrics2, metadata2, problems2] = b;
        const std::string at = w + " " + std::to_string(number);
        same(at + " number", number, number2);
        same(at + " first_save", firstSave, firstSave2);
        same(at + " recorded", recorded, recorded2);
        same(at + " step", step, step2);
        same(at + " elapsed", elapsed, elapsed2);
        same(at + " dir", dir, dir2);
        same(at + " saved_at", savedAt, savedAt2);
        same(at + " monitored", monitored, monitored2);
        list(at + " file", files, files2,
             [&](const std::string& f, const EpochFile& x, const EpochFile& y) { file(f, x, y); });
        list(at + " metric", metrics, metrics2,
             [&](const std::string& m, const EpochMetric& x, const EpochMetric& y) {
                 const auto& [name, value] = x;
                 const auto& [name2, value2] = y;
                 same(m + " name", name, name2);
                 same(m + " value", Number{value}, Number{value2});
             });
        std::string info, info2;
        for (const auto& [k, v] : metadata)
            info += std::string(k) + "=" + std::string(v) + ";";
        for (const auto& [k, v] : metadata2)
            info2 += std::string(k) + "=" + std::string(v) + ";";
        same(at + " metadata", info, info2);
        same(at + " metadata (packed)", metadata, metadata2);
        this->problems(at, problems, problems2);
    }

    void file(const std::string& at, const EpochFile& a, const EpochFile& b)
    {
        const auto& [name, bytes, present, model, algo, checksum, checkedBytes, mtimeNs, inode] = a;
        const auto& [name2, bytes2, present2, model2, algo2, checksum2, checkedBytes2, mtimeNs2,
                     inode2] = b;
        same(at + " name", name, name2);
        same(at + " bytes", bytes, bytes2);
        same(at + " present", present, present2);
        same(at + " model", model, model2);
        same(at + " algo", std::string(toString(algo)), std::string(toString(algo2)));
        same(at + " checksum", checksum, checksum2);
        same(at + " checked_bytes", checkedBytes, checkedBytes2);
        same(at + " mtime_ns", mtimeNs, mtimeNs2);
        same(at + " inode", inode, inode2);
    }

    // NaN equals NaN here: "the same value as written".
    struct Number
    {
        double v;
        bool operator==(const Number& o) const
        {
            return (std::isnan(v) && std::isnan(o.v)) || v == o.v;
        }
    };

    template <typename T, typename F>
    void list(const std::string& at, const std::vector<T>& a, const std::vector<T>& b, F each)
    {
        same(at + " count", a.size(), b.size());
        for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
            each(at + "[" + std::to_string(i) + "]", a[i], b[i]);
    }

    template <typename T> static std::string show(const T& v)
    {
        std::ostringstream s;
        if constexpr (std::is_same_v<T, Number>)
            s << v.v;
        else if constexpr (std::is_same_v<T, KeyValues>)
            s << "(packed)";
        else if constexpr (requires { v.has_value(); }) {
            if (v)
                s << *v;
            else
                s << "none";
        } else
            s << v;
        return s.str();
    }

    std::ostringstream m_out;
};

std::string differences(const Run& remote, const Run& local)
{
    Differences d;
    d.run(local, remote);
    return d.text();
}

std::string differences(const Problems& remote, const Problems& local)
{
    Differences d;
    d.problems("walk", local, remote);
    return d.text();
}

} // namespace

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

    // A local scan, and the same scan written as JSON and read back, give
    // equal runs, member by member: in process (RunJson::append) and through
    // the real `ckpt scan --json` (what a remote client reads).
    void roundTrip_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<bool>("cli");
        for (const bool cli : {false, true}) {
            const char* how = cli ? " via ckpt scan --json" : "";
            QTest::addRow("demo (trained, restarted)%s", how) << "demo" << cli;
            QTest::addRow("candle with problems%s", how) << "candle" << cli;
            QTest::addRow("orbax with a save in progress%s", how) << "orbax" << cli;
            QTest::addRow("lightning%s", how) << "lightning" << cli;
            QTest::addRow("keras and synalinks%s", how) << "keras" << cli;
            QTest::addRow("mindspore reruns in one folder%s", how) << "mindspore" << cli;
            QTest::addRow("caffe2%s", how) << "caffe2" << cli;
        }
        // Printed as loaded (any order), read back in a local scan's order.
        QTest::addRow("demo via ckpt scan --json --stream") << "demo+stream" << true;
        QTest::addRow("mindspore via ckpt scan --json --stream") << "mindspore+stream" << true;
    }
    void roundTrip()
    {
        QFETCH(QString, layout);
        QFETCH(bool, cli);
        const bool stream = layout.endsWith(QLatin1String("+stream"));
        if (stream)
            layout.chop(7);
        build(layout);
        auto scanned = Scanner::scan(m_root);
        QVERIFY2(scanned, scanned ? "" : scanned.error().message.c_str());
        QVERIFY(!scanned->runs.empty());

        std::string text;
        if (cli) {
            QProcess p;
            QStringList args{"scan", "--json", QString::fromStdString(m_root.string())};
            if (stream)
                args << QStringLiteral("--stream");
            p.start(QStringLiteral(CKPT_CLI_PATH), args);
            QVERIFY(p.waitForFinished(60000));
            text = p.readAllStandardOutput().toStdString();
            QVERIFY2(p.exitCode() <= 1, p.readAllStandardError().constData());
            // The CLI settles each run's liveness before printing it.
            for (Run& run : scanned->runs)
                Liveness::settle(run);
        } else {
            // The streamed form the CLI prints, with an extra member as the CLI adds.
            text = "{\"protocol\": 1, \"runs\": [";
            for (std::size_t i = 0; i < scanned->runs.size(); ++i) {
                text += i == 0 ? "\n" : ",\n";
                RunJson::append(scanned->runs[i], text, {{"liveness", "idle"}});
            }
            text += "\n], \"walk_problems\": ";
            text += RunJson::toJson(scanned->walkProblems).dump();
            text += "}\n";
        }
        auto read = RunJsonReader::scan(text);
        QVERIFY2(read, read ? "" : read.error().message.c_str());
        if (stream)
            std::sort(read->runs.begin(), read->runs.end(),
                      [](const Run& a, const Run& b) { return a.root < b.root; });
        QCOMPARE(read->protocol, 1);
        QCOMPARE(read->runs.size(), scanned->runs.size());
        QVERIFY(!read->liveness.front().empty());
        const std::string walk = differences(read->walkProblems, scanned->walkProblems);
        QVERIFY2(walk.empty(), walk.c_str());
        for (std::size_t i = 0; i < scanned->runs.size(); ++i) {
            const std::string diff = differences(read->runs[i], scanned->runs[i]);
            QVERIFY2(diff.empty(), diff.c_str());
            QCOMPARE(RunJson::toJson(read->runs[i]).dump(),
                     RunJson::toJson(scanned->runs[i]).dump());
        }
    }

    // The comparison itself sees a difference in any member.
    void differencesAreFound_data()
    {
        QTest::addColumn<QString>("member");
        for (const char* m : {"first_save", "elapsed", "saved_at", "monitored", "mtime", "inode",
                              "metric", "info", "in_progress_epoch", "dir"})
            QTest::newRow(m) << m;
    }
    void differencesAreFound()
    {
        QFETCH(QString, member);
        build("demo");
        auto scanned = Scanner::scan(m_root);
        QVERIFY(scanned);
        Run a = scanned->runs.front();
        Run b = a;
        QVERIFY(differences(a, b).empty());
        Epoch& e = *b.editEpoch(b.epochs.back().number);
        if (member == "first_save")
            e.firstSave = !e.firstSave;
        else if (member == "elapsed")
            e.elapsed = e.elapsed.value_or(0) + 1;
        else if (member == "saved_at")
            e.savedAt += "x";
        else if (member == "monitored")
            e.monitored += "x";
        else if (member == "mtime")
            e.files.front().mtimeNs += 1;
        else if (member == "inode")
            e.files.front().inode += 1;
        else if (member == "metric")
            e.metrics.front().value = std::numeric_limits<double>::infinity();
        else if (member == "info")
            e.metadata.set("epoch", "12.0");
        else if (member == "in_progress_epoch")
            b.inProgress.push_back({"/x", 3});
        else
            b.dir = "/elsewhere";
        QVERIFY(!differences(a, b).empty());
        qInfo("%s", differences(a, b).c_str());
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
            const fs::path run = m_root / "EXP" / "RUN000";
            const std::string config = (run / "config.ini").string();
            trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), run, config,
                         "[Global_Params]\nepochs = 5\nlearning_rate = 0.01\n"
                         "samples_per_class = 40\nckpt_checksum = True\n");
            // A second process continuing from `last`: epoch 6's first_save,
            // elapsed "__FIRST__", a restart boundary.
            trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), run, config,
                         "[Global_Params]\nepochs = 6\nlearning_rate = 0.01\n"
                         "samples_per_class = 40\nckpt_checksum = True\n"
                         "ckpt_restart_mode = 'required'\n");
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
        } else if (layout == QLatin1String("keras")) {
            const fs::path k = m_root / "keras";
            fs::create_directories(k);
            KerasFixture::h5(k / "weights.01-0.50.h5", 1);
            KerasFixture::h5(k / "weights.02-0.25.h5", 2);
            KerasFixture::keras(k / "weights.03-0.12.keras", 3);
            KerasFixture::h5(k / "weights.04-0.10.h5", 4);
            KerasFixture::truncate(k / "weights.04-0.10.h5", 512); // a save cut short
            const fs::path syn = m_root / "synalinks";
            fs::create_directories(syn);
            KerasFixture::variables(syn / "checkpoint.01-0.50.variables.json", 0.5);
            KerasFixture::variables(syn / "checkpoint.02-0.75.variables.json", 0.25);
        } else if (layout == QLatin1String("mindspore")) {
            const fs::path m = m_root / "ms";
            for (const std::string prefix : {"net", "net_1"})
                for (int e = 1; e <= 3; ++e)
                    ProtobufFixture::write(
                        m / (prefix + "-" + std::to_string(e) + "_" + std::to_string(e * 10) +
                             ".ckpt"),
                        ProtobufFixture::mindspore(ProtobufFixture::network(e, e * 10), true));
            ProtobufFixture::write(m / "net-graph.meta", "graph");
            ProtobufFixture::write(m / "net_1-4_40.tmp", "partial");
        } else if (layout == QLatin1String("caffe2")) {
            const fs::path c = m_root / "caffe2";
            for (int e = 1; e <= 3; ++e)
                for (const std::string node : {"trainer_0", "trainer_1"})
                    if (e < 3 || node == "trainer_0") // epoch 3: one node still writing
                        ProtobufFixture::write(
                            c / (node + "." + std::to_string(e)),
                            ProtobufFixture::minidb(
                                {C2Blob{"w", {2}, {float(e), 1}, {}, -1, -1, {}, 0, {}}}));
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
