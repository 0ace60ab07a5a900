#include "layout/DirReader.h"
#include "mindspore/MindSporeLayout.h"
#include "scan/Scanner.h"

#include <QTemporaryDir>
#include <QTest>

#include <ProtobufFixture.h>
#include <filesystem>

using namespace ckpt;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

void save(const fs::path& dir, const std::string& prefix, int epoch, int step)
{
    ProtobufFixture::write(
        dir / (prefix + "-" + std::to_string(epoch) + "_" + std::to_string(step) + ".ckpt"),
        ProtobufFixture::mindspore(ProtobufFixture::network(epoch, step), true), true);
}

// `net` trained 5 epochs, then a second process in the same folder (`net_1`,
// as MindSpore names it) 3 epochs.
void twoProcesses(const fs::path& dir)
{
    for (int e = 1; e <= 5; ++e)
        save(dir, "net", e, e * 10);
    for (int e = 1; e <= 3; ++e)
        save(dir, "net_1", e, e * 10);
    ProtobufFixture::write(dir / "net-graph.meta", "graph");
    ProtobufFixture::write(dir / "net_1-graph.meta", "graph");
}

std::vector<int> numbers(const Run& run)
{
    std::vector<int> out;
    for (const Epoch& e : run.epochs)
        out.push_back(e.number);
    return out;
}

std::vector<std::string> roots(const Scanner::Outcome& outcome)
{
    std::vector<std::string> out;
    for (const Run& r : outcome.runs)
        out.push_back(r.root);
    return out;
}

} // namespace

// MindSpore's reruns: a second training process in the same folder saves with the
// prefix `<prefix>_1`; every prefix is a run of its own, named <folder>/<prefix>.
class tst_MindSporeReruns : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;

    fs::path fresh(const char* name) const { return fs::path(m_tmp.path().toStdString()) / name; }

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void scanGivesOneRunPerPrefix()
    {
        const fs::path dir = fresh("two") / "ckpt";
        twoProcesses(dir);
        ProtobufFixture::write(dir / "net_1-4_40.ckpt.tmp", "partial");
        save(dir, "net", 6, 3);
        fs::rename(dir / "net-6_3.ckpt", dir / "net-6_3_breakpoint.ckpt");
        auto outcome = Scanner::scan(dir.parent_path());
        QVERIFY(outcome.ok());
        QCOMPARE(roots(*outcome),
                 (std::vector<std::string>{dir.string() + "/net", dir.string() + "/net_1"}));
        const Run& first = outcome->runs[0];
        const Run& second = outcome->runs[1];
        QCOMPARE(first.dir, dir.string());
        QCOMPARE(first.directory(), dir.string());
        QCOMPARE(numbers(first), (std::vector<int>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(numbers(second), (std::vector<int>{1, 2, 3}));
        // Each run's files, graph, breakpoint and save in progress are its own.
        QCOMPARE(first.modelPath(first.epochs[1]), dir.string() + "/net-2_20.ckpt");
        QCOMPARE(second.modelPath(second.epochs[1]), dir.string() + "/net_1-2_20.ckpt");
        QCOMPARE(first.sourcePath("graph_meta"), dir.string() + "/net-graph.meta");
        QCOMPARE(second.sourcePath("graph_meta"), dir.string() + "/net_1-graph.meta");
        QCOMPARE(std::string(first.epochs[5].metadata.get("prefix").value_or("")),
                 std::string("net"));
        QVERIFY(!first.epochs[5].problems.empty()); // the breakpoint
        QVERIFY(first.inProgress.empty());
        QCOMPARE(second.inProgress.size(), std::size_t(1));
        QVERIFY(first.epochs[0].firstSave && second.epochs[0].firstSave);
        for (const Run* run : {&first, &second})
            for (const Epoch& e : run->epochs)
                QCOMPARE(e.files.size(), std::size_t(1));
        // Both roots load alone, as the scan loaded them.
        const Run again = MindSporeLayout::instance().loadRun(dir / "net_1");
        QCOMPARE(again.root, second.root);
        QCOMPARE(numbers(again), numbers(second));
        QCOMPARE(layoutAt(dir / "net_1"), &layouts::mindspore());
        QVERIFY(!layoutAt(dir / "net_7"));
        // Epoch by epoch, as the watcher reads them.
        auto e2 = MindSporeLayout::instance().loadEpoch(second, 2);
        QVERIFY(e2);
        QCOMPARE(e2->files[0].name, std::string("net_1-2_20.ckpt"));
        QVERIFY(!MindSporeLayout::instance().loadEpoch(second, 5));
        QCOMPARE(MindSporeLayout::instance().epochNumberFor(second, "net_1-3_30.ckpt"),
                 std::optional<int>(3));
        QVERIFY(!MindSporeLayout::instance().epochNumberFor(second, "net-3_30.ckpt"));
    }

    void singlePrefixKeepsTheFolderAsRoot()
    {
        const fs::path dir = fresh("one") / "ckpt";
        for (int e = 1; e <= 3; ++e)
            save(dir, "net", e, 10);
        // The graph of a process that has not saved yet does not split the folder.
        ProtobufFixture::write(dir / "net_1-graph.meta", "graph");
        auto outcome = Scanner::scan(dir);
        QVERIFY(outcome.ok());
        QCOMPARE(roots(*outcome), (std::vector<std::string>{dir.string()}));
        QVERIFY(outcome->runs[0].dir.empty());
        QCOMPARE(numbers(outcome->runs[0]), (std::vector<int>{1, 2, 3}));
    }

    void unrelatedPrefixesAreRunsToo()
    {
        const fs::path dir = fresh("unrelated");
        save(dir, "lenet", 1, 10);
        save(dir, "resnet", 1, 10);
        save(dir, "resnet", 2, 10);
        auto outcome = Scanner::scan(dir);
        QVERIFY(outcome.ok());
        QCOMPARE(roots(*outcome),
                 (std::vector<std::string>{dir.string() + "/lenet", dir.string() + "/resnet"}));
        QCOMPARE(numbers(outcome->runs[1]), (std::vector<int>{1, 2}));
        QVERIFY(outcome->runs[0].problems.empty());
    }

    // A directory named like a prefix beside the files is its own thing: a root
    // that exists is that directory's run, the prefix's run takes another name.
    void aDirectoryNamedLikeAPrefix()
    {
        const fs::path dir = fresh("clash") / "ckpt";
        twoProcesses(dir);
        save(dir / "net_1", "other", 1, 10); // a run of its own in there
        fs::create_directories(dir / "net"); // an empty directory
        auto outcome = Scanner::scan(dir);
        QVERIFY(outcome.ok());
        QCOMPARE(roots(*outcome),
                 (std::vector<std::string>{dir.string() + "/net_1", dir.string() + "/net_1~",
                                           dir.string() + "/net~"}));
        QVERIFY(outcome->runs[0].dir.empty());
        QCOMPARE(numbers(outcome->runs[0]), (std::vector<int>{1}));
        QCOMPARE(numbers(outcome->runs[1]), (std::vector<int>{1, 2, 3}));
        QCOMPARE(numbers(outcome->runs[2]), (std::vector<int>{1, 2, 3, 4, 5}));
        // Loading the existing directory gives that directory's run.
        QCOMPARE(numbers(MindSporeLayout::instance().loadRun(dir / "net_1")),
                 (std::vector<int>{1}));
        QCOMPARE(numbers(MindSporeLayout::instance().loadRun(dir / "net_1~")),
                 (std::vector<int>{1, 2, 3}));
        QCOMPARE(MindSporeLayout::instance().epochNumberFor(outcome->runs[1], "net_1-2_20.ckpt"),
                 std::optional<int>(2));
    }

    void aGoneRunSaysSo()
    {
        const fs::path dir = fresh("gone");
        twoProcesses(dir);
        const Run run = MindSporeLayout::instance().loadRun(dir / "net_2");
        QVERIFY(run.epochs.empty());
        QCOMPARE(run.problems.size(), std::size_t(1));
        QVERIFY(run.problems[0].message.find("no MindSpore checkpoints") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(tst_MindSporeReruns)
#include "tst_MindSporeReruns.moc"
