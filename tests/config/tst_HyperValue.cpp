#include "config/HyperValue.h"

#include <QTest>

#include <limits>
#include <string>

using ckpt::HyperValue;

class tst_HyperValue : public QObject
{
    Q_OBJECT

private slots:
    void literals_data();
    void literals();
    void badLiterals_data();
    void badLiterals();
    void booleans_data();
    void booleans();
    void wordsFallBackToStrings();
    void numbersConvert();
    void deepNestingIsRefusedNotACrash();
};

void tst_HyperValue::literals_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("repr"); // pythonLiteral() of the parsed value
    using K = HyperValue::Kind;
    QTest::newRow("single quoted") << "'adam'" << int(K::String) << "'adam'";
    QTest::newRow("double quoted") << "\"adam\"" << int(K::String) << "'adam'";
    QTest::newRow("escapes") << R"('a\'b\n')" << int(K::String) << R"("a'b\n")";
    QTest::newRow("int") << "128" << int(K::Int) << "128";
    QTest::newRow("negative int") << "-3" << int(K::Int) << "-3";
    QTest::newRow("underscore int") << "1_000" << int(K::Int) << "1000";
    QTest::newRow("exp float") << "1e-3" << int(K::Double) << "0.001";
    QTest::newRow("dot float") << ".5" << int(K::Double) << "0.5";
    QTest::newRow("trailing dot") << "2." << int(K::Double) << "2.0";
    QTest::newRow("big exp") << "1E16" << int(K::Double) << "1e+16";
    QTest::newRow("True") << "True" << int(K::Bool) << "True";
    QTest::newRow("False") << "False" << int(K::Bool) << "False";
    QTest::newRow("None") << "None" << int(K::Null) << "None";
    QTest::newRow("list") << "[128, 20, 1]" << int(K::List) << "[128, 20, 1]";
    QTest::newRow("mixed list") << "[ 'relu', 0.1, None, [1] ]" << int(K::List)
                                << "['relu', 0.1, None, [1]]";
    QTest::newRow("tuple as list") << "(1, 2,)" << int(K::List) << "[1, 2]";
    QTest::newRow("empty list") << "[]" << int(K::List) << "[]";
    QTest::newRow("spaces") << "  42  " << int(K::Int) << "42";
}

void tst_HyperValue::literals()
{
    QFETCH(QString, text);
    QFETCH(int, kind);
    QFETCH(QString, repr);
    auto v = HyperValue::parseLiteral(text.toStdString());
    QVERIFY2(v.ok(), v.ok() ? "" : v.error().message.c_str());
    QCOMPARE(int(v->kind()), kind);
    QCOMPARE(QString::fromStdString(v->pythonLiteral()), repr);
    // The literal we write parses back to the same value.
    auto again = HyperValue::parseLiteral(v->pythonLiteral());
    QVERIFY(again.ok());
    QVERIFY(again.value() == v.value());
}

void tst_HyperValue::badLiterals_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("bare word") << "adam"
                               << "strings need quotes";
    QTest::newRow("unterminated") << "'adam"
                                  << "unterminated";
    QTest::newRow("open list") << "[1, 2"
                               << "missing ']'";
    QTest::newRow("junk after") << "1 2"
                                << "unexpected text";
    QTest::newRow("empty") << ""
                           << "expected a value";
    QTest::newRow("bad number") << "1e"
                                << "malformed number";
}

void tst_HyperValue::badLiterals()
{
    QFETCH(QString, text);
    QFETCH(QString, mentions);
    auto v = HyperValue::parseLiteral(text.toStdString());
    QVERIFY(!v.ok());
    QVERIFY2(QString::fromStdString(v.error().message).contains(mentions),
             v.error().message.c_str());
}

void tst_HyperValue::booleans_data()
{
    QTest::addColumn<QString>("word");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<bool>("value");
    for (const char* t : {"yes", "true", "t", "y", "1", "True", "YES"})
        QTest::newRow(t) << t << true << true;
    for (const char* f : {"no", "false", "f", "n", "0", "False", "NO"})
        QTest::newRow(f) << f << true << false;
    QTest::newRow("maybe") << "maybe" << false << false;
    QTest::newRow("2") << "2" << false << false;
}

void tst_HyperValue::booleans()
{
    QFETCH(QString, word);
    QFETCH(bool, ok);
    QFETCH(bool, value);
    const auto b = HyperValue::fromWord(word.toStdString()).toBool();
    QCOMPARE(b.ok(), ok);
    if (ok)
        QCOMPARE(b.value(), value);
}

void tst_HyperValue::wordsFallBackToStrings()
{
    QCOMPARE(int(HyperValue::fromWord("auto").kind()), int(HyperValue::Kind::String));
    QCOMPARE(HyperValue::fromWord("auto").toString(), std::string("auto"));
    QCOMPARE(int(HyperValue::fromWord("0.01").kind()), int(HyperValue::Kind::Double));
    QCOMPARE(int(HyperValue::fromWord("[64, 32]").kind()), int(HyperValue::Kind::List));
    QCOMPARE(HyperValue::fromWord("/tmp/x y").toString(), std::string("/tmp/x y"));
}

void tst_HyperValue::numbersConvert()
{
    QCOMPARE(HyperValue::fromString("12").toInt().value(), std::int64_t(12));
    QCOMPARE(HyperValue::fromDouble(3.0).toInt().value(), std::int64_t(3));
    QVERIFY(!HyperValue::fromDouble(3.5).toInt().ok());
    QCOMPARE(HyperValue::fromInt(3).toDouble().value(), 3.0);
    QVERIFY(std::isinf(HyperValue::fromString("inf").toDouble().value()));
    QVERIFY(!HyperValue::fromString("x").toDouble().ok());
    // Found by fuzz_ini_config: "epochs = 7777...712" (61 digits) is a float to
    // Python and was cast to int64 (undefined behaviour); now it is no integer.
    auto huge = HyperValue::parseLiteral(std::string(60, '7') + "12");
    QVERIFY(huge && huge->kind() == HyperValue::Kind::Double);
    auto asInt = huge->toInt();
    QVERIFY(!asInt);
    QCOMPARE(asInt.error().message, "'" + huge->toString() + "' is not an integer");
    QVERIFY(!HyperValue::fromDouble(0x1p63).toInt().ok());
    QVERIFY(!HyperValue::fromDouble(-0x1p64).toInt().ok());
    QCOMPARE(HyperValue::fromDouble(-0x1p63).toInt().value(),
             std::numeric_limits<std::int64_t>::min());
    QCOMPARE(HyperValue::fromDouble(0x1p62).toInt().value(), std::int64_t(1) << 62);
}

// Found by fuzz_hyper_value: a literal of ~2,000 nested brackets overflowed
// the stack. 200 levels (Python's own limit) parse; one more is refused with
// the column, and the message quotes the start of the value only.
void tst_HyperValue::deepNestingIsRefusedNotACrash()
{
    const auto nested = [](int depth, char open, char close) {
        return std::string(std::size_t(depth), open) + std::string(std::size_t(depth), close);
    };
    auto deepest = HyperValue::parseLiteral(nested(200, '[', ']'));
    QVERIFY2(deepest.ok(), deepest.ok() ? "" : deepest.error().message.c_str());
    QCOMPARE(int(deepest->kind()), int(HyperValue::Kind::List));

    for (const std::string& text :
         {nested(201, '[', ']'), nested(201, '(', ')'), std::string(100000, '['),
          std::string(50000, '[') + std::string(50000, '(')}) {
        auto refused = HyperValue::parseLiteral(text);
        QVERIFY(!refused.ok());
        const QString message = QString::fromStdString(refused.error().message);
        QVERIFY2(message.startsWith("column 201: brackets nested deeper than 200 levels in '"),
                 qPrintable(message.left(300)));
        QVERIFY2(message.size() < 400, qPrintable(message.left(300)));
        QVERIFY(message.endsWith("...'"));
        // A bad word in a config file is kept as text, never a crash either.
        QCOMPARE(int(HyperValue::fromWord(text).kind()), int(HyperValue::Kind::String));
    }
}

QTEST_GUILESS_MAIN(tst_HyperValue)
#include "tst_HyperValue.moc"
