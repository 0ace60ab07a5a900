#include "models/EpochTableModel.h"
#include "models/RunTreeModel.h"
#include "session/Workspace.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <ProtobufFixture.h>
#include <filesystem>

using namespace ckpt;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

constexpr int kLimitMs = 5000;

void save(const fs::path& dir, const std::string& prefix, int epoch)
{
    const fs::path final = dir / (prefix + "-" + std::to_string(epoch) + "_10.ckpt");
    const fs::path tmp = final.string() + ".tmp";
    ProtobufFixture::write(
        tmp, ProtobufFixture::mindspore(ProtobufFixture::network(epoch, 10), true), true);
    fs::rename(tmp, final);
}

QStringList epochRows(const EpochTableModel& table, const QString& root)
{
    QStringList out;
    for (int row = 0; row < table.rowCount(); ++row)
        if (table.rootAt(row) == root)
            out << QString::number(table.epochAt(row));
    return out;
}

} // namespace

// The studio's controller on a folder shared by two MindSpore training processes
// (net, then net_1 in the same folder): two runs in the sidebar, each with its own
// epochs, kept apart as they go on saving.
class tst_WorkspaceReruns : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sidebarShowsEachRun()
    {
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "ckpt";
        for (int e = 1; e <= 5; ++e)
            save(dir, "net", e);
        for (int e = 1; e <= 3; ++e)
            save(dir, "net_1", e);
        const QString net = QString::fromStdString((dir / "net").string());
        const QString net1 = QString::fromStdString((dir / "net_1").string());

        Workspace ws;
        QAbstractItemModelTester treeTester(ws.runTree());
        QAbstractItemModelTester tableTester(ws.epochTable());
        QSignalSpy finished(&ws, &Workspace::allScansFinished);
        ws.openFolders({tmp.path()});
        QVERIFY(finished.wait(10000));
        QTRY_VERIFY(ws.isIdle());
        ws.flushWatcher();

        const RunTreeModel* tree = ws.runTree();
        QVERIFY(tree->indexOfRun(net).isValid());
        QVERIFY(tree->indexOfRun(net1).isValid());
        QCOMPARE(tree->indexOfRun(net).data().toString(), QStringLiteral("ckpt/net"));
        QCOMPARE(tree->indexOfRun(net1).data().toString(), QStringLiteral("ckpt/net_1"));
        QCOMPARE(tree->summary(net)->epochs, 5);
        QCOMPARE(tree->summary(net1)->epochs, 3);
        QCOMPARE(ws.runName(net1), QStringLiteral("ckpt/net_1"));

        ws.showRuns({net, net1});
        QTRY_COMPARE_WITH_TIMEOUT(epochRows(*ws.epochTable(), net1), (QStringList{"1", "2", "3"}),
                                  kLimitMs);
        QCOMPARE(epochRows(*ws.epochTable(), net).size(), 5);

        // net_1 saves again: only net_1 grows.
        save(dir, "net_1", 4);
        QTRY_COMPARE_WITH_TIMEOUT(tree->summary(net1)->epochs, 4, kLimitMs);
        QTRY_COMPARE_WITH_TIMEOUT(epochRows(*ws.epochTable(), net1).size(), 4, kLimitMs);
        QCOMPARE(tree->summary(net)->epochs, 5);
        QCOMPARE(epochRows(*ws.epochTable(), net).size(), 5);

        // A third process starts in the folder: a new run in the sidebar.
        const QString net2 = QString::fromStdString((dir / "net_2").string());
        save(dir, "net_2", 1);
        QTRY_VERIFY_WITH_TIMEOUT(tree->indexOfRun(net2).isValid(), kLimitMs);
        QCOMPARE(tree->summary(net2)->epochs, 1);
    }
};

QTEST_GUILESS_MAIN(tst_WorkspaceReruns)
#include "tst_WorkspaceReruns.moc"
