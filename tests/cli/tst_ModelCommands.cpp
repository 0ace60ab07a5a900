#include "CandleFixture.h"
#include "CliRunner.h"
#include "H5Writer.h"
#include "ModelFixtures.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <limits>
#include <map>
#include <memory>

using namespace ckpt::test;
namespace fs = std::filesystem;

// `ckpt inspect` and `ckpt diff`, run as the real executable.
class tst_ModelCommands : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void usage_data();
    void usage();
    void inspectKeras2Json();
    void inspectHumanListsLayers();
    void inspectEpochDirectory();
    void inspectFlagsNaN();
    void inspectShowsTheTensorsAroundACorruptOne();
    void inspectZip();
    void keras3Archive();
    void inspectBadFiles_data();
    void inspectBadFiles();
    void diffJson();
    void diffHuman();
    void diffGoesOnPastACorruptTensor();
    void diffRunEpochs();
    void diffErrors();

private:
    QString file(const char* name) const { return m_dir->filePath(name); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_ModelCommands::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void tst_ModelCommands::usage_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("needle");
    QTest::newRow("listed in help") << QStringList{"--help"} << 0 << "inspect";
    QTest::newRow("inspect help") << QStringList{"inspect", "--help"} << 0 << "Usage: ckpt inspect";
    QTest::newRow("inspect no file") << QStringList{"inspect"} << 2 << "missing argument";
    QTest::newRow("diff help") << QStringList{"diff", "--help"} << 0 << "--epochs";
    QTest::newRow("diff one file") << QStringList{"diff", "a.h5"} << 2 << "missing argument";
}

void tst_ModelCommands::usage()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, needle);
    const CliResult r = runCli(args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(r.out + r.err).contains(needle), (r.out + r.err).constData());
}

void tst_ModelCommands::inspectKeras2Json()
{
    ModelFixtures::keras2Model(file("model.h5").toStdString());
    const CliResult r = runCli({"inspect", file("model.h5"), "--json"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.err.isEmpty());
    const auto j = r.json();
    QCOMPARE(j["format"].get<std::string>(), std::string("hdf5"));
    QCOMPARE(j["keras"]["layout"].get<std::string>(), std::string("keras2-model"));
    QCOMPARE(j["keras"]["layers"].size(), 3u);
    QCOMPARE(j["keras"]["layers"][0]["name"].get<std::string>(), std::string("dense"));
    QCOMPARE(j["tree"]["children"][0]["name"].get<std::string>(), std::string("model_weights"));
    QCOMPARE(j["stats"].size(), 6u);
    QCOMPARE(j["stats"][0]["count"].get<int>(), 3);
    QVERIFY(j["stats"][0]["mean"].is_number());

    const CliResult noStats = runCli({"inspect", file("model.h5"), "--json", "--no-stats"});
    QCOMPARE(noStats.exitCode, 0);
    QVERIFY(!noStats.json().contains("stats"));
}

void tst_ModelCommands::inspectHumanListsLayers()
{
    ModelFixtures::keras3Weights(file("model.weights.h5").toStdString());
    const CliResult r = runCli({"inspect", file("model.weights.h5")});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains("keras3-weights"), r.out.constData());
    QVERIFY(out.contains("dense_1"));
    QVERIFY(out.contains("bfloat16"));
    QVERIFY(out.contains("/layers/dense/vars/0"));
}

void tst_ModelCommands::inspectEpochDirectory()
{
    CandleFixture run(fs::path(m_dir->path().toStdString()) / "ckpts");
    run.addEpoch(1, 0.5, 64, true);
    ModelFixtures::keras2Model(run.epochDir(1) / "model.h5");
    const CliResult r = runCli(
        {"inspect", QString::fromStdString(run.epochDir(1).string()), "--json", "--no-stats"});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json()["file"].get<std::string>(), (run.epochDir(1) / "model.h5").string());

    // The run's folder (or one above runs) given for an epoch: the error names
    // an epoch to give instead, not "an epoch directory without a model file".
    run.addEpoch(2, 0.4, 64, false);
    for (const QString& folder : {QString::fromStdString(run.root().string()), m_dir->path()}) {
        const CliResult wrong = runCli({"inspect", folder});
        QCOMPARE(wrong.exitCode, 2);
        QVERIFY2(wrong.err.contains("a run's folder, not a model") &&
                     wrong.err.contains((run.epochDir(2)).string().c_str()),
                 wrong.err.constData());
    }
    const QString empty = file("empty");
    QVERIFY(QDir().mkpath(empty));
    const CliResult none = runCli({"inspect", empty});
    QCOMPARE(none.exitCode, 2);
    QVERIFY2(none.err.contains("no model.h5 here and no run below it"), none.err.constData());
}

void tst_ModelCommands::inspectFlagsNaN()
{
    {
        H5Writer w(file("nan.h5").toStdString());
        w.floats("/w", {3}, {1.0f, std::numeric_limits<float>::quiet_NaN(), 2.0f});
    }
    const CliResult r = runCli({"inspect", file("nan.h5"), "--json"});
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.json()["stats"][0]["nan"].get<int>(), 1);
    QVERIFY(r.err.isEmpty());
}

// A chunk that does not inflate costs its own tensor's statistics only: the
// others are listed with theirs, that one says why, and the exit status is 1
// (a problem found), not 2 (nothing could be read).
void tst_ModelCommands::inspectShowsTheTensorsAroundACorruptOne()
{
    const QString path = file("torn.h5");
    ModelFixtures::denseModel(path.toStdString(), 0.5f, 3, true);
    const CliResult human = runCli({"inspect", path});
    QCOMPARE(human.exitCode, 1);
    const QString out = QString::fromUtf8(human.out);
    QVERIFY2(out.contains(QRegularExpression(QStringLiteral(R"(/dense/bias +float32 +1 +3 +2 )"))),
             qPrintable(out));
    QVERIFY2(
        out.contains(QRegularExpression(QStringLiteral(R"(/dense/kernel +float32 +not read)"))),
        qPrintable(out));
    QVERIFY2(
        out.contains(QStringLiteral("error: ") + path + QStringLiteral(": dataset /dense/kernel")),
        qPrintable(out));
    QVERIFY2(human.err.isEmpty(), human.err.constData());

    const CliResult json = runCli({"inspect", path, "--json"});
    QCOMPARE(json.exitCode, 1);
    const nlohmann::json document = json.json();
    std::map<std::string, nlohmann::json> byPath;
    for (const auto& item : document["stats"])
        byPath[item["path"].get<std::string>()] = item;
    QCOMPARE(byPath.size(), std::size_t(2));
    QCOMPARE(byPath["/dense/bias"]["max"].get<double>(), 3.0);
    QVERIFY(!byPath["/dense/bias"].contains("error"));
    const nlohmann::json& torn = byPath["/dense/kernel"];
    QVERIFY2(torn["error"].get<std::string>().starts_with(path.toStdString() +
                                                          ": dataset /dense/kernel"),
             torn.dump().c_str());
    QVERIFY(!torn.contains("min") && !torn.contains("count"));
}

void tst_ModelCommands::inspectZip()
{
    ModelFixtures::zip(
        file("model.h5").toStdString(),
        {{"archive/data.pkl", "x"}, {"archive/data/0", "abcd"}, {"archive/version", "3\n"}});
    // Its data.pkl is no pickle: the listing is still shown, with why the
    // tensors cannot be read, as a problem (exit 1).
    const CliResult json = runCli({"inspect", file("model.h5"), "--json"});
    QCOMPARE(json.exitCode, 1);
    QCOMPARE(json.json()["zip"]["kind"].get<std::string>(), std::string("torch"));
    QVERIFY(json.json()["problems"][0].get<std::string>().find("data.pkl") != std::string::npos);
    const CliResult human = runCli({"inspect", file("model.h5")});
    QCOMPARE(human.exitCode, 1);
    QVERIFY(human.out.contains("archive/data/0"));
    QVERIFY(human.out.contains("torch"));
    QVERIFY(human.out.contains("data.pkl"));
}

void tst_ModelCommands::keras3Archive()
{
    // Two .keras archives whose weights differ (seeds 1 and 2).
    for (int seed = 1; seed <= 2; ++seed) {
        const std::string weights = file("w.h5").toStdString();
        ModelFixtures::keras3Weights(weights, static_cast<std::uint32_t>(seed));
        ModelFixtures::zip(file(seed == 1 ? "a.keras" : "b.keras").toStdString(),
                           {{"metadata.json", R"({"keras_version": "3.3.3"})"},
                            {"config.json", "{}"},
                            {"model.weights.h5", ModelFixtures::readBytes(weights)}});
    }
    const CliResult r = runCli({"inspect", file("a.keras"), "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto j = r.json();
    QCOMPARE(j["zip"]["kind"].get<std::string>(), std::string("keras3"));
    QCOMPARE(j["weights"]["keras"]["layout"].get<std::string>(), std::string("keras3-weights"));
    QCOMPARE(j["weights"]["file"].get<std::string>(),
             file("a.keras").toStdString() + "!model.weights.h5");
    QCOMPARE(j["weights"]["stats"].size(), 6u);

    const CliResult d = runCli({"diff", file("a.keras"), file("b.keras"), "--json"});
    QCOMPARE(d.exitCode, 0);
    QCOMPARE(d.json()["file_a"].get<std::string>(), file("a.keras").toStdString());
    QCOMPARE(d.json()["tensors"].size(), 6u);
    QCOMPARE(d.json()["tensors"][0]["status"].get<std::string>(), std::string("changed"));

    // A torch archive and a Keras one cannot be compared: said plainly.
    ModelFixtures::zip(file("t.pt").toStdString(),
                       {{"archive/data.pkl", "x"}, {"archive/version", "3\n"}});
    const CliResult torch = runCli({"diff", file("t.pt"), file("a.keras")});
    QCOMPARE(torch.exitCode, 2);
    QVERIFY2(torch.err.contains("weights of different formats"), torch.err.constData());
}

void tst_ModelCommands::inspectBadFiles_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("needle");
    QTest::newRow("text named .h5") << "text"
                                    << "not a model file (text)";
    QTest::newRow("truncated") << "truncated"
                               << "truncated";
    QTest::newRow("missing") << "missing"
                             << "no such file";
}

void tst_ModelCommands::inspectBadFiles()
{
    QFETCH(QString, kind);
    QFETCH(QString, needle);
    const std::string path = file("model.h5").toStdString();
    if (kind == "text") {
        ModelFixtures::writeBytes(path, "loss,val_loss\n0.5,0.6\n");
    } else if (kind == "truncated") {
        {
            H5Writer w(path);
            w.floats("/big", {100000}, ModelFixtures::values(100000, 1));
        }
        const std::string bytes = ModelFixtures::readBytes(path);
        ModelFixtures::writeBytes(path, bytes.substr(0, bytes.size() / 3));
    }
    const CliResult r = runCli({"inspect", file("model.h5")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(needle.toUtf8()), r.err.constData());
    QVERIFY2(r.err.contains("model.h5"), r.err.constData());
    // One line from us; never HDF5's error stack.
    QVERIFY2(!r.err.contains("HDF5-DIAG"), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
}

void tst_ModelCommands::diffJson()
{
    const std::string a = file("a.h5").toStdString();
    const std::string b = file("b.h5").toStdString();
    ModelFixtures::keras2Model(a, 1);
    // B: the same weights saved weights-only, so the optimizer state is only in A.
    ModelFixtures::keras2Weights(b, 1);
    const CliResult r = runCli({"diff", file("a.h5"), file("b.h5"), "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto j = r.json();
    QCOMPARE(j["tensors"].size(), 6u);
    std::map<std::string, std::string> status;
    for (const auto& t : j["tensors"]) {
        status[t["path"].get<std::string>()] = t["status"].get<std::string>();
        for (const char* key : {"path", "shape", "dtype", "l2_diff", "rel_change", "max_abs_diff",
                                "cosine", "status"})
            QVERIFY2(t.contains(key), key);
    }
    QCOMPARE(status["/model_weights/dense/dense/kernel:0"], std::string("same"));
    QCOMPARE(status["/optimizer_weights/Adam/iter:0"], std::string("only_a"));
    QVERIFY(j["layers"].is_array());

    const CliResult noOpt =
        runCli({"diff", file("a.h5"), file("b.h5"), "--json", "--no-optimizer"});
    QCOMPARE(noOpt.json()["tensors"].size(), 4u);
}

void tst_ModelCommands::diffHuman()
{
    ModelFixtures::keras3Weights(file("a.h5").toStdString(), 1);
    ModelFixtures::keras3Weights(file("b.h5").toStdString(), 2);
    const CliResult r = runCli({"diff", file("a.h5"), file("b.h5")});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains("most changed first"), r.out.constData());
    QVERIFY(out.contains("dense_1"));
    // optimizer/vars/0 (the iteration count) is the same in both.
    QVERIFY2(out.contains("6 tensors: 1 same, 5 changed, 0 only in A, 0 only in B, 0 mismatched"),
             r.out.constData());
}

void tst_ModelCommands::diffGoesOnPastACorruptTensor()
{
    ModelFixtures::denseModel(file("a.h5").toStdString(), 0.25f, 4);
    ModelFixtures::denseModel(file("b.h5").toStdString(), 0.5f, 3, true);
    const CliResult human = runCli({"diff", file("a.h5"), file("b.h5")});
    QCOMPARE(human.exitCode, 1);
    const QString out = QString::fromUtf8(human.out);
    QVERIFY2(
        out.contains(QRegularExpression(
            QStringLiteral(R"(dense/kernel +unreadable .*)") +
            QRegularExpression::escape(file("b.h5") + QStringLiteral(": dataset /dense/kernel")))),
        human.out.constData());
    QVERIFY2(out.contains(QRegularExpression(QStringLiteral(R"(dense/bias +changed )"))),
             human.out.constData());
    QVERIFY2(
        out.contains(QStringLiteral(
            "2 tensors: 0 same, 1 changed, 0 only in A, 0 only in B, 0 mismatched, 1 unreadable")),
        human.out.constData());
    QVERIFY2(human.err.isEmpty(), human.err.constData());

    const CliResult json = runCli({"diff", file("a.h5"), file("b.h5"), "--json"});
    QCOMPARE(json.exitCode, 1);
    const nlohmann::json document = json.json();
    bool sawKernel = false;
    for (const auto& t : document["tensors"]) {
        if (t["key"] != "dense/kernel")
            continue;
        sawKernel = true;
        QCOMPARE(t["status"].get<std::string>(), std::string("unreadable"));
        QVERIFY2(t["error"].get<std::string>().starts_with(file("b.h5").toStdString()),
                 t.dump().c_str());
    }
    QVERIFY(sawKernel);
}

void tst_ModelCommands::diffRunEpochs()
{
    CandleFixture run(fs::path(m_dir->path().toStdString()) / "save" / "ckpts");
    for (int e = 1; e <= 3; ++e) {
        run.addEpoch(e, 1.0 / e, 64, e == 1);
        ModelFixtures::keras2Model(run.epochDir(e) / "model.h5", e == 3 ? 7 : 1);
    }
    run.linkAbsolute("last", 3);
    const QString root = QString::fromStdString(run.root().string());
    const CliResult same = runCli({"diff", root, "--epochs", "1", "2", "--json"});
    QCOMPARE(same.exitCode, 0);
    // Named: a range-for over a member of json()'s temporary read freed memory
    // (heap-use-after-free under ASan).
    const auto sameJson = same.json();
    for (const auto& t : sameJson["tensors"])
        QCOMPARE(t["status"].get<std::string>(), std::string("same"));
    const CliResult changed = runCli({"diff", root, "--epochs", "1", "3", "--json"});
    QCOMPARE(changed.exitCode, 0);
    QCOMPARE(changed.json()["tensors"][0]["status"].get<std::string>(), std::string("changed"));
    const CliResult missing = runCli({"diff", root, "--epochs", "1", "9"});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("no epoch 9"), missing.err.constData());
}

void tst_ModelCommands::diffErrors()
{
    ModelFixtures::keras2Weights(file("a.h5").toStdString(), 1);
    {
        H5Writer w(file("b.h5").toStdString());
        w.floats("/dense/dense/kernel:0", {3, 4}, ModelFixtures::values(12, 1));
    }
    const CliResult mismatch = runCli({"diff", file("a.h5"), file("b.h5"), "--json"});
    QCOMPARE(mismatch.exitCode, 1); // shape mismatch is a problem
    ModelFixtures::writeBytes(file("c.h5").toStdString(), "text");
    const CliResult bad = runCli({"diff", file("a.h5"), file("c.h5")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("c.h5: not an HDF5 file"), bad.err.constData());
}

QTEST_GUILESS_MAIN(tst_ModelCommands)
#include "tst_ModelCommands.moc"
