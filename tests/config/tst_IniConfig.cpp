#include "config/HyperParams.h"
#include "config/IniConfig.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;

namespace {

const char* kConfig = "# CANDLE benchmark\n"
                      "[Global_Params]\n"
                      "model_name = 'demo'\n"
                      "Epochs=20\n"
                      "dense = [128, 20, 1]\n"
                      "learning_rate: 1e-3\n"
                      "; a comment\n"
                      "ckpt_save_best = True\n"
                      "metadata = None\n"
                      "\n"
                      "[Monitor_Params]\n"
                      "timeout = 3600\n"
                      "epochs = 99\n"
                      "solver = \"sgd\"\n";

} // namespace

class tst_IniConfig : public QObject
{
    Q_OBJECT

private slots:
    void parsesSectionsAndLiterals_data();
    void parsesSectionsAndLiterals();
    void firstKeyWinsAcrossSections();
    void continuationLines();
    void errors_data();
    void errors();
    void readFileErrorNamesFile();
    void renderKeepsCommentsAndRewritesChangedValues();
    void renderNewFile();
    void writeWithIsAtomicAndReadable();
};

void tst_IniConfig::parsesSectionsAndLiterals_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("literal");
    QTest::addColumn<QString>("section");
    QTest::addColumn<int>("line");
    QTest::newRow("string") << "model_name"
                            << "'demo'"
                            << "Global_Params" << 3;
    QTest::newRow("lower-cased key") << "epochs"
                                     << "20"
                                     << "Global_Params" << 4;
    QTest::newRow("list") << "dense"
                          << "[128, 20, 1]"
                          << "Global_Params" << 5;
    QTest::newRow("colon separator") << "learning_rate"
                                     << "0.001"
                                     << "Global_Params" << 6;
    QTest::newRow("bool") << "ckpt_save_best"
                          << "True"
                          << "Global_Params" << 8;
    QTest::newRow("none") << "metadata"
                          << "None"
                          << "Global_Params" << 9;
    QTest::newRow("other section") << "timeout"
                                   << "3600"
                                   << "Monitor_Params" << 12;
    QTest::newRow("double quotes") << "solver"
                                   << "'sgd'"
                                   << "Monitor_Params" << 14;
}

void tst_IniConfig::parsesSectionsAndLiterals()
{
    QFETCH(QString, key);
    QFETCH(QString, literal);
    QFETCH(QString, section);
    QFETCH(int, line);
    auto c = IniConfig::parse(kConfig, "demo.ini");
    QVERIFY2(c.ok(), c.ok() ? "" : c.error().message.c_str());
    const IniConfig::Entry* e = c->find(key.toStdString());
    QVERIFY(e);
    QCOMPARE(QString::fromStdString(e->value.pythonLiteral()), literal);
    QCOMPARE(QString::fromStdString(e->section), section);
    QCOMPARE(e->line, line);
    QCOMPARE(c->sections(), (std::vector<std::string>{"Global_Params", "Monitor_Params"}));
}

void tst_IniConfig::firstKeyWinsAcrossSections()
{
    auto c = IniConfig::parse(kConfig, "demo.ini");
    QVERIFY(c.ok());
    QCOMPARE(c->find("EPOCHS")->value.toInt().value(), std::int64_t(20));
    HyperParams p;
    p.applyConfig(*c);
    QCOMPARE(p.getInt("epochs", 0).value(), std::int64_t(20));
    QCOMPARE(p.getInt("timeout", 0).value(), std::int64_t(3600));
    int epochsEntries = 0;
    for (const auto& e : c->entries())
        epochsEntries += e.key == "epochs" && !e.shadowed;
    QCOMPARE(epochsEntries, 1);
}

void tst_IniConfig::continuationLines()
{
    auto c = IniConfig::parse("[G]\nconv = [1,\n   2,\n   3]\nx = 1\n", "c.ini");
    QVERIFY2(c.ok(), c.ok() ? "" : c.error().message.c_str());
    QCOMPARE(c->find("conv")->value.pythonLiteral(), std::string("[1, 2, 3]"));
    QCOMPARE(c->find("x")->value.toInt().value(), std::int64_t(1));
}

void tst_IniConfig::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("bare word value") << "[G]\nepochs = 3\noptimizer = adam\n"
                                     << "bad.ini:3: value of 'optimizer' is not a Python literal";
    QTest::newRow("no separator") << "[G]\n\njust words\n"
                                  << "bad.ini:3: expected 'key = value'";
    QTest::newRow("before section") << "epochs = 3\n[G]\n"
                                    << "bad.ini:1: 'epochs = 3' comes before";
    QTest::newRow("empty key") << "[G]\n= 3\n"
                               << "bad.ini:2: empty key";
    QTest::newRow("open list") << "[G]\na = 1\nb = [1, 2\n"
                               << "bad.ini:3: value of 'b'";
    // Found by fuzz_ini_config: ~2,000 nested brackets overflowed the stack.
    QTest::newRow("nested 100,000 deep")
        << "[G]\nlayers = " + QString(100000, '[') + "\n"
        << "bad.ini:2: value of 'layers' is not a Python literal: column 201: brackets nested "
           "deeper than 200 levels";
}

void tst_IniConfig::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    auto c = IniConfig::parse(text.toStdString(), "bad.ini");
    QVERIFY(!c.ok());
    QVERIFY2(QString::fromStdString(c.error().message).startsWith(expected),
             c.error().message.c_str());
    QCOMPARE(c.error().path, std::string("bad.ini"));
}

void tst_IniConfig::readFileErrorNamesFile()
{
    QTemporaryDir dir;
    auto missing = IniConfig::readFile(dir.filePath("nope.ini").toStdString());
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.find("nope.ini") != std::string::npos);
}

void tst_IniConfig::renderKeepsCommentsAndRewritesChangedValues()
{
    auto c = IniConfig::parse(kConfig, "demo.ini");
    QVERIFY(c.ok());
    HyperParams p;
    p.applyConfig(*c);
    p.set("epochs", HyperValue::fromInt(40), HyperParams::Source::CommandLine);
    p.set("learning_rate", HyperValue::fromDouble(0.0005), HyperParams::Source::CommandLine);
    p.set("ckpt_restart_mode", HyperValue::fromString("required"),
          HyperParams::Source::CommandLine);
    p.set("seed", HyperValue::fromInt(7), HyperParams::Source::Default); // defaults stay out
    const std::string expected = "# CANDLE benchmark\n"
                                 "[Global_Params]\n"
                                 "model_name = 'demo'\n"
                                 "Epochs=40\n"
                                 "dense = [128, 20, 1]\n"
                                 "learning_rate: 0.0005\n"
                                 "; a comment\n"
                                 "ckpt_save_best = True\n"
                                 "metadata = None\n"
                                 "ckpt_restart_mode = 'required'\n"
                                 "\n"
                                 "[Monitor_Params]\n"
                                 "timeout = 3600\n"
                                 "epochs = 99\n"
                                 "solver = \"sgd\"\n";
    QCOMPARE(c->renderWith(p), expected);
    // Unchanged parameters leave the text byte-identical.
    HyperParams same;
    same.applyConfig(*c);
    QCOMPARE(c->renderWith(same), std::string(kConfig));
}

void tst_IniConfig::renderNewFile()
{
    HyperParams p;
    p.set("epochs", HyperValue::fromInt(5), HyperParams::Source::CommandLine);
    p.set("dense", HyperValue::fromWord("[8, 4]"), HyperParams::Source::CommandLine);
    QCOMPARE(IniConfig().renderWith(p),
             std::string("[Global_Params]\nepochs = 5\ndense = [8, 4]\n"));
}

void tst_IniConfig::writeWithIsAtomicAndReadable()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("edited.ini").toStdString();
    auto c = IniConfig::parse(kConfig, "demo.ini");
    QVERIFY(c.ok());
    HyperParams p;
    p.applyConfig(*c);
    p.set("epochs", HyperValue::fromInt(41), HyperParams::Source::CommandLine);
    QVERIFY(c->writeWith(path, p).ok());
    auto back = IniConfig::readFile(path);
    QVERIFY(back.ok());
    QCOMPARE(back->find("epochs")->value.toInt().value(), std::int64_t(41));
    QCOMPARE(back->find("model_name")->value.toString(), std::string("demo"));
}

QTEST_GUILESS_MAIN(tst_IniConfig)
#include "tst_IniConfig.moc"
