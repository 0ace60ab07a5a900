#include "candle/CandleConfigFile.h"
#include "candle/CandleLayout.h"
#include "launch/RunConfigFinder.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sys/stat.h>

using namespace ckpt;
namespace fs = std::filesystem;

// The CANDLE config kept in a run's folder, found for Fork/Restart and
// `ckpt params` when nothing else names the run's parameter file.
class tst_CandleConfigFile : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void runFolderOfTheCheckpointRoot_data();
    void runFolderOfTheCheckpointRoot();
    void theOneConfigBesideTheRun();
    void twoConfigsNameNone();
    void otherFilesAreNotConfigs();
    void specialAndHugeFilesAreSkipped();
    void theFinderFallsBackOnIt();

private:
    fs::path run(const char* name);
    static void write(const fs::path& path, const std::string& text);

    std::unique_ptr<QTemporaryDir> m_dir;
    fs::path m_base;
};

void tst_CandleConfigFile::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_base = m_dir->path().toStdString();
}

fs::path tst_CandleConfigFile::run(const char* name)
{
    const fs::path root = m_base / name / "ckpts";
    fs::create_directories(root / "epochs" / "001");
    write(root / "epochs" / "001" / "ckpt-info.json", "{\"epoch\": 1}");
    return root;
}

void tst_CandleConfigFile::write(const fs::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

void tst_CandleConfigFile::runFolderOfTheCheckpointRoot_data()
{
    QTest::addColumn<QString>("root");
    QTest::addColumn<QString>("folder");
    QTest::newRow("ckpts") << "/x/RUN/ckpts"
                           << "/x/RUN";
    QTest::newRow("save/ckpts") << "/x/RUN/save/ckpts"
                                << "/x/RUN";
    QTest::newRow("trailing slash") << "/x/RUN/ckpts/"
                                    << "/x/RUN";
    QTest::newRow("another name") << "/x/RUN/checkpoints"
                                  << "/x/RUN/checkpoints";
}

void tst_CandleConfigFile::runFolderOfTheCheckpointRoot()
{
    QFETCH(QString, root);
    QFETCH(QString, folder);
    QCOMPARE(QString::fromStdString(CandleConfigFile::runFolderOf(root.toStdString()).string()),
             folder);
}

void tst_CandleConfigFile::theOneConfigBesideTheRun()
{
    const fs::path root = run("RUN000");
    write(m_base / "RUN000" / "default_model.txt",
          "# the benchmark's config\n  [Global_Params]  \nepochs = 10\nlearning_rate = 0.01\n");
    write(m_base / "RUN000" / "notes.txt", "trained on the big node\n");
    QCOMPARE(CandleConfigFile::besideRun(root),
             std::optional(m_base / "RUN000" / "default_model.txt"));
    QCOMPARE(CandleLayout::instance().paramsFile(root),
             std::optional(m_base / "RUN000" / "default_model.txt"));

    // save/ckpts: the folder above save/.
    const fs::path saved = m_base / "RUN001" / "save" / "ckpts";
    fs::create_directories(saved / "epochs");
    write(m_base / "RUN001" / "config.ini", "[global_params]\nepochs = 3\n");
    QCOMPARE(CandleConfigFile::besideRun(saved), std::optional(m_base / "RUN001" / "config.ini"));
}

void tst_CandleConfigFile::twoConfigsNameNone()
{
    const fs::path root = run("RUN000");
    write(m_base / "RUN000" / "a.ini", "[Global_Params]\nepochs = 10\n");
    write(m_base / "RUN000" / "b.txt", "[Global_Params]\nepochs = 20\n");
    QCOMPARE(CandleConfigFile::besideRun(root), std::nullopt); // which one is for the user to say
}

void tst_CandleConfigFile::otherFilesAreNotConfigs()
{
    const fs::path root = run("RUN000");
    write(m_base / "RUN000" / "training.log", "epoch,loss\n0,1.0\n");
    write(m_base / "RUN000" / "params.json", "{\"Global_Params\": {}}\n");
    write(m_base / "RUN000" / "other.ini", "[Monitor_Params]\n[Global_Params_x]\n");
    fs::create_directories(m_base / "RUN000" / "dir.ini");
    QCOMPARE(CandleConfigFile::besideRun(root), std::nullopt);
    QCOMPARE(CandleConfigFile::besideRun(m_base / "nowhere" / "ckpts"), std::nullopt);
}

void tst_CandleConfigFile::specialAndHugeFilesAreSkipped()
{
    const fs::path root = run("RUN000");
    // A FIFO named like a config: opening it would wait for a writer forever.
    QCOMPARE(::mkfifo((m_base / "RUN000" / "fifo.ini").c_str(), 0644), 0);
    // Over the 1 MiB limit, though it has the section.
    write(m_base / "RUN000" / "huge.txt", "[Global_Params]\n" + std::string(2 << 20, '#'));
    fs::create_symlink("/dev/zero", m_base / "RUN000" / "zero.cfg");
    write(m_base / "RUN000" / "config.ini", "[Global_Params]\nepochs = 10\n");
    QCOMPARE(CandleConfigFile::besideRun(root), std::optional(m_base / "RUN000" / "config.ini"));
}

void tst_CandleConfigFile::theFinderFallsBackOnIt()
{
    const fs::path root = run("RUN000");
    const LaunchRegistry registry((m_base / "registry.json").string());
    QVERIFY(!RunConfigFinder::configFor(root, registry));
    write(m_base / "RUN000" / "config.ini", "[Global_Params]\nepochs = 10\n");
    const auto found = RunConfigFinder::configFor(root, registry);
    QVERIFY2(found, found ? "" : found.error().message.c_str());
    QCOMPARE(*found, (m_base / "RUN000" / "config.ini").string());
}

QTEST_GUILESS_MAIN(tst_CandleConfigFile)
#include "tst_CandleConfigFile.moc"
