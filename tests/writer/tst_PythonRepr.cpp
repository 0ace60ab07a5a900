#include "PythonRunner.h"
#include "json/PythonRepr.h"

#include <QTest>

#include <cmath>
#include <limits>

using ckpt::PythonRepr;

class tst_PythonRepr : public QObject
{
    Q_OBJECT

private slots:
    void floatRepr_data();
    void floatRepr();
    void jsonFloatNonFinite();
    void jsonString_data();
    void jsonString();
    void stringRepr_data();
    void stringRepr();
    void dumpJsonCompactAndIndented();
    void matchesPythonJsonDumps();
};

void tst_PythonRepr::floatRepr_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << 0.0 << "0.0";
    QTest::newRow("neg zero") << -0.0 << "-0.0";
    QTest::newRow("integral") << 123.0 << "123.0";
    QTest::newRow("1e-4 fixed") << 0.0001 << "0.0001";
    QTest::newRow("1e-5 exp") << 1e-05 << "1e-05";
    QTest::newRow("1.5e-5") << 1.5e-05 << "1.5e-05";
    QTest::newRow("1e15 fixed") << 1e15 << "1000000000000000.0";
    QTest::newRow("1e16 exp") << 1e16 << "1e+16";
    QTest::newRow("1.234e17") << 1.234e17 << "1.234e+17";
    QTest::newRow("tenth") << 0.1 << "0.1";
    QTest::newRow("float32 tenth") << static_cast<double>(0.1f) << "0.10000000149011612";
    QTest::newRow("third") << 1.0 / 3.0 << "0.3333333333333333";
    QTest::newRow("negative") << -2.5 << "-2.5";
    QTest::newRow("big exp") << 1e300 << "1e+300";
    QTest::newRow("tiny") << 5e-324 << "5e-324";
    QTest::newRow("elapsed") << 0.004123 << "0.004123";
    QTest::newRow("max") << std::numeric_limits<double>::max() << "1.7976931348623157e+308";
}

void tst_PythonRepr::floatRepr()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(PythonRepr::floatRepr(value)), expected);
}

void tst_PythonRepr::jsonFloatNonFinite()
{
    const double inf = std::numeric_limits<double>::infinity();
    QCOMPARE(PythonRepr::jsonFloat(inf), std::string("Infinity"));
    QCOMPARE(PythonRepr::jsonFloat(-inf), std::string("-Infinity"));
    QCOMPARE(PythonRepr::jsonFloat(std::nan("")), std::string("NaN"));
    QCOMPARE(PythonRepr::floatRepr(inf), std::string("inf"));
    QCOMPARE(PythonRepr::jsonFloat(0.5), std::string("0.5"));
}

void tst_PythonRepr::jsonString_data()
{
    QTest::addColumn<QByteArray>("utf8");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << QByteArray("job 4242") << QByteArray("\"job 4242\"");
    QTest::newRow("quote backslash") << QByteArray("a\"b\\c") << QByteArray("\"a\\\"b\\\\c\"");
    QTest::newRow("controls") << QByteArray("\n\r\t\b\f") << QByteArray("\"\\n\\r\\t\\b\\f\"");
    QTest::newRow("other control") << QByteArray("\x01") << QByteArray("\"\\u0001\"");
    QTest::newRow("DEL") << QByteArray("\x7f") << QByteArray("\"\\u007f\"");
    QTest::newRow("latin") << QByteArray("caf\xc3\xa9") << QByteArray("\"caf\\u00e9\"");
    QTest::newRow("emoji surrogates")
        << QByteArray("\xf0\x9f\x98\x80") << QByteArray("\"\\ud83d\\ude00\"");
    QTest::newRow("invalid byte") << QByteArray("a\xffz") << QByteArray("\"a\\ufffdz\"");
    // Python: b"\xe2\x82x".decode("utf-8", "replace") is one U+FFFD, then x.
    QTest::newRow("truncated sequence") << QByteArray("\xe2\x82x") << QByteArray("\"\\ufffdx\"");
    QTest::newRow("slash kept") << QByteArray("a/b") << QByteArray("\"a/b\"");
}

void tst_PythonRepr::jsonString()
{
    QFETCH(QByteArray, utf8);
    QFETCH(QByteArray, expected);
    QCOMPARE(QByteArray::fromStdString(PythonRepr::jsonString(utf8.toStdString())), expected);
}

void tst_PythonRepr::stringRepr_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("simple") << "adam"
                            << "'adam'";
    QTest::newRow("single inside") << "it's"
                                   << "\"it's\"";
    QTest::newRow("both") << "it's \"x\""
                          << "'it\\'s \"x\"'";
    QTest::newRow("newline") << "a\nb"
                             << "'a\\nb'";
}

void tst_PythonRepr::stringRepr()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(PythonRepr::stringRepr(text.toStdString())), expected);
}

void tst_PythonRepr::dumpJsonCompactAndIndented()
{
    nlohmann::ordered_json j;
    j["b"] = 1;
    j["a"] = nlohmann::ordered_json::array({1.0, 2.5, nullptr, true});
    j["inf"] = std::numeric_limits<double>::infinity();
    j["o"] = nlohmann::ordered_json::object();
    QCOMPARE(PythonRepr::dumpJson(j),
             std::string(R"({"b": 1, "a": [1.0, 2.5, null, true], "inf": Infinity, "o": {}})"));
    QCOMPARE(PythonRepr::dumpJson(j, 2), std::string("{\n  \"b\": 1,\n  \"a\": [\n    1.0,\n    "
                                                     "2.5,\n    null,\n    true\n  ],\n  \"inf\": "
                                                     "Infinity,\n  \"o\": {}\n}"));
}

// The same table of values through Python's json.dumps and through us.
void tst_PythonRepr::matchesPythonJsonDumps()
{
    const std::vector<double> values = {0.0,
                                        -0.0,
                                        1.0,
                                        123.0,
                                        0.0001,
                                        1e-05,
                                        1e16,
                                        9.999e15,
                                        1e15,
                                        1e-4,
                                        0.1,
                                        1.0 / 3,
                                        2.5e-7,
                                        6.02e23,
                                        -1.5e-10,
                                        3.14159,
                                        1e22,
                                        123456789.125,
                                        0.1f,
                                        1.0f / 3,
                                        0.699999988079071,
                                        1e-323,
                                        1.7976931348623157e308};
    QByteArray input;
    std::string ours;
    for (double v : values) {
        input += QByteArray::fromStdString(PythonRepr::floatRepr(v)) + "\n";
        ours += PythonRepr::jsonFloat(v) + "\n";
    }
    ours += PythonRepr::jsonFloat(std::numeric_limits<double>::infinity()) + "\n";
    ours += PythonRepr::jsonString("caf\xc3\xa9 \xf0\x9f\x98\x80 \"q\" \x01\x7f") + "\n";
    const auto r =
        ckpt::test::runPython("import sys, json\n"
                              "for line in sys.stdin.read().split():\n"
                              "    v = float(line)\n"
                              "    assert repr(v) == line, (repr(v), line)\n"
                              "    print(json.dumps(v))\n"
                              "print(json.dumps(float('inf')))\n"
                              "print(json.dumps('caf\\u00e9 \\U0001F600 \"q\" \\x01\\x7f'))\n",
                              {}, input);
    if (!r.started)
        QSKIP("python3 is not available");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(r.out, QString::fromStdString(ours));
}

QTEST_GUILESS_MAIN(tst_PythonRepr)
#include "tst_PythonRepr.moc"
