#include "layout/Layout.h"

#include <QTest>

using namespace ckpt;

class tst_Layout : public QObject
{
    Q_OBJECT
private slots:
    void find_data();
    void find();
    void builtins();
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
    QCOMPARE(std::string(layouts.front()->name()), std::string("candle"));
    QCOMPARE(findLayout("candle"), layouts.front());
    QCOMPARE(findLayout("lightning"), nullptr);
    QCOMPARE(&builtinLayouts(), &layouts); // one registry, not rebuilt per call
}

QTEST_GUILESS_MAIN(tst_Layout)
#include "tst_Layout.moc"
