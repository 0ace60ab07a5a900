#include "json/LenientJson.h"

#include <QElapsedTimer>
#include <QTest>

#include <Slowdown.h>
#include <cmath>
#include <iterator>

using namespace ckpt;

class tst_LenientJson : public QObject
{
    Q_OBJECT
private slots:
    void parsesValues_data();
    void parsesValues();
    void nonFinite_data();
    void nonFinite();
    void keepsKeyOrder();
    void manyKeysStayLinear();
    void errors_data();
    void errors();
};

void tst_LenientJson::parsesValues_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical"); // nlohmann's dump of the result

    QTest::newRow("int") << "12"
                         << "12";
    QTest::newRow("negative") << "-3"
                              << "-3";
    QTest::newRow("float") << "0.1129"
                           << "0.1129";
    QTest::newRow("exponent") << "1e-3"
                              << "0.001";
    QTest::newRow("big unsigned") << "18446744073709551615"
                                  << "18446744073709551615";
    QTest::newRow("bigger than 64 bits") << "123456789012345678901234"
                                         << "1.2345678901234569e+23";
    // Below double's range Python's float() gives a zero of the number's sign,
    // not an infinity; a denormal stays a denormal.
    QTest::newRow("underflow") << "1e-400"
                               << "0.0";
    QTest::newRow("negative underflow") << "-1e-400"
                                        << "-0.0";
    QTest::newRow("underflow written long") << "0.000000000000000000001e-310"
                                            << "0.0";
    QTest::newRow("underflow, many digits first") << "123456789e-340"
                                                  << "0.0";
    QTest::newRow("smallest denormal") << "2.5e-324"
                                       << "5e-324";
    QTest::newRow("huge exponent of a zero") << "0.0e99999"
                                             << "0.0";
    QTest::newRow("string escapes") << R"("a\"b\\c\/d\n\t")"
                                    << R"("a\"b\\c/d\n\t")";
    QTest::newRow("unicode escape") << R"("\u00e9")"
                                    << "\"\xc3\xa9\"";
    QTest::newRow("surrogate pair") << R"("\ud83d\ude00")"
                                    << "\"\xf0\x9f\x98\x80\"";
    QTest::newRow("valid UTF-8 kept") << "\"caf\xc3\xa9\""
                                      << "\"caf\xc3\xa9\"";
    QTest::newRow("latin-1 byte replaced") << "latin1"
                                           << "\"caf\xef\xbf\xbd!\"";
    QTest::newRow("truncated sequence replaced") << "cut"
                                                 << "\"a\xef\xbf\xbd\"";
    QTest::newRow("lone surrogate escape") << R"("\ud800x")"
                                           << "\"\xef\xbf\xbdx\"";
    QTest::newRow("literals") << "[true, false, null]"
                              << "[true,false,null]";
    QTest::newRow("nested") << R"({"a": [1, {"b": []}], "c": {}})"
                            << R"({"a":[1,{"b":[]}],"c":{}})";
    QTest::newRow("whitespace") << " \n\t{ \"a\" :\r\n 1 } \n"
                                << R"({"a":1})";
    QTest::newRow("duplicate key keeps last") << R"({"a": 1, "b": 2, "a": 3})"
                                              << R"({"a":3,"b":2})";
}

void tst_LenientJson::parsesValues()
{
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    QByteArray utf8 = text.toUtf8();
    // Rows whose bytes are not valid UTF-8 cannot be spelt as QString literals.
    if (text == "latin1")
        utf8 = QByteArray("\"caf\xe9!\"");
    else if (text == "cut")
        utf8 = QByteArray("\"a\xe2\x82\"");
    else if (text == "surrogate")
        utf8 = QByteArray("\"\xed\xa0\x80\"");
    auto r = LenientJson::parse(std::string_view(utf8.constData(), utf8.size()), "x.json");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(QString::fromStdString(r->dump()), canonical);
}

void tst_LenientJson::nonFinite_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected");
    QTest::newRow("Infinity") << "Infinity" << HUGE_VAL;
    QTest::newRow("-Infinity") << "-Infinity" << -HUGE_VAL;
    QTest::newRow("NaN") << "NaN" << std::nan("");
    QTest::newRow("in object") << R"({"best_metric_last": Infinity})" << HUGE_VAL;
    QTest::newRow("overflowing literal") << "1e999" << HUGE_VAL;
    QTest::newRow("negative overflow") << "-12.5e400" << -HUGE_VAL;
    QTest::newRow("overflow, digits before the point") << "1234567890e300" << HUGE_VAL;
    QTest::newRow("overflow, point first") << "0.00001e315" << HUGE_VAL;
}

void tst_LenientJson::nonFinite()
{
    QFETCH(QString, text);
    QFETCH(double, expected);
    const std::string s = text.toStdString();
    auto r = LenientJson::parse(s, "x.json");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    const auto& v = r->is_object() ? r->front() : r.value();
    QVERIFY(v.is_number_float());
    const double d = v.get<double>();
    if (std::isnan(expected))
        QVERIFY(std::isnan(d));
    else
        QCOMPARE(d, expected);
}

void tst_LenientJson::keepsKeyOrder()
{
    auto r = LenientJson::parse(R"({"z": 1, "a": 2, "m": 3})", "");
    QVERIFY(r.ok());
    std::string keys;
    for (const auto& [k, v] : r->items())
        keys += k;
    QCOMPARE(keys, std::string("zam"));
}

void tst_LenientJson::manyKeysStayLinear()
{
    // Found while hardening for hostile files: ordered_json's insert searched the
    // keys linearly, so a 4 MiB object of 300,000 keys took minutes.
    std::string text = "{";
    for (int i = 0; i < 300000; ++i)
        text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
    text += "\"k5\": -5, \"k299999\": \"last\", \"k0\": null}";
    QElapsedTimer timer;
    timer.start();
    auto r = LenientJson::parse(text, "f.json");
    QVERIFY2(timer.elapsed() < 5000 * test::kSlowdown,
             "parsing must stay linear in the number of keys");
    QVERIFY(r.ok());
    QCOMPARE(r->size(), std::size_t(300000));
    // Python's semantics after the index takes over: the last value, in first position.
    QVERIFY(r->begin()->is_null());
    QCOMPARE(r->begin().key(), std::string("k0"));
    QCOMPARE((*r)["k5"].get<int>(), -5);
    QCOMPARE((*r)["k299999"].get<std::string>(), std::string("last"));
    QCOMPARE((*r)["k123456"].get<int>(), 123456);
    QCOMPARE(std::next(r->begin(), 5).key(), std::string("k5"));
    // Below the index threshold too.
    auto small = LenientJson::parse(R"({"a": 1, "b": 2, "a": 3})", "f.json");
    QCOMPARE(small->dump(), std::string(R"({"a":3,"b":2})"));
}

void tst_LenientJson::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");

    QTest::newRow("empty") << ""
                           << "f.json: file is empty";
    QTest::newRow("blank") << "  \n "
                           << "f.json: file is empty";
    QTest::newRow("missing comma") << R"({"a": 1 "b": 2})"
                                   << "f.json: expected ',' or '}' at 1:9 (found '\"')";
    QTest::newRow("truncated object") << R"({"epoch": 12, "save)"
                                      << "f.json: unexpected end of file at 1:20 (truncated?)";
    QTest::newRow("truncated literal") << R"({"best": Infin)"
                                       << "f.json: unexpected end of file at 1:15 (truncated?)";
    QTest::newRow("truncated after minus") << R"({"best": -)"
                                           << "f.json: unexpected end of file at 1:11 (truncated?)";
    QTest::newRow("garbage") << "\x01\x02PK"
                             << "f.json: expected a value at 1:1 (found byte 0x01)";
    QTest::newRow("second line") << "{\n\"a\": tru_}"
                                 << "f.json: expected a value at 2:6 (found 't')";
    QTest::newRow("trailing") << "{} x"
                              << "f.json: unexpected 'x' after the JSON value at 1:4";
    QTest::newRow("trailing comma") << R"({"a": 1,})"
                                    << "f.json: expected a string key at 1:9 (found '}')";
    QTest::newRow("bad escape") << R"("\x")"
                                << "f.json: expected a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r "
                                   "\\t \\u) at 1:3 (found 'x')";
    QTest::newRow("leading zero") << "012"
                                  << "f.json: unexpected '1' after the JSON value at 1:2";
    QTest::newRow("too deep") << QString(300, '[')
                              << "f.json: nesting deeper than 256 levels at 1:257";
}

void tst_LenientJson::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const QByteArray utf8 = text.toUtf8();
    auto r = LenientJson::parse(std::string_view(utf8.constData(), utf8.size()), "f.json");
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().message), message);
    QCOMPARE(r.error().path, std::string("f.json"));
}

QTEST_GUILESS_MAIN(tst_LenientJson)
#include "tst_LenientJson.moc"
