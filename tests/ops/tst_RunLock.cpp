#include "ops/RunLock.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
namespace fs = std::filesystem;

class tst_RunLock : public QObject
{
    Q_OBJECT

private slots:
    void secondHolderIsRefusedUntilRelease()
    {
        QTemporaryDir tmp;
        const fs::path root(tmp.path().toStdString());
        {
            auto first = RunLock::acquire(root);
            QVERIFY(first.ok());
            auto second = RunLock::acquire(root, std::chrono::milliseconds(0));
            QVERIFY(!second.ok());
            QVERIFY(second.error().message.find("in progress") != std::string::npos);
            QVERIFY(second.error().message.find(root.string()) != std::string::npos);
        }
        auto third = RunLock::acquire(root, std::chrono::milliseconds(0));
        QVERIFY(third.ok());
        QVERIFY(fs::exists(RunLock::stateDir(root) / "lock"));
    }

    void movedLockStaysHeld()
    {
        QTemporaryDir tmp;
        const fs::path root(tmp.path().toStdString());
        auto first = RunLock::acquire(root);
        QVERIFY(first.ok());
        RunLock moved = std::move(first.value());
        QVERIFY(!RunLock::acquire(root, std::chrono::milliseconds(0)).ok());
    }

    void unwritableRootIsAnError()
    {
        auto lock = RunLock::acquire("/proc/nonexistent-run", std::chrono::milliseconds(0));
        QVERIFY(!lock.ok());
        QVERIFY(lock.error().message.find("/proc/nonexistent-run") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(tst_RunLock)
#include "tst_RunLock.moc"
