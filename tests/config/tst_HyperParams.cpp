#include "config/HyperParams.h"
#include "config/IniConfig.h"

#include <QTest>

using namespace ckpt;
using Source = HyperParams::Source;

class tst_HyperParams : public QObject
{
    Q_OBJECT

private slots:
    void precedence_data();
    void precedence();
    void commandLineForms();
    void commandLineErrors();
    void typedGettersNameTheParameter();
    void orderIsKept();
};

void tst_HyperParams::precedence_data()
{
    QTest::addColumn<bool>("inDefault");
    QTest::addColumn<bool>("inFile");
    QTest::addColumn<bool>("onCommandLine");
    QTest::addColumn<int>("expected");
    QTest::addColumn<int>("source");
    QTest::newRow("default only") << true << false << false << 1 << int(Source::Default);
    QTest::newRow("file over default") << true << true << false << 2 << int(Source::ConfigFile);
    QTest::newRow("command line over all") << true << true << true << 3 << int(Source::CommandLine);
    QTest::newRow("command line over file")
        << false << true << true << 3 << int(Source::CommandLine);
}

void tst_HyperParams::precedence()
{
    QFETCH(bool, inDefault);
    QFETCH(bool, inFile);
    QFETCH(bool, onCommandLine);
    QFETCH(int, expected);
    QFETCH(int, source);
    HyperParams p;
    // Applied in the "wrong" order on purpose: precedence does not depend on it.
    if (onCommandLine)
        QVERIFY(p.applyCommandLine({"--epochs", "3"}).ok());
    if (inFile) {
        auto c = IniConfig::parse("[Global_Params]\nepochs = 2\n", "f.ini");
        QVERIFY(c.ok());
        p.applyConfig(*c);
    }
    if (inDefault)
        p.setDefault("epochs", HyperValue::fromInt(1));
    QCOMPARE(p.getInt("epochs", -1).value(), std::int64_t(expected));
    QCOMPARE(int(p.find("epochs")->source), source);
}

void tst_HyperParams::commandLineForms()
{
    HyperParams p;
    auto rest = p.applyCommandLine({"--epochs", "5", "--learning_rate=0.01", "--ckpt_checksum",
                                    "--dense", "[64, 32]", "--Metadata", "job 7", "extra",
                                    "--ckpt_restart_mode=auto", "--shift", "-1"});
    QVERIFY2(rest.ok(), rest.ok() ? "" : rest.error().message.c_str());
    QCOMPARE(rest.value(), std::vector<std::string>{"extra"});
    QCOMPARE(p.getInt("epochs", 0).value(), std::int64_t(5));
    QCOMPARE(p.getDouble("learning_rate", 0).value(), 0.01);
    QCOMPARE(p.getBool("ckpt_checksum", false).value(), true);
    QCOMPARE(p.value("dense")->pythonLiteral(), std::string("[64, 32]"));
    QCOMPARE(p.getString("metadata", ""), std::string("job 7"));
    QCOMPARE(p.getString("ckpt_restart_mode", ""), std::string("auto"));
    QCOMPARE(p.getInt("shift", 0).value(), std::int64_t(-1));
}

void tst_HyperParams::commandLineErrors()
{
    HyperParams p;
    auto r = p.applyCommandLine({"-x"});
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.find("-x") != std::string::npos);
    QVERIFY(!p.applyCommandLine({"--=3"}).ok());
}

void tst_HyperParams::typedGettersNameTheParameter()
{
    HyperParams p;
    QVERIFY(p.applyCommandLine({"--ckpt_save_best", "maybe", "--epochs", "many"}).ok());
    auto b = p.getBool("ckpt_save_best", true);
    QVERIFY(!b.ok());
    QVERIFY(b.error().message.find("ckpt_save_best") != std::string::npos);
    auto e = p.getInt("epochs", 1);
    QVERIFY(!e.ok());
    QVERIFY(e.error().message.find("'epochs'") != std::string::npos);
    QCOMPARE(p.getInt("absent", 9).value(), std::int64_t(9));
    p.set("metadata", HyperValue::null(), Source::CommandLine);
    QVERIFY(!p.getOptionalString("metadata").has_value());
}

void tst_HyperParams::orderIsKept()
{
    HyperParams p;
    p.setDefault("b", HyperValue::fromInt(1));
    p.setDefault("a", HyperValue::fromInt(2));
    p.set("B", HyperValue::fromInt(3), Source::ConfigFile);
    QCOMPARE(p.items().size(), size_t(2));
    QCOMPARE(p.items()[0].name, std::string("b"));
    QCOMPARE(p.items()[0].value.toInt().value(), std::int64_t(3));
    QCOMPARE(p.items()[1].name, std::string("a"));
}

QTEST_GUILESS_MAIN(tst_HyperParams)
#include "tst_HyperParams.moc"
