#include "candle/CandleResume.h"
#include "launch/CommandTemplate.h"

#include <QTest>

using namespace ckpt;

Q_DECLARE_METATYPE(std::vector<std::string>)

class tst_CommandTemplate : public QObject
{
    Q_OBJECT

private slots:
    void expand_data();
    void expand();
    void errors_data();
    void errors();
    void placeholdersInOrder();
    void wordsRoundTrip_data();
    void wordsRoundTrip();
    void defaultTemplates();
    void valuesFromParameters();
};

void tst_CommandTemplate::expand_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::vector<std::string>>("argv");
    using V = std::vector<std::string>;
    QTest::newRow("plain") << "train --epochs {epochs}" << V{"train", "--epochs", "12"};
    QTest::newRow("value with spaces stays one word")
        << "train --config_file {config}" << V{"train", "--config_file", "/runs/my run/a b.ini"};
    QTest::newRow("value is not re-split or globbed")
        << "t --x={learning_rate}" << V{"t", "--x=$(rm -rf /) *"};
    QTest::newRow("quotes group words")
        << "python3 'my script.py' \"--note=a b\"" << V{"python3", "my script.py", "--note=a b"};
    QTest::newRow("placeholder inside quotes") << "t '{output_dir}/x'" << V{"t", "/out/x"};
    QTest::newRow("escaped braces") << "t {{literal}} {epochs}" << V{"t", "{literal}", "12"};
    QTest::newRow("backslash escapes a space") << "t a\\ b" << V{"t", "a b"};
    QTest::newRow("empty quoted word") << "t ''" << V{"t", ""};
    QTest::newRow("shell on request")
        << "shell: cd {output_dir} && train --config {config} > log"
        << V{"/bin/sh", "-c", "cd /out && train --config '/runs/my run/a b.ini' > log"};
    QTest::newRow("shell quotes hostile values")
        << "shell:echo {learning_rate}" << V{"/bin/sh", "-c", "echo '$(rm -rf /) *'"};
}

void tst_CommandTemplate::expand()
{
    QFETCH(QString, text);
    QFETCH(std::vector<std::string>, argv);
    const std::map<std::string, std::string> values = {{"epochs", "12"},
                                                       {"config", "/runs/my run/a b.ini"},
                                                       {"output_dir", "/out"},
                                                       {"learning_rate", "$(rm -rf /) *"}};
    CommandTemplate t(text.toStdString());
    auto got = t.expand(values);
    QVERIFY2(got, got ? "" : got.error().message.c_str());
    QCOMPARE(*got, argv);
}

void tst_CommandTemplate::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing values named") << "t {config} {nope} {other}"
                                          << "no value for {nope}, {other}";
    QTest::newRow("unterminated brace") << "t {config"
                                        << "unterminated '{' at column 3";
    QTest::newRow("stray closing brace") << "t config}"
                                         << "unmatched '}' at column 9";
    QTest::newRow("bad name") << "t {a b}"
                              << "'{a b}' is not a placeholder name";
    QTest::newRow("unbalanced quote") << "t 'abc"
                                      << "unbalanced '";
    QTest::newRow("empty") << "   "
                           << "empty";
}

void tst_CommandTemplate::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    auto got = CommandTemplate(text.toStdString()).expand({{"config", "c"}});
    QVERIFY(!got);
    QVERIFY2(QString::fromStdString(got.error().message).contains(message),
             got.error().message.c_str());
}

void tst_CommandTemplate::placeholdersInOrder()
{
    auto names = CommandTemplate("a {x} {y} '{x}' {{z}}").placeholders();
    QVERIFY(names);
    QCOMPARE(*names, (std::vector<std::string>{"x", "y"}));
}

void tst_CommandTemplate::defaultTemplates()
{
    const std::map<std::string, std::string> values = {{"config", "/r/c.ini"},
                                                       {"output_dir", "/r"},
                                                       {"ckpt_directory", "/r/ckpts"},
                                                       {"epochs", "10"},
                                                       {"ckpt_restart_mode", "required"}};
    auto demo =
        CommandTemplate(CandleResume::demoTrainerCommand("/opt/ckpt studio/ckpt-demo-train"))
            .expand(values);
    QVERIFY(demo);
    QCOMPARE(*demo, (std::vector<std::string>{"/opt/ckpt studio/ckpt-demo-train", "--config_file",
                                              "/r/c.ini", "--output_dir", "/r", "--ckpt_directory",
                                              "/r/ckpts", "--epochs", "10", "--ckpt_restart_mode",
                                              "required"}));
    auto candle =
        CommandTemplate(CandleResume::benchmarkCommand("nt3_baseline_keras2.py")).expand(values);
    QVERIFY(candle);
    QCOMPARE(candle->at(0), std::string("python3"));
    QCOMPARE(candle->at(1), std::string("nt3_baseline_keras2.py"));
    QCOMPARE(candle->at(2), std::string("--config_file"));
    QCOMPARE(candle->at(3), std::string("/r/c.ini"));
    QCOMPARE(CommandTemplate::displayArgv(*demo).substr(0, 36),
             std::string("'/opt/ckpt studio/ckpt-demo-train' -"));
}

void tst_CommandTemplate::valuesFromParameters()
{
    HyperParams p;
    p.set("dense", HyperValue::fromList({HyperValue::fromInt(32), HyperValue::fromInt(16)}),
          HyperParams::Source::ConfigFile);
    p.set("optimizer", HyperValue::fromString("adam"), HyperParams::Source::ConfigFile);
    p.set("learning_rate", HyperValue::fromDouble(1e-3), HyperParams::Source::ConfigFile);
    auto argv = CommandTemplate("t --dense {dense} --opt {optimizer} --lr {learning_rate}")
                    .expand(CommandTemplate::valuesFrom(p));
    QVERIFY(argv);
    QCOMPARE(*argv, (std::vector<std::string>{"t", "--dense", "[32, 16]", "--opt", "adam", "--lr",
                                              "0.001"}));
}

// words() is what a far launch sends after `ckpt launch ... --`; the far ckpt
// quotes each word back into a template: the same argv must come out.
void tst_CommandTemplate::wordsRoundTrip_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::vector<std::string>>("words");
    using V = std::vector<std::string>;
    QTest::newRow("plain") << "train --epochs {epochs}" << V{"train", "--epochs", "{epochs}"};
    QTest::newRow("quotes group words")
        << "python3 'my script.py' \"--note=a b\"" << V{"python3", "my script.py", "--note=a b"};
    QTest::newRow("placeholder inside quotes")
        << "t '{output_dir}/x y'" << V{"t", "{output_dir}/x y"};
    QTest::newRow("escaped braces stay escaped")
        << "t {{literal}} {epochs}" << V{"t", "{{literal}}", "{epochs}"};
    QTest::newRow("backslash escapes a space") << "t a\\ b" << V{"t", "a b"};
    QTest::newRow("empty quoted word") << "t ''" << V{"t", ""};
}

void tst_CommandTemplate::wordsRoundTrip()
{
    QFETCH(QString, text);
    QFETCH(std::vector<std::string>, words);
    const CommandTemplate original(text.toStdString());
    auto got = original.words();
    QVERIFY2(got, got ? "" : got.error().message.c_str());
    QCOMPARE(*got, words);
    std::string joined;
    for (const std::string& w : *got) {
        if (!joined.empty())
            joined += ' ';
        joined += CommandTemplate::shellQuote(w);
    }
    const std::map<std::string, std::string> values = {{"epochs", "12"}, {"output_dir", "/out"}};
    auto before = original.expand(values);
    auto after = CommandTemplate(joined).expand(values);
    QVERIFY2(before && after, joined.c_str());
    QCOMPARE(*after, *before);
}

QTEST_GUILESS_MAIN(tst_CommandTemplate)
#include "tst_CommandTemplate.moc"
