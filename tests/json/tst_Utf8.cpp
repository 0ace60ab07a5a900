#include "../writer/PythonRunner.h"
#include "json/LenientJson.h"
#include "json/PythonRepr.h"
#include "json/Utf8.h"

#include <QTest>

using namespace ckpt;

// The project's one UTF-8 decoder must replace broken input exactly as Python's
// bytes.decode("utf-8", "replace") does: the files we read were written by Python.
class tst_Utf8 : public QObject
{
    Q_OBJECT

private slots:
    void appendValid_data();
    void appendValid();
    void decodeAdvances();
    void encodeRoundTrips();
    void everyUserOfTheDecoderAgrees();
    void matchesPython();
};

void tst_Utf8::appendValid_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QByteArray>("expected");
    const QByteArray r("\xef\xbf\xbd");
    QTest::newRow("ascii") << QByteArray("abc") << QByteArray("abc");
    QTest::newRow("all lengths") << QByteArray("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80")
                                 << QByteArray("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    QTest::newRow("truncated 3-byte before ascii") << QByteArray("\xe2\x82x") << r + "x";
    QTest::newRow("truncated 4-byte at end") << QByteArray("a\xf0\x9f\x98") << "a" + r;
    QTest::newRow("lone continuation") << QByteArray("\x80\x80") << r + r;
    QTest::newRow("overlong 2-byte") << QByteArray("\xc0\xaf") << r + r;
    QTest::newRow("overlong 3-byte") << QByteArray("\xe0\x80\xaf") << r + r + r;
    QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << r + r + r;
    QTest::newRow("past U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << r + r + r + r;
    QTest::newRow("invalid lead") << QByteArray("\xff"
                                                "a")
                                  << r + "a";
    QTest::newRow("latin-1 hostname") << QByteArray("caf\xe9!") << "caf" + r + "!";
    QTest::newRow("genuine U+FFFD kept") << r << r;
}

void tst_Utf8::appendValid()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QByteArray, expected);
    std::string out;
    Utf8::appendValid(out, bytes.toStdString());
    QCOMPARE(QByteArray::fromStdString(out), expected);
}

void tst_Utf8::decodeAdvances()
{
    const std::string s = "\xe2\x82x\xf0\x9f\x98\x80";
    std::size_t i = 0;
    QCOMPARE(Utf8::decode(s, i), Utf8::kReplacement);
    QCOMPARE(i, std::size_t{2}); // the maximal valid prefix, as one replacement
    QCOMPARE(Utf8::decode(s, i), char32_t{'x'});
    QCOMPARE(Utf8::decode(s, i), char32_t{0x1f600});
    QCOMPARE(i, s.size());
}

void tst_Utf8::encodeRoundTrips()
{
    for (char32_t cp : {char32_t{0}, char32_t{0x7f}, char32_t{0x80}, char32_t{0x7ff},
                        char32_t{0x800}, char32_t{0xd7ff}, char32_t{0xe000}, char32_t{0xffff},
                        char32_t{0x10000}, char32_t{0x10ffff}}) {
        std::string s;
        Utf8::append(s, cp);
        std::size_t i = 0;
        QCOMPARE(Utf8::decode(s, i), cp);
        QCOMPARE(i, s.size());
    }
}

// PythonRepr's json.dumps and LenientJson's reader share the decoder.
void tst_Utf8::everyUserOfTheDecoderAgrees()
{
    QCOMPARE(PythonRepr::jsonString("\xe2\x82x"), std::string("\"\\ufffdx\""));
    QCOMPARE(LenientJson::validUtf8("\xe2\x82x"), std::string("\xef\xbf\xbdx"));
    auto parsed = LenientJson::parse("\"\xe2\x82x\"", "t.json");
    QVERIFY(parsed.ok());
    QCOMPARE(parsed->get<std::string>(), std::string("\xef\xbf\xbdx"));
}

// Every sequence of up to three bytes drawn from the boundary values of each
// byte class, decoded by us and by Python.
void tst_Utf8::matchesPython()
{
    const std::vector<unsigned char> bytes = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0,
                                              0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec,
                                              0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff};
    std::vector<std::string> cases;
    for (unsigned char a : bytes) {
        cases.push_back(std::string(1, static_cast<char>(a)));
        for (unsigned char b : bytes) {
            cases.push_back({static_cast<char>(a), static_cast<char>(b)});
            for (unsigned char c : bytes)
                cases.push_back(
                    {static_cast<char>(a), static_cast<char>(b), static_cast<char>(c), '\x80'});
        }
    }
    QByteArray input;
    QString ours;
    for (const std::string& c : cases) {
        input += QByteArray::fromStdString(c).toHex() + "\n";
        std::string out;
        Utf8::appendValid(out, c);
        ours += QByteArray::fromStdString(out).toHex() + "\n";
    }
    const auto r = test::runPython("import sys\n"
                                   "for line in sys.stdin.read().split():\n"
                                   "    print(bytes.fromhex(line).decode('utf-8', 'replace')"
                                   ".encode('utf-8').hex())\n",
                                   {}, input);
    QVERIFY2(r.started, "python3 is needed to check the decoder against Python");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(r.out, ours);
}

QTEST_GUILESS_MAIN(tst_Utf8)
#include "tst_Utf8.moc"
