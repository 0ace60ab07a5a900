#include "layout/DirReader.h"
#include "layout/Layout.h"

#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <filesystem>
#include <set>

using namespace ckpt;
namespace fs = std::filesystem;

class tst_Layout : public QObject
{
    Q_OBJECT
private slots:
    void find_data();
    void find();
    void builtins();
    void registryClaimsRunRoots();
};

void tst_Layout::find_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("index"); // -1: not found
    QTest::newRow("first") << "epochs" << 0;
    QTest::newRow("last") << "last" << 2;
    QTest::newRow("missing") << "best" << -1;
    QTest::newRow("prefix is not a match") << "epoch" << -1;
    QTest::newRow("empty") << "" << -1;
}

void tst_Layout::find()
{
    QFETCH(QString, name);
    QFETCH(int, index);
    DirListing listing;
    listing.entries = {{"epochs", DirEntry::Type::Directory},
                       {"ckpt.log", DirEntry::Type::File},
                       {"last", DirEntry::Type::Symlink}};
    const DirEntry* found = listing.find(name.toStdString());
    QCOMPARE(found ? int(found - listing.entries.data()) : -1, index);
}

void tst_Layout::builtins()
{
    const auto& layouts = builtinLayouts();
    QVERIFY(!layouts.empty());
    // CANDLE first: when two layouts claim a directory, the first wins.
    QCOMPARE(std::string(layouts.front()->name()), std::string("candle"));
    std::set<std::string> names;
    for (const Layout* layout : layouts) {
        const std::string name(layout->name());
        QVERIFY2(!name.empty(), "a layout without a name cannot be found again");
        QVERIFY2(names.insert(name).second, name.c_str());
        QCOMPARE(findLayout(name), layout);
    }
    QCOMPARE(findLayout("no-such-layout"), nullptr);
    QVERIFY(findLayout("lightning"));
    QCOMPARE(findLayout(""), nullptr);
}

// What discovery asks of the registry, on real directories: a CANDLE run root
// is claimed by the CANDLE layout, which loads it as its own; its parent and
// its epochs/ are claimed by no layout.
void tst_Layout::registryClaimsRunRoots()
{
    QTemporaryDir tmp;
    const fs::path root = fs::path(tmp.path().toStdString()) / "exp" / "ckpts";
    test::CandleFixture fx(root);
    fx.addEpoch(1, 0.5);
    fx.linkAbsolute("last", 1);
    const Layout* owner = layoutAt(root);
    QVERIFY(owner);
    QCOMPARE(owner, findLayout("candle"));
    QCOMPARE(owner->loadRun(root).layout, std::string(owner->name()));
    QVERIFY(owner->ownsSubdirectory("epochs"));
    QCOMPARE(layoutAt(root.parent_path()), nullptr);
    QCOMPARE(layoutAt(root / "epochs"), nullptr);
}

QTEST_GUILESS_MAIN(tst_Layout)
#include "tst_Layout.moc"
