#include "CandleFixture.h"
#include "ops/LeftoverWork.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace ckpt;
using ckpt::test::CandleFixture;
namespace fs = std::filesystem;

class tst_LeftoverWork : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void movesAsideNeverDeletes();
    void refusesWhileASaveMayBeRunning();
    void nothingToMove();

private:
    void ageWork(std::chrono::seconds age);
    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_root;
};

void tst_LeftoverWork::init()
{
    m_tmp = std::make_unique<QTemporaryDir>();
    m_root = fs::path(m_tmp->path().toStdString()) / "RUN000" / "ckpts";
    CandleFixture f(m_root);
    f.addEpoch(1, 0.5, 64, true);
    fs::create_directories(m_root / "work");
    CandleFixture::writeText(m_root / "work" / "model.h5", "partial");
}

void tst_LeftoverWork::ageWork(std::chrono::seconds age)
{
    const auto then = fs::file_time_type::clock::now() - age;
    fs::last_write_time(m_root / "work" / "model.h5", then);
    fs::last_write_time(m_root / "work", then);
}

void tst_LeftoverWork::movesAsideNeverDeletes()
{
    ageWork(std::chrono::hours(2));
    auto moved = LeftoverWork::moveAside(m_root, {std::chrono::seconds(60), "alice@lab"});
    QVERIFY2(moved.ok(), moved.ok() ? "" : moved.error().message.c_str());
    QVERIFY(!fs::exists(m_root / "work"));
    QCOMPARE(moved->parent_path(), m_root);
    QVERIFY(moved->filename().string().starts_with("work.interrupted-"));
    QCOMPARE(CandleFixture::readText(*moved / "model.h5"), std::string("partial"));
    const std::string log = CandleFixture::readText(m_root / "ckpt.log");
    QVERIFY2(log.find("moving aside: " + (m_root / "work").string() + " -> " +
                      moved->filename().string()) != std::string::npos,
             log.c_str());
    QVERIFY(log.find("by alice@lab") != std::string::npos);
}

void tst_LeftoverWork::refusesWhileASaveMayBeRunning()
{
    // Just written: a trainer may be saving into it right now.
    auto moved = LeftoverWork::moveAside(m_root, {});
    QVERIFY(!moved.ok());
    QVERIFY2(moved.error().message.find("save may be in progress") != std::string::npos,
             moved.error().message.c_str());
    QVERIFY(fs::exists(m_root / "work" / "model.h5"));
    QVERIFY(!fs::exists(m_root / "ckpt.log"));
}

void tst_LeftoverWork::nothingToMove()
{
    fs::remove_all(m_root / "work");
    auto moved = LeftoverWork::moveAside(m_root, {});
    QVERIFY(!moved.ok());
    QVERIFY(moved.error().message.find("no leftover work/") != std::string::npos);
}

QTEST_GUILESS_MAIN(tst_LeftoverWork)
#include "tst_LeftoverWork.moc"
