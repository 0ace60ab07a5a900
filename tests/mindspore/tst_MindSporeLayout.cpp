#include "checksum/Verifier.h"
#include "layout/DirReader.h"
#include "mindspore/MindSporeLayout.h"
#include "mindspore/MindSporeName.h"
#include "scan/Scanner.h"

#include <QTemporaryDir>
#include <QTest>

#include <ProtobufFixture.h>
#include <filesystem>

using namespace ckpt;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

void save(const fs::path& dir, const std::string& name, int epoch, int step, bool crc = true,
          float shift = 0.0f)
{
    ProtobufFixture::write(
        dir / name, ProtobufFixture::mindspore(ProtobufFixture::network(epoch, step, shift), crc),
        true);
}

const Problem* problemAbout(const Problems& problems, const std::string& text)
{
    for (const auto& p : problems)
        if (p.message.find(text) != std::string::npos)
            return &p;
    return nullptr;
}

} // namespace

class tst_MindSporeLayout : public QObject
{
    Q_OBJECT

private slots:
    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("epoch"); // -1: not an epoch
        QTest::addColumn<bool>("tmp");
        QTest::newRow("plain") << "resnet-3_1875.ckpt" << 3 << false;
        QTest::newRow("second run") << "resnet_1-12_100.ckpt" << 12 << false;
        QTest::newRow("dashes in prefix") << "my-net-2_5.ckpt" << 2 << false;
        QTest::newRow("breakpoint") << "resnet-4_17_breakpoint.ckpt" << 4 << false;
        QTest::newRow("tmp") << "resnet-5_1875.tmp" << -1 << true;
        QTest::newRow("ckpt.tmp") << "resnet-5_1875.ckpt.tmp" << -1 << true;
        QTest::newRow("graph") << "resnet-graph.meta" << -1 << false;
        QTest::newRow("lightning") << "epoch=3-step=100.ckpt" << -1 << false;
        QTest::newRow("no step") << "resnet-3.ckpt" << -1 << false;
        QTest::newRow("no prefix") << "-3_1.ckpt" << -1 << false;
        QTest::newRow("hidden") << ".resnet-3_1.ckpt" << -1 << false;
        QTest::newRow("huge epoch") << "net-99999999999_1.ckpt" << -1 << false;
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(int, epoch);
        QFETCH(bool, tmp);
        const auto& layout = MindSporeLayout::instance();
        QCOMPARE(layout.epochNumberOf(name.toStdString()).value_or(-1), epoch);
        QCOMPARE(layout.isInProgressName(name.toStdString()), tmp);
    }

    void runOfPrefix()
    {
        QCOMPARE(MindSporeName::runOf("net_2"), (std::pair<std::string, int>{"net", 2}));
        QCOMPARE(MindSporeName::runOf("net"), (std::pair<std::string, int>{"net", 0}));
        QCOMPARE(MindSporeName::runOf("net_0"), (std::pair<std::string, int>{"net_0", 0}));
    }

    void loadsEpochsStepsSourcesAndProblems()
    {
        QTemporaryDir tmp;
        const fs::path root = fs::path(tmp.path().toStdString()) / "ckpt";
        save(root, "net-1_100.ckpt", 1, 100);
        save(root, "net-2_50.ckpt", 2, 50, false); // an intermediate save of epoch 2
        save(root, "net-2_100.ckpt", 2, 100);
        save(root, "net-3_17_breakpoint.ckpt", 3, 17);
        ProtobufFixture::write(root / "net-graph.meta", "graph");
        ProtobufFixture::write(root / "net-4_100.tmp", "partial");
        ProtobufFixture::write(root / "notes.txt", "hello");

        const auto& layout = MindSporeLayout::instance();
        auto listing = DirReader::list(root);
        QVERIFY(listing.ok());
        QVERIFY(layout.isRunRoot(*listing));
        const Run run = layout.loadRun(root);
        QCOMPARE(run.layout, std::string("mindspore"));
        QCOMPARE(run.epochs.size(), std::size_t(3));
        QCOMPARE(run.epochs[0].number, 1);
        QCOMPARE(run.epochs[0].step, std::optional<std::int64_t>(100));
        QVERIFY(run.epochs[0].firstSave);
        QVERIFY(!run.epochs[1].firstSave);
        QVERIFY(!run.epochs[0].savedAt.empty());
        // Epoch 2: the highest step is the model; the intermediate save is listed too.
        const Epoch& e2 = run.epochs[1];
        QCOMPARE(e2.files.size(), std::size_t(2));
        QCOMPARE(e2.files[0].name, std::string("net-2_100.ckpt"));
        QVERIFY(e2.files[0].model && !e2.files[1].model);
        QVERIFY(e2.files[0].algo == ChecksumAlgo::Crc32);
        QVERIFY(e2.files[0].checkedBytes + 17 == e2.files[0].bytes);
        QVERIFY(e2.problems.empty());
        // Epoch 3 was saved on an exception.
        const Epoch& e3 = run.epochs[2];
        QVERIFY(problemAbout(e3.problems, "saved on an exception"));
        QCOMPARE(e3.problems[0].epoch, std::optional<int>(3));
        // graph.meta is a run source; the .tmp is in progress, never an epoch.
        QCOMPARE(run.sourcePath("graph_meta"), run.root + "/net-graph.meta");
        QCOMPARE(run.inProgress.size(), std::size_t(1));
        QCOMPARE(run.inProgress[0].epoch, std::optional<int>(4));
        QVERIFY(problemAbout(run.problems, "net-4_100.tmp"));
        QVERIFY(!run.findEpoch(4));

        auto one = layout.loadEpoch(run, 2);
        QVERIFY(one);
        QCOMPARE(one->files.size(), std::size_t(2));
        QVERIFY(!layout.loadEpoch(run, 9));
    }

    void secondRunInTheSameFolderIsARunOfItsOwn()
    {
        // The rest of the reruns' story: tst_MindSporeReruns.
        QTemporaryDir tmp;
        const fs::path root = fs::path(tmp.path().toStdString()) / "ckpt";
        save(root, "net-1_10.ckpt", 1, 10);
        save(root, "net-2_10.ckpt", 2, 10);
        save(root, "net_1-2_10.ckpt", 2, 10, true, 0.5f);
        const auto& layout = MindSporeLayout::instance();
        auto listing = DirReader::list(root);
        QVERIFY(listing.ok());
        QCOMPARE(layout.runRoots(*listing),
                 (std::vector<std::string>{root.string() + "/net", root.string() + "/net_1"}));
        const Run second = layout.loadRun(root / "net_1");
        QCOMPARE(second.epochs.size(), std::size_t(1));
        QCOMPARE(second.epochs[0].files.size(), std::size_t(1));
        QVERIFY(second.epochs[0].firstSave);
        QVERIFY(second.epochs[0].problems.empty());
        // The folder itself is no run any more: it says which to open.
        const Run folder = layout.loadRun(root);
        QVERIFY(folder.epochs.empty());
        QVERIFY(problemAbout(folder.problems, root.string() + "/net_1"));
    }

    void verifyChecksCrcTrailers()
    {
        QTemporaryDir tmp;
        const fs::path root = fs::path(tmp.path().toStdString()) / "ckpt";
        save(root, "net-1_10.ckpt", 1, 10);
        save(root, "net-2_10.ckpt", 2, 10, false);
        // Epoch 3: one value byte flipped after saving.
        std::string bad = ProtobufFixture::mindspore(ProtobufFixture::network(3, 10), true);
        bad[bad.find(ProtobufFixture::floats({3.0f})) + 3] ^= 0x01;
        ProtobufFixture::write(root / "net-3_10.ckpt", bad, true);

        const Run run = MindSporeLayout::instance().loadRun(root);
        Verifier::Options o;
        o.threads = 2;
        o.splitBytes = 64; // several parts per file: the bounded range is split too
        auto report = Verifier::verifyRun(run, o);
        QVERIFY(report.ok());
        const auto& v = report->runs[0].epochs;
        QCOMPARE(v.size(), std::size_t(3));
        QCOMPARE(int(v[0].status), int(VerifyStatus::Ok));
        QCOMPARE(int(v[1].status), int(VerifyStatus::NoChecksum));
        QCOMPARE(int(v[2].status), int(VerifyStatus::Mismatch));
        QVERIFY(v[2].message.find("net-3_10.ckpt") != std::string::npos);
    }

    void discoveryInAMixedTree()
    {
        QTemporaryDir tmp;
        const fs::path base(tmp.path().toStdString());
        save(base / "ms" / "a", "net-1_10.ckpt", 1, 10);
        save(base / "ms" / "b" / "deep", "net-1_10.ckpt", 1, 10);
        ProtobufFixture::write(base / "other" / "epoch=3-step=100.ckpt", "PK\x03\x04");
        ProtobufFixture::write(base / "logs" / "train.log.1", "x");
        auto result = Scanner::scan(base);
        QVERIFY(result.ok());
        // The Lightning-named file is Lightning's (a bare folder of .ckpt files).
        QCOMPARE(result->runs.size(), std::size_t(3));
        int mindspore = 0;
        for (const Run& r : result->runs) {
            mindspore += r.layout == "mindspore";
            if (r.layout != "mindspore")
                QCOMPARE(r.layout, std::string("lightning"));
        }
        QCOMPARE(mindspore, 2);
    }
};

QTEST_GUILESS_MAIN(tst_MindSporeLayout)
#include "tst_MindSporeLayout.moc"
