#include "common/CopyShort.h"
#include "json/DoubleText.h"
#include "report/JsonWriter.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

using namespace ckpt;
using Json = nlohmann::ordered_json;

// The writer's bytes are nlohmann's dump(-1, ' ', false, replace) of the same values.
class tst_JsonWriter : public QObject
{
    Q_OBJECT
private slots:
    void plainTextIsFoundAtEveryPosition_data();
    void plainTextIsFoundAtEveryPosition();
    void stringsEqualTheDocument_data();
    void stringsEqualTheDocument();
    void membersAndNumbersEqualTheDocument();
    void growsPastWhatWasReservedAndCutsTheRest();
    void verbatimTextTakesNoComma();
    void writtenAndDiscardWhileWriting();
    void doublesEqualTheDocument();
    void copyShortCopiesEveryLength();
};

void tst_JsonWriter::plainTextIsFoundAtEveryPosition_data()
{
    QTest::addColumn<char>("odd");
    QTest::newRow("quote") << '"';
    QTest::newRow("backslash") << '\\';
    QTest::newRow("newline") << '\n';
    QTest::newRow("NUL") << '\0';
    QTest::newRow("unit separator (0x1f)") << '\x1f';
    QTest::newRow("UTF-8 lead byte") << '\xc3';
    QTest::newRow("DEL-adjacent high byte (0x80)") << '\x80';
    QTest::newRow("0xff") << '\xff';
}

// The word-at-a-time test must see one odd byte wherever it is: in a whole
// word, in the overlapping last word, or in a text shorter than a word.
void tst_JsonWriter::plainTextIsFoundAtEveryPosition()
{
    QFETCH(char, odd);
    for (std::size_t size = 0; size <= 41; ++size) {
        std::string text(size, 'a');
        for (std::size_t i = 0; i < size; ++i)
            text[i] = "abcdefghijklmnopqrstuvwxyz0123456789 -_/.~{}:,"[i % 47];
        QVERIFY2(JsonWriter::isPlain(text), text.c_str());
        for (std::size_t at = 0; at < size; ++at) {
            std::string bad = text;
            bad[at] = odd;
            QVERIFY2(!JsonWriter::isPlain(bad),
                     qPrintable(QStringLiteral("size %1, at %2").arg(size).arg(at)));
        }
    }
    // The bytes just inside the plain range on either side of each test.
    QVERIFY(JsonWriter::isPlain(std::string(9, ' ')));
    QVERIFY(JsonWriter::isPlain(std::string(9, '\x7f')));
    QVERIFY(JsonWriter::isPlain(std::string(9, '!')));
    QVERIFY(JsonWriter::isPlain(std::string(9, '#')));
    QVERIFY(JsonWriter::isPlain(std::string(9, '[')));
    QVERIFY(JsonWriter::isPlain(std::string(9, ']')));
}

void tst_JsonWriter::stringsEqualTheDocument_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("empty") << QByteArray("");
    QTest::newRow("path") << QByteArray("/data/runs/EXP000/RUN000/ckpts/epochs/001/model.h5");
    QTest::newRow("escapes") << QByteArray("a\"b\\c\nd\te\x01\x1f");
    QTest::newRow("UTF-8") << QByteArray("r\xc3\xa9sultats/\xe2\x82\xac");
    QTest::newRow("invalid UTF-8") << QByteArray("bad\xe2\x82x and \xff end");
    QTest::newRow("long plain") << QByteArray(300, 'p');
}

void tst_JsonWriter::stringsEqualTheDocument()
{
    QFETCH(QByteArray, text);
    const std::string_view view(text.constData(), static_cast<std::size_t>(text.size()));
    std::string written;
    {
        JsonWriter w(written);
        w.beginArray().string(view).key(view).string(view).endArray();
    }
    // A key inside an array is not JSON, but its bytes are those of the string and a colon.
    const std::string dumped =
        Json(std::string(view)).dump(-1, ' ', false, Json::error_handler_t::replace);
    QCOMPARE(written, "[" + dumped + "," + dumped + ":" + dumped + "]");
    std::string appended;
    JsonWriter::appendString(appended, view);
    QCOMPARE(appended, dumped);
}

void tst_JsonWriter::membersAndNumbersEqualTheDocument()
{
    Json doc = Json::object();
    doc["epoch"] = 12;
    doc["step"] = nullptr;
    doc["loss"] = 0.0041;
    doc["whole"] = 3.0;
    doc["tiny"] = 1e-05;
    doc["big"] = 1.5e300;
    doc["negative"] = std::numeric_limits<std::int64_t>::min();
    doc["unsigned"] = std::numeric_limits<std::uint64_t>::max();
    doc["flags"] = Json::array({true, false});
    doc["nested"] = Json::object({{"a", Json::array()}, {"b", Json::object()}});
    std::string written;
    {
        JsonWriter w(written);
        w.beginObject();
        w.key("epoch").integer(12);
        w.key("step").optionalInteger(std::optional<int>());
        w.key("loss").number(0.0041);
        w.key("whole").number(3.0);
        w.key("tiny").number(1e-05);
        w.key("big").number(1.5e300);
        w.key("negative").integer(std::numeric_limits<std::int64_t>::min());
        w.key("unsigned").unsignedInteger(std::numeric_limits<std::uint64_t>::max());
        w.key("flags").beginArray().boolean(true).boolean(false).endArray();
        w.key("nested").beginObject();
        w.key("a").beginArray().endArray();
        w.key("b").beginObject().endObject();
        w.endObject();
        w.endObject();
    }
    QCOMPARE(written, doc.dump(-1, ' ', false, Json::error_handler_t::replace));
    // Not finite: null, as the document writes it.
    std::string nonFinite;
    {
        JsonWriter w(nonFinite);
        w.beginArray().number(std::nan("")).number(-HUGE_VAL).endArray();
    }
    QCOMPARE(nonFinite, std::string("[null,null]"));
}

void tst_JsonWriter::growsPastWhatWasReservedAndCutsTheRest()
{
    std::string text = "head:";
    text.reserve(64);
    Json many = Json::array();
    {
        JsonWriter w(text);
        w.beginArray();
        for (int i = 0; i < 5000; ++i) {
            w.string("item " + std::to_string(i));
            many.push_back("item " + std::to_string(i));
        }
        w.endArray();
    }
    QCOMPARE(text, "head:" + many.dump());
    QCOMPARE(text.size(), std::strlen(text.c_str())); // no spare bytes left after the text
}

void tst_JsonWriter::verbatimTextTakesNoComma()
{
    std::string text;
    {
        JsonWriter w(text);
        w.beginObject().key("a").integer(1);
        w.verbatim(",\n\"list\": [");
        w.integer(2).verbatim(",\n").integer(3);
        w.verbatim("]").endObject();
    }
    QCOMPARE(text, std::string("{\"a\":1,\n\"list\": [2,\n3]}"));
}

void tst_JsonWriter::writtenAndDiscardWhileWriting()
{
    std::string text = "x";
    JsonWriter w(text);
    const std::size_t from = w.size();
    QCOMPARE(from, std::size_t(1));
    w.beginArray().string("ab");
    QCOMPARE(w.written(from), std::string_view("[\"ab\""));
    QCOMPARE(w.written(0), std::string_view("x[\"ab\""));
    w.discard();
    QCOMPARE(w.size(), std::size_t(0));
    w.verbatim("]");
    QCOMPARE(w.written(0), std::string_view("]"));
}

// DoubleText writes a double without the document: the same text as the
// document, for every magnitude, sign and edge, in any order.
void tst_JsonWriter::doublesEqualTheDocument()
{
    std::mt19937_64 random(42);
    std::vector<double> values{0.0,
                               -0.0,
                               1.0,
                               100.0,
                               0.1,
                               0.0041,
                               1e-05,
                               2.5e-08,
                               1e16,
                               1e300,
                               std::numeric_limits<double>::denorm_min(),
                               std::numeric_limits<double>::max(),
                               -std::numeric_limits<double>::min()};
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<int> exponent(-320, 300);
    for (int i = 0; i < 9000; ++i) {
        double v = unit(random) * std::pow(10.0, exponent(random));
        values.push_back(i % 2 ? v : -v);
    }
    for (int pass = 0; pass < 3; ++pass) {
        for (const double v : values) {
            char text[DoubleText::kMaxChars];
            const char* end = DoubleText::write(text, v);
            QCOMPARE(std::string(text, static_cast<std::size_t>(end - text)), Json(v).dump());
        }
        std::shuffle(values.begin(), values.end(), random);
    }
}

// The writer's copies of short texts: every length up to past memcpy's turn,
// at every alignment, exactly the bytes and none beside them.
void tst_JsonWriter::copyShortCopiesEveryLength()
{
    std::string source(80, '\0');
    for (std::size_t i = 0; i < source.size(); ++i)
        source[i] = static_cast<char>('A' + i % 50);
    for (std::size_t offset = 0; offset < 8; ++offset) {
        for (std::size_t n = 0; n <= 40; ++n) {
            std::string target(64, '.');
            copyShort(target.data() + offset, source.data() + offset + 1, n);
            std::string expected(64, '.');
            std::memcpy(expected.data() + offset, source.data() + offset + 1, n);
            QCOMPARE(target, expected);
        }
    }
}

QTEST_GUILESS_MAIN(tst_JsonWriter)
#include "tst_JsonWriter.moc"
