#include "CandleFixture.h"
#include "UnprivilegedScope.h"
#include "candle/CandleLayout.h"
#include "layout/DirReader.h"
#include "report/RunJson.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <map>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

using namespace ckpt;
using test::CandleFixture;
using test::UnprivilegedScope;
namespace fs = std::filesystem;

namespace {

constexpr double kInf = HUGE_VAL;

// Builds a scenario below `base` and returns the run root to load.
using Builder = std::function<fs::path(const fs::path& base)>;

std::string info(int epoch, const std::string& metric, const std::string& best)
{
    return "{\"epoch\": " + std::to_string(epoch) + ", \"save_best_metric\": \"" + metric +
           "\", \"best_metric_last\": " + best +
           ", \"timestamp\": \"2026-11-22 13:00:00\", \"time_elapsed\": 0.5, \"metadata\": null}";
}

// Three epochs improving every time, last and best at 3: the healthy baseline.
CandleFixture healthy(const fs::path& root)
{
    CandleFixture f(root);
    f.addEpoch(1, 0.5, 64, true);
    f.addEpoch(2, 0.4);
    f.addEpoch(3, 0.3);
    f.linkAbsolute("last", 3);
    f.linkAbsolute("best", 3);
    return f;
}

const std::map<QString, Builder>& scenarios()
{
    static const std::map<QString, Builder> table{
        {"healthy", [](const fs::path& b) { return healthy(b / "run").root(); }},
        {"sparse",
         [](const fs::path& b) {
             CandleFixture f(b / "run");
             f.addEpoch(1, 0.5);
             f.addEpoch(5, 0.2);
             f.addEpoch(9, 0.2);
             f.linkAbsolute("last", 9);
             f.linkAbsolute("best", 5);
             return f.root();
         }},
        {"numeric order",
         [](const fs::path& b) {
             CandleFixture f(b / "run");
             for (int e : {1001, 999, 1000, 2})
                 f.addEpoch(e, kInf);
             f.linkAbsolute("last", 1001);
             return f.root();
         }},
        {"leftover work",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             CandleFixture::writeText(f.root() / "work" / "model.h5", "partial");
             // Left an hour ago and nobody writing: interrupted (Liveness), not live.
             CandleFixture::backdate(f.root() / "work" / "model.h5", 3600);
             CandleFixture::backdate(f.root() / "work", 3600);
             return f.root();
         }},
        {"model without info",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             f.writeModel(4, "model bytes");
             return f.root();
         }},
        {"empty epoch dir",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             fs::create_directories(f.epochDir(4));
             return f.root();
         }},
        {"info without model",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             fs::remove(f.epochDir(2) / "model.h5");
             return f.root();
         }},
        {"no model_file key, no model",
         [](const fs::path& b) {
             CandleFixture f(b / "run");
             f.addEpoch(1, 0.5, std::nullopt);
             f.addEpoch(2, 0.4, std::nullopt);
             f.linkAbsolute("last", 2);
             return f.root();
         }},
        {"epoch mismatch",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             f.writeInfo(2, info(7, "val_loss", "0.4"));
             return f.root();
         }},
        {"truncated info",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             f.writeInfo(2, "{\"epoch\": 2, \"save_best_metric\": \"val_lo");
             return f.root();
         }},
        {"empty info",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             f.writeInfo(2, "");
             return f.root();
         }},
        {"garbage info",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             f.writeInfo(2, std::string("\x89HDF\r\n\x1a\n", 8));
             return f.root();
         }},
        {"relocated links",
         [](const fs::path& b) {
             healthy(b / "cluster" / "run");
             fs::rename(b / "cluster", b / "laptop");
             return b / "laptop" / "run";
         }},
        {"relocated link to missing epoch",
         [](const fs::path& b) {
             auto f = healthy(b / "cluster" / "run");
             f.linkAbsolute("last", 3);
             fs::remove_all(f.epochDir(3));
             f.addEpoch(3, 0.3); // recreated later; the move below breaks the links anyway
             fs::remove_all(f.epochDir(3));
             fs::rename(b / "cluster", b / "laptop");
             return b / "laptop" / "run";
         }},
        {"link outside run",
         [](const fs::path& b) {
             auto other = healthy(b / "other");
             auto f = healthy(b / "run");
             fs::remove(f.root() / "last");
             fs::create_directory_symlink(other.epochDir(2), f.root() / "last");
             return f.root();
         }},
        {"copied run (cp -a)",
         [](const fs::path& b) {
             auto original = healthy(b / "original");
             // The common case: a copy whose absolute links still name the original.
             const int rc =
                 QProcess::execute(QStringLiteral("cp"),
                                   {QStringLiteral("-a"), QString::fromStdString(original.root()),
                                    QString::fromStdString((b / "copy").string())});
             if (rc != 0)
                 qFatal("cp -a failed: %d", rc);
             return b / "copy";
         }},
        {"link outside run, no such local epoch",
         [](const fs::path& b) {
             auto other = healthy(b / "other");
             other.addEpoch(7, 0.1);
             auto f = healthy(b / "run");
             fs::remove(f.root() / "last");
             fs::create_directory_symlink(other.epochDir(7), f.root() / "last");
             return f.root();
         }},
        {"link to missing epoch",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             fs::remove(f.root() / "last");
             fs::create_directory_symlink(f.epochDir(7), f.root() / "last");
             return f.root();
         }},
        {"dangling link",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             fs::remove(f.root() / "last");
             fs::create_directory_symlink(b / "nowhere" / "at-all", f.root() / "last");
             return f.root();
         }},
        {"relative links",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             f.linkRelative("last", 3);
             f.linkRelative("best", 3);
             return f.root();
         }},
        {"root seen through a symlinked folder",
         [](const fs::path& b) {
             healthy(b / "real" / "run");
             fs::create_directory_symlink(b / "real", b / "alias");
             return b / "alias" / "run";
         }},
        {"epochs/ symlinked to scratch",
         [](const fs::path& b) {
             healthy(b / "scratch" / "run");
             fs::create_directories(b / "home" / "run");
             fs::create_directory_symlink(b / "scratch" / "run" / "epochs",
                                          b / "home" / "run" / "epochs");
             return b / "home" / "run";
         }},
        {"link loop",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             fs::remove(f.root() / "last");
             fs::create_symlink("last", f.root() / "last");
             return f.root();
         }},
        {"plain directory as last",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             fs::remove(f.root() / "last");
             fs::copy(f.epochDir(3), f.root() / "last");
             return f.root();
         }},
        {"link to non-epoch inside run",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             fs::remove(f.root() / "last");
             fs::create_directory_symlink(f.root() / "epochs", f.root() / "last");
             return f.root();
         }},
        {"best not at best",
         [](const fs::path& b) {
             CandleFixture f(b / "run");
             f.addEpoch(1, 0.5);
             f.addEpoch(2, 0.3);
             f.addEpoch(3, 0.3); // carries epoch 2's best value: not itself an improvement
             f.linkAbsolute("last", 3);
             f.linkAbsolute("best", 3);
             return f.root();
         }},
        {"best at first of ties",
         [](const fs::path& b) {
             CandleFixture f(b / "run");
             f.addEpoch(1, 0.5);
             f.addEpoch(2, 0.3);
             f.addEpoch(3, 0.3);
             f.linkAbsolute("last", 3);
             f.linkAbsolute("best", 2);
             return f.root();
         }},
        {"best with only Infinity recorded",
         [](const fs::path& b) {
             CandleFixture f(b / "run");
             f.addEpoch(1, kInf);
             f.addEpoch(2, kInf);
             f.linkAbsolute("last", 2);
             f.linkAbsolute("best", 1);
             return f.root();
         }},
        {"best ignores NaN and Infinity",
         [](const fs::path& b) {
             CandleFixture f(b / "run");
             f.addEpoch(1, kInf);
             f.addEpoch(2, std::nan(""));
             f.addEpoch(3, 0.7);
             f.linkAbsolute("best", 3);
             return f.root();
         }},
        {"accuracy: higher is better",
         [](const fs::path& b) {
             CandleFixture f(b / "run");
             f.writeInfo(1, info(1, "val_accuracy", "0.5"));
             f.writeInfo(2, info(2, "val_accuracy", "0.7"));
             f.writeInfo(3, info(3, "val_accuracy", "0.7"));
             f.linkAbsolute("best", 1);
             return f.root();
         }},
        {"oldest writer keys",
         [](const fs::path& b) {
             CandleFixture f(b / "run");
             f.writeInfo(1, R"({"epoch": 1, "save_best_only": true, "save_best_stat": "loss", )"
                            R"("best_stat_last": 0.5, "model_file": "model.h5", )"
                            R"("checksum_model": "__DISABLED__", "time_elapsed": "__FIRST__"})");
             f.writeModel(1, "m");
             f.linkAbsolute("last", 1);
             return f.root();
         }},
        {"unreadable info",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             ::chmod((f.epochDir(2) / "ckpt-info.json").c_str(), 0);
             return f.root();
         }},
        {"unreadable epoch dir",
         [](const fs::path& b) {
             auto f = healthy(b / "run");
             ::chmod(f.epochDir(2).c_str(), 0);
             return f.root();
         }},
    };
    return table;
}

QString problemSummary(const Run& run)
{
    QStringList items;
    for (const auto& p : run.allProblems())
        items << QString::fromStdString(std::string(toString(p.kind))) +
                     (p.epoch ? "@" + QString::number(*p.epoch) : QString());
    items.sort();
    return items.join(',');
}

QString epochList(const Run& run)
{
    QStringList items;
    for (const auto& e : run.epochs)
        items << QString::number(e.number);
    return items.join(',');
}

QString linkEpoch(const RunLink* link)
{
    if (!link)
        return "none";
    return link->epoch ? QString::number(*link->epoch) : "?";
}

} // namespace

class tst_CandleLayout : public QObject
{
    Q_OBJECT
private slots:
    void loadRun_data();
    void loadRun();
    void epochFields();
    void relocatedLinkDetails();
    void logsFoundAbove_data();
    void logsFoundAbove();
    void isRunRoot_data();
    void isRunRoot();
    void epochDirNames();
    void epochsInOrderWhateverTheListing();
    void loadEpochAndReloadLinks();
    void recycledEpochsReadLikeNewOnes();
    void largeInfoPastTheReadAheadLimit();
};

void tst_CandleLayout::loadRun_data()
{
    QTest::addColumn<QString>("epochs");
    QTest::addColumn<QString>("last");
    QTest::addColumn<QString>("best");
    QTest::addColumn<QString>("problems");
    QTest::addColumn<bool>("needsPermissions");

    auto row = [](const char* name, const char* epochs, const char* last, const char* best,
                  const char* problems, bool perms = false) {
        QTest::newRow(name) << epochs << last << best << problems << perms;
    };
    row("healthy", "1,2,3", "3", "3", "");
    row("sparse", "1,5,9", "9", "5", "");
    row("numeric order", "2,999,1000,1001", "1001", "none", "");
    row("leftover work", "1,2,3", "3", "3", "interrupted_save");
    row("model without info", "1,2,3,4", "3", "3", "model_without_info@4");
    row("empty epoch dir", "1,2,3,4", "3", "3", "bad_info@4");
    row("info without model", "1,2,3", "3", "3", "info_without_model@2");
    row("no model_file key, no model", "1,2", "2", "none", "");
    row("epoch mismatch", "1,2,3", "3", "3", "epoch_mismatch@2");
    row("truncated info", "1,2,3", "3", "3", "bad_info@2");
    row("empty info", "1,2,3", "3", "3", "bad_info@2");
    row("garbage info", "1,2,3", "3", "3", "bad_info@2");
    row("relocated links", "1,2,3", "3", "3", "relocated_link@3,relocated_link@3");
    row("relocated link to missing epoch", "1,2", "?", "?",
        "link_to_missing_epoch@3,link_to_missing_epoch@3");
    // Another run's epochs/002: this run has one too, so that is what it means here.
    row("link outside run", "1,2,3", "2", "3", "copied_link@2");
    row("copied run (cp -a)", "1,2,3", "3", "3", "copied_link@3,copied_link@3");
    row("link outside run, no such local epoch", "1,2,3", "?", "3", "link_outside_run@7");
    row("link to missing epoch", "1,2,3", "?", "3", "link_to_missing_epoch@7");
    row("dangling link", "1,2,3", "?", "3", "dangling_link");
    row("relative links", "1,2,3", "3", "3", "");
    row("root seen through a symlinked folder", "1,2,3", "3", "3", "");
    row("epochs/ symlinked to scratch", "1,2,3", "none", "none", "");
    row("link loop", "1,2,3", "?", "3", "link_loop");
    row("plain directory as last", "1,2,3", "3", "3", "link_not_epoch@3");
    row("link to non-epoch inside run", "1,2,3", "?", "3", "link_not_epoch");
    row("best not at best", "1,2,3", "3", "3", "best_not_at_best@3");
    row("best at first of ties", "1,2,3", "3", "2", "");
    row("best with only Infinity recorded", "1,2", "2", "1", "");
    row("best ignores NaN and Infinity", "1,2,3", "none", "3", "");
    row("accuracy: higher is better", "1,2,3", "none", "1", "best_not_at_best@1");
    row("oldest writer keys", "1", "1", "none", "");
    row("unreadable info", "1,2,3", "3", "3", "unreadable@2", true);
    row("unreadable epoch dir", "1,2,3", "3", "3", "unreadable@2", true);
}

void tst_CandleLayout::loadRun()
{
    QFETCH(QString, epochs);
    QFETCH(QString, last);
    QFETCH(QString, best);
    QFETCH(QString, problems);
    QFETCH(bool, needsPermissions);

    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    const fs::path root = scenarios().at(QTest::currentDataTag())(base);
    std::optional<UnprivilegedScope> asUser;
    if (needsPermissions) {
        asUser.emplace(base);
        QVERIFY2(asUser->ok(), asUser->error().c_str());
    }
    const Run run = CandleLayout::instance().loadRun(root);
    asUser.reset();
    // Let QTemporaryDir clean up what the row made unreadable.
    fs::permissions(root, fs::perms::owner_all, fs::perm_options::add);
    for (const auto& e : run.epochs)
        fs::permissions(run.pathOf(e), fs::perms::owner_all, fs::perm_options::add);

    QCOMPARE(QString::fromStdString(run.root), QString::fromStdString(root.string()));
    QCOMPARE(QString::fromStdString(run.layout), QString("candle"));
    QCOMPARE(epochList(run), epochs);
    QCOMPARE(linkEpoch(run.link("last")), last);
    QCOMPARE(linkEpoch(run.link("best")), best);
    QCOMPARE(problemSummary(run), problems);
    for (const auto& p : run.allProblems()) {
        // Every message names a file of this scan and is a sentence, not a code.
        QVERIFY2(p.message.find(base.string()) != std::string::npos, p.message.c_str());
        QVERIFY2(p.path.starts_with(base.string()), p.path.c_str());
    }
}

void tst_CandleLayout::epochFields()
{
    QTemporaryDir tmp;
    CandleFixture f(fs::path(tmp.path().toStdString()) / "run");
    f.addEpoch(1, kInf, 100, true);
    f.addEpoch(2, 0.25, std::nullopt);
    const Run run = CandleLayout::instance().loadRun(f.root());
    QCOMPARE(run.epochs.size(), std::size_t(2));
    const Epoch& e1 = run.epochs[0];
    QCOMPARE(run.pathOf(e1), f.epochDir(1).string());
    QCOMPARE(e1.dir, std::string("epochs/001"));
    QCOMPARE(run.modelPath(e1), (f.epochDir(1) / "model.h5").string());
    QCOMPARE(e1.modelBytes(), std::optional<std::uint64_t>(100));
    QVERIFY(e1.hasRecord());
    QVERIFY(e1.firstSave);
    QVERIFY(std::isinf(*e1.metric(kBestSoFar)));
    QVERIFY(e1.checksummedFile());
    QVERIFY(e1.checksummedFile()->algo == ChecksumAlgo::Crc32);
    QCOMPARE(e1.checksummedFile()->checksum,
             std::to_string(CandleFixture::crc32Of(CandleFixture::modelContent(1, 100))));
    // The record is kept as written, key by key.
    QCOMPARE(std::string(*e1.metadata.get("time_elapsed")), std::string("\"__FIRST__\""));
    QCOMPARE(std::string(*e1.metadata.get("best_metric_last")), std::string("Infinity"));
    const Epoch& e2 = run.epochs[1];
    QVERIFY(run.modelPath(e2).empty());
    QVERIFY(!e2.modelBytes());
    QCOMPARE(e2.metric(kBestSoFar), std::optional<double>(0.25));
    QCOMPARE(run.totalModelBytes(), std::uint64_t(100));
}

void tst_CandleLayout::relocatedLinkDetails()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    healthy(base / "cluster" / "save" / "ckpts");
    fs::rename(base / "cluster", base / "laptop");
    const Run run = CandleLayout::instance().loadRun(base / "laptop" / "save" / "ckpts");
    const RunLink* last = run.link("last");
    QVERIFY(last && last->relocated && last->symlink);
    QCOMPARE(last->target, (base / "cluster" / "save" / "ckpts" / "epochs" / "003").string());
    QCOMPARE(last->path, (base / "laptop" / "save" / "ckpts" / "last").string());
    const Problem& p = run.problems.front();
    QVERIFY(p.kind == ProblemKind::RelocatedLink);
    QVERIFY2(p.message.find("resolved to " + (base / "laptop/save/ckpts/epochs/003").string()) !=
                 std::string::npos,
             p.message.c_str());
}

void tst_CandleLayout::logsFoundAbove_data()
{
    QTest::addColumn<QString>("rootRel");
    QTest::addColumn<QString>("ckptLogRel");
    QTest::addColumn<QString>("trainingLogRel");
    QTest::newRow("gen 1/2: save/ckpts, save/ckpt.log") << "out/save/ckpts"
                                                        << "out/save/ckpt.log"
                                                        << "out/training.log";
    QTest::newRow("gen 3: <out>/ckpts, ckpt.log in root") << "out/ckpts"
                                                          << "out/ckpts/ckpt.log"
                                                          << "out/training.log";
    QTest::newRow("none") << "out/ckpts"
                          << ""
                          << "";
}

void tst_CandleLayout::logsFoundAbove()
{
    QFETCH(QString, rootRel);
    QFETCH(QString, ckptLogRel);
    QFETCH(QString, trainingLogRel);
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    healthy(base / rootRel.toStdString());
    auto abs = [&](const QString& rel) {
        return rel.isEmpty() ? std::string() : (base / rel.toStdString()).string();
    };
    if (!ckptLogRel.isEmpty())
        CandleFixture::writeText(abs(ckptLogRel), "x CandleCheckpoint: hi\n");
    if (!trainingLogRel.isEmpty())
        CandleFixture::writeText(abs(trainingLogRel), "epoch,loss\n");
    const Run run = CandleLayout::instance().loadRun(base / rootRel.toStdString());
    QCOMPARE(run.sourcePath(CandleLayout::kCkptLog), abs(ckptLogRel));
    QCOMPARE(run.sourcePath(CandleLayout::kTrainingLog), abs(trainingLogRel));
    QVERIFY(run.sourcePath(CandleLayout::kHistoryTxt).empty());
}

void tst_CandleLayout::isRunRoot_data()
{
    QTest::addColumn<QString>("layoutSpec"); // files/dirs to create, ';'-separated, '/' = dir
    QTest::addColumn<bool>("expected");
    QTest::newRow("epoch with info") << "epochs/001/ckpt-info.json" << true;
    QTest::newRow("epoch with only a model") << "epochs/001/model.h5" << true;
    QTest::newRow("four-digit epoch") << "epochs/1000/" << true;
    QTest::newRow("empty epochs") << "epochs/" << false;
    QTest::newRow("empty epochs, work left over") << "epochs/;work/model.h5" << true;
    QTest::newRow("non-digit dirs only") << "epochs/best/;epochs/tmp/" << false;
    QTest::newRow("digit file, not dir") << "epochs/001" << false;
    QTest::newRow("no epochs") << "save/ckpts/" << false;
    QTest::newRow("epochs is a file") << "epochs" << false;
    QTest::newRow("epochs is a symlink to a run's epochs") << "@link" << true;
    QTest::newRow("epochs is a dangling symlink") << "@dangling" << false;
}

void tst_CandleLayout::isRunRoot()
{
    QFETCH(QString, layoutSpec);
    QFETCH(bool, expected);
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    if (layoutSpec.startsWith('@')) {
        CandleFixture(base / "real").addEpoch(1, 0.5);
        const fs::path target = layoutSpec == "@link" ? base / "real" / "epochs" : base / "none";
        fs::create_directories(base / "run");
        fs::create_directory_symlink(target, base / "run" / "epochs");
        auto listing = DirReader::list(base / "run");
        QVERIFY(listing.ok());
        QCOMPARE(CandleLayout::instance().isRunRoot(*listing), expected);
        return;
    }
    for (const QString& item : layoutSpec.split(';')) {
        const fs::path p = base / item.toStdString();
        if (item.endsWith('/'))
            fs::create_directories(p);
        else
            CandleFixture::writeText(p, "x");
    }
    auto listing = DirReader::list(base);
    QVERIFY(listing.ok());
    QCOMPARE(CandleLayout::instance().isRunRoot(*listing), expected);
}

void tst_CandleLayout::epochDirNames()
{
    QCOMPARE(CandleLayout::epochDirName(1), std::string("001"));
    QCOMPARE(CandleLayout::epochDirName(1000), std::string("1000"));
    QCOMPARE(CandleLayout::parseEpochDirName("012"), std::optional<int>(12));
    QCOMPARE(CandleLayout::parseEpochDirName("1001"), std::optional<int>(1001));
    QCOMPARE(CandleLayout::parseEpochDirName("12a"), std::optional<int>());
    QCOMPARE(CandleLayout::parseEpochDirName(""), std::optional<int>());
    QCOMPARE(CandleLayout::parseEpochDirName("99999999999"), std::optional<int>());
    QCOMPARE(CandleLayout::epochDir("/r", 7), fs::path("/r/epochs/007"));
    QVERIFY(CandleLayout::instance().ownsSubdirectory("epochs"));
    QVERIFY(CandleLayout::instance().ownsSubdirectory("work"));
    QVERIFY(CandleLayout::instance().ownsSubdirectory(".ckpt-studio"));
    QVERIFY(!CandleLayout::instance().ownsSubdirectory("save"));
}

// getdents gives names in the file system's order; the epochs come out by
// number, two names of one number ("5", "005") by name, each read once.
void tst_CandleLayout::epochsInOrderWhateverTheListing()
{
    QTemporaryDir tmp;
    CandleFixture f(fs::path(tmp.path().toStdString()) / "run" / "ckpts");
    for (int e : {12, 3, 1000, 7, 5, 40})
        f.addEpoch(e, 0.5);
    fs::rename(f.epochDir(5), f.root() / "epochs" / "5");
    f.addEpoch(5, 0.4); // epochs/005
    const Run run = CandleLayout::instance().loadRun(f.root());
    std::vector<std::string> dirs;
    for (const Epoch& e : run.epochs)
        dirs.push_back(e.dir);
    const std::vector<std::string> expected{"epochs/003", "epochs/005", "epochs/5",   "epochs/007",
                                            "epochs/012", "epochs/040", "epochs/1000"};
    QCOMPARE(dirs, expected);
    QCOMPARE(run.epochs[1].metric(kBestSoFar), std::optional<double>(0.4));
}

void tst_CandleLayout::loadEpochAndReloadLinks()
{
    QTemporaryDir tmp;
    auto f = healthy(fs::path(tmp.path().toStdString()) / "run");
    const CandleLayout& layout = CandleLayout::instance();
    Run run = layout.loadRun(f.root());
    QVERIFY(run.allProblems().empty());

    f.addEpoch(4, 0.2);
    auto e4 = layout.loadEpoch(run, 4);
    QVERIFY(e4.has_value());
    QCOMPARE(e4->number, 4);
    QCOMPARE(e4->metric(kBestSoFar), std::optional<double>(0.2));

    f.writeInfo(2, "{");
    auto e2 = layout.loadEpoch(run, 2);
    QVERIFY(e2.has_value());
    QCOMPARE(e2->problems.size(), std::size_t(1));
    QVERIFY(e2->problems[0].kind == ProblemKind::BadInfo);

    fs::remove_all(f.epochDir(3));
    QVERIFY(!layout.loadEpoch(run, 3).has_value());

    // last now dangles inside the run: reloadLinks replaces the link problems.
    layout.reloadLinks(run);
    QCOMPARE(problemSummary(run), QString("link_to_missing_epoch@3,link_to_missing_epoch@3"));
    f.linkAbsolute("last", 2);
    f.linkAbsolute("best", 2);
    layout.reloadLinks(run);
    QCOMPARE(linkEpoch(run.link("last")), QString("2"));
    QCOMPARE(problemSummary(run), QString("best_not_at_best@2"));
}

// `ckpt scan --json` reads each run into the epochs of the run it printed
// before (EpochList::recycle): whatever that run held, every scenario must
// read exactly as into new epochs.
void tst_CandleLayout::recycledEpochsReadLikeNewOnes()
{
    QTemporaryDir tmp;
    const fs::path base(tmp.path().toStdString());
    std::vector<std::pair<QString, fs::path>> roots;
    for (const auto& [name, build] : scenarios())
        if (!name.startsWith("unreadable")) // those need another user (loadRun)
            roots.emplace_back(name, build(base / name.toStdString()));
    // Epochs of every kind to read into: a rich run (long paths, metrics,
    // problems, records through the document) as well as the scenarios.
    CandleFixture rich(base / "rich" / "a folder name long enough not to fit in a short string");
    for (int e = 1; e <= 12; ++e)
        rich.addEpoch(e, e % 3 ? 0.5 / e : kInf, 64 + e, e == 1);
    rich.writeInfo(4, "{\"epoch\": 4, \"metadata\": {\"nested\": [1, 2.50, \"\\u00e9\"]}, "
                      "\"time_elapsed\": 1e400, \"best_metric_last\": \"0.125\"}");
    rich.writeInfo(6, "{");
    fs::remove(rich.epochDir(8) / "model.h5");
    roots.emplace_back("rich", rich.root());

    const CandleLayout& layout = CandleLayout::instance();
    const auto json = [](const Run& run) {
        std::string text;
        RunJson::append(run, text);
        return text;
    };
    (void)EpochList::takeRecycled();
    std::map<QString, std::string> fresh;
    for (const auto& [name, root] : roots) {
        fresh[name] = json(layout.loadRun(root)); // never recycled: new epochs
        QVERIFY(EpochList::takeRecycled().empty());
    }
    for (const auto& [before, beforeRoot] : roots) {
        for (const auto& [name, root] : roots) {
            Run previous = layout.loadRun(beforeRoot);
            EpochList::recycle(std::move(previous.epochs));
            const Run run = layout.loadRun(root);
            const std::string text = json(run);
            QVERIFY2(text == fresh[name],
                     qPrintable(name + " read into the epochs of " + before + ":\n" +
                                QString::fromStdString(text) + "\nnew:\n" +
                                QString::fromStdString(fresh[name])));
        }
    }
}

// loadRun reads the epochs' files ahead in batches, each text up to 64 KiB:
// a larger one is read on its own, under the 4 MiB a ckpt-info.json may have.
void tst_CandleLayout::largeInfoPastTheReadAheadLimit()
{
    QTemporaryDir tmp;
    CandleFixture f(fs::path(tmp.path().toStdString()) / "run");
    f.addEpoch(1, 0.5);
    const std::string note(200 * 1024, 'x');
    f.writeInfo(2, "{\"epoch\": 2, \"best_metric_last\": 0.25, \"model_file\": \"model.h5\", "
                   "\"metadata\": \"" +
                       note + "\"}");
    f.writeModel(2, "weights");
    f.addEpoch(3, 0.2);
    f.writeInfo(4, "{\"epoch\": 4, \"metadata\": \"" + std::string(5 << 20, 'y') + "\"}");
    const Run run = CandleLayout::instance().loadRun(f.root());
    QCOMPARE(epochList(run), QString("1,2,3,4"));
    const Epoch& e2 = run.epochs[1];
    QVERIFY(e2.problems.empty());
    QCOMPARE(e2.metadata.get("metadata")->size(), note.size() + 2);
    QCOMPARE(e2.metric(kBestSoFar), std::optional<double>(0.25));
    QCOMPARE(e2.modelBytes(), std::optional<std::uint64_t>(7));
    QCOMPARE(run.epochs[2].metric(kBestSoFar), std::optional<double>(0.2));
    QCOMPARE(problemSummary(run), QString("bad_info@4"));
    QVERIFY2(run.epochs[3].problems[0].message.find("4.0 MiB") != std::string::npos,
             run.epochs[3].problems[0].message.c_str());
}

QTEST_GUILESS_MAIN(tst_CandleLayout)
#include "tst_CandleLayout.moc"
