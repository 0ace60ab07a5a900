#include "caffe2/Caffe2Layout.h"
#include "checksum/Verifier.h"
#include "layout/DirReader.h"
#include "scan/Scanner.h"

#include <QTemporaryDir>
#include <QTest>

#include <ProtobufFixture.h>
#include <filesystem>

using namespace ckpt;
using test::C2Blob;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

void db(const fs::path& dir, const std::string& node, int epoch)
{
    ProtobufFixture::write(
        dir / (node + "." + std::to_string(epoch)),
        ProtobufFixture::minidb({C2Blob{"w", {2}, {float(epoch), 1}, {}, -1, -1, {}, 0, {}}}));
}

} // namespace

class tst_Caffe2Layout : public QObject
{
    Q_OBJECT

private slots:
    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("epoch");
        QTest::newRow("node") << "trainer_0.12" << 12;
        QTest::newRow("dotted node") << "job.trainer_1.3" << 3;
        QTest::newRow("path prefix") << "ckpt_trainer:0.7" << 7;
        QTest::newRow("rotated log") << "train.log.1" << -1;
        QTest::newRow("core dump") << "core.1234" << -1;
        QTest::newRow("no number") << "trainer_0" << -1;
        QTest::newRow("hidden") << ".trainer_0.1" << -1;
        QTest::newRow("no node") << ".1" << -1;
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(int, epoch);
        QCOMPARE(Caffe2Layout::instance().epochNumberOf(name.toStdString()).value_or(-1), epoch);
    }

    void twoNodesThreeEpochs()
    {
        QTemporaryDir tmp;
        const fs::path root = fs::path(tmp.path().toStdString()) / "dbs";
        for (int e = 1; e <= 3; ++e)
            db(root, "trainer_0", e);
        db(root, "trainer_1", 1);
        db(root, "trainer_1", 2); // epoch 3 missing on trainer_1
        auto listing = DirReader::list(root);
        QVERIFY(listing.ok());
        const auto& layout = Caffe2Layout::instance();
        QVERIFY(layout.isRunRoot(*listing));
        const Run run = layout.loadRun(root);
        QCOMPARE(run.layout, std::string("caffe2"));
        QCOMPARE(run.epochs.size(), std::size_t(2));
        QCOMPARE(run.epochs[1].number, 2);
        QCOMPARE(run.epochs[1].files.size(), std::size_t(2));
        QVERIFY(run.epochs[1].files[0].model && run.epochs[1].files[0].present);
        QCOMPARE(run.epochs[1].files[1].name, std::string("trainer_1.2"));
        QVERIFY(!run.epochs[1].savedAt.empty());
        // Epoch 3 is not finished: in progress, with the missing node named.
        QVERIFY(!run.findEpoch(3));
        QCOMPARE(run.inProgress.size(), std::size_t(1));
        QCOMPARE(run.inProgress[0].epoch, std::optional<int>(3));
        QCOMPARE(run.problems.size(), std::size_t(1));
        QCOMPARE(run.problems[0].epoch, std::optional<int>(3));
        QVERIFY2(run.problems[0].message.find("trainer_1.3") != std::string::npos,
                 run.problems[0].message.c_str());
        QVERIFY(!layout.loadEpoch(run, 3));
        QVERIFY(layout.loadEpoch(run, 1));

        // The missing db arrives: epoch 3 is finished.
        db(root, "trainer_1", 3);
        auto now = DirReader::list(root);
        Run live = run;
        QVERIFY(layout.refreshInProgress(live, *now));
        QVERIFY(live.inProgress.empty() && live.problems.empty());
        QVERIFY(layout.loadEpoch(live, 3));

        // Caffe2 records no checksums.
        auto report = Verifier::verifyRun(layout.loadRun(root), Verifier::Options{});
        QVERIFY(report.ok());
        for (const auto& v : report->runs[0].epochs)
            QCOMPARE(int(v.status), int(VerifyStatus::NoChecksum));
    }

    void discoveryInAMixedTree()
    {
        QTemporaryDir tmp;
        const fs::path base(tmp.path().toStdString());
        db(base / "c2", "trainer_0", 1);
        ProtobufFixture::write(base / "ms" / "net-1_1.ckpt",
                               ProtobufFixture::mindspore(ProtobufFixture::network(1, 1), true));
        ProtobufFixture::write(base / "logs" / "train.log.1", "x");
        ProtobufFixture::write(base / "logs" / "core.77", "x");
        // Named like dbs, but not minidbs: a folder of certificates and of
        // numbered data files is no run.
        for (const char* name : {"002c0b4f.0", "02265526.0", "062cdee6.0"})
            ProtobufFixture::write(
                base / "certs" / name,
                "-----BEGIN CERTIFICATE-----\nMIIH0zCCBbugAwIBAgIIXsO3pkN/pOAw\n");
        ProtobufFixture::write(base / "data" / "shard.1", std::string(64, '\0'));
        ProtobufFixture::write(base / "data" / "shard.2", "");
        auto result = Scanner::scan(base);
        QVERIFY(result.ok());
        QCOMPARE(result->runs.size(), std::size_t(2));
        QCOMPARE(result->runs[0].layout, std::string("caffe2"));
        QCOMPARE(result->runs[1].layout, std::string("mindspore"));
    }
};

QTEST_GUILESS_MAIN(tst_Caffe2Layout)
#include "tst_Caffe2Layout.moc"
