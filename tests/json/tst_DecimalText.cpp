#include "json/DecimalText.h"

#include <QTest>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace ckpt;

class tst_DecimalText : public QObject
{
    Q_OBJECT

private slots:
    void sameAsFromCharsAtTheEdges();
    void sameAsFromCharsForWrittenDoubles();
    void sameAsFromCharsForLongDigitStrings();
};

namespace {

// decimalFromChars against std::from_chars: the same value to the bit, the
// same end, the same error.
void expectSame(const std::string& text)
{
    double ours = 1.5;
    double theirs = 1.5;
    const auto a = decimalFromChars(text.data(), text.data() + text.size(), ours);
    const auto b = std::from_chars(text.data(), text.data() + text.size(), theirs);
    QVERIFY2(a.ec == b.ec, text.c_str());
    QVERIFY2(a.ptr == b.ptr, text.c_str());
    QVERIFY2(std::bit_cast<std::uint64_t>(ours) == std::bit_cast<std::uint64_t>(theirs),
             text.c_str());
}

} // namespace

void tst_DecimalText::sameAsFromCharsAtTheEdges()
{
    for (const char* text :
         {"0", "-0", "0.0", "-0.0", "1", "0.5", "-0.5", "00.5", "5.", ".5", "-", "", ".", "-.5",
          "1e5", "1E-5", "0.1", "0.30000000000000004", "56.58779799244047", "9007199254740992",
          "9007199254740993", "9007199254740992.5", "900719925474099.3", "1234567890123456789",
          "12345678901234567890", "0.0000000000000000000001", "0.00000000000000000000001",
          "1.2345678901234567890", "12345678901234567890.5", "1.5x", "1.5.5", "--1", "+1", "inf",
          "nan", "1e400", "0.000001", "123.456", "99999999999999999999",
          // Midpoints between two doubles, and around them:
          // the extended path must leave them to from_chars.
          "9007199254740995", "9007199254740994.9", "9007199254740995.1", "18014398509481986",
          "18014398509481990", "4503599627370496.5", "4503599627370497.5",
          "0.1000000000000000055511151231257827", "9999999999999999999", "1844674407370955161.5",
          "0.000000000000000000000000001", "0.0000000000000000000000000001",
          "1.000000000000000000000000001", "-56.587797992440475"})
        expectSame(text);
}

// Texts as trainers write them: Python's shortest repr (%.17g is close
// enough to cover its lengths), fixed notations of every length.
void tst_DecimalText::sameAsFromCharsForWrittenDoubles()
{
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<int> power(-12, 17);
    std::uniform_int_distribution<int> decimals(0, 24);
    char text[64];
    for (int i = 0; i < 200000; ++i) {
        const double v = unit(random) * std::pow(10.0, power(random)) * (i % 3 ? 1 : -1);
        std::snprintf(text, sizeof text, "%.17g", v);
        expectSame(text);
        std::snprintf(text, sizeof text, "%.*f", decimals(random), v);
        expectSame(text);
        const auto end = std::to_chars(text, text + sizeof text, v).ptr;
        expectSame(std::string(text, end));
    }
}

// Integers of 17 to 19 digits with the point anywhere in 27 places: the
// numbers the extended-precision path takes, midpoints among them (an odd
// integer of 54 bits, and the same with 1 to 3 more digits after it).
void tst_DecimalText::sameAsFromCharsForLongDigitStrings()
{
    std::mt19937_64 random(11);
    std::uniform_int_distribution<std::uint64_t> mantissa(10'000'000'000'000'000ULL,
                                                          9'999'999'999'999'999'999ULL);
    std::uniform_int_distribution<int> digits(17, 19);
    std::uniform_int_distribution<int> point(0, 27);
    std::uniform_int_distribution<std::uint64_t> odd54((1ULL << 53) / 2, (1ULL << 53) - 1);
    for (int i = 0; i < 300000; ++i) {
        std::string text = std::to_string(mantissa(random));
        text.resize(static_cast<std::size_t>(digits(random)));
        const int after = point(random);
        if (after >= static_cast<int>(text.size()))
            text = "0." + std::string(static_cast<std::size_t>(after) - text.size(), '0') + text;
        else if (after > 0)
            text.insert(text.size() - static_cast<std::size_t>(after), ".");
        expectSame(i % 2 ? text : "-" + text);
        // 2^53 + 2n + 1: halfway between two doubles, as an integer and with
        // the point moved so that it stays an exact binary fraction.
        const std::uint64_t half = (1ULL << 53) + 2 * odd54(random) % (1ULL << 53) + 1;
        expectSame(std::to_string(half));
        expectSame(std::to_string(half) + ".5");
        expectSame(std::to_string(half / 2) + ".5");
        expectSame(std::to_string(half / 4) + (half % 4 == 1 ? ".25" : ".75"));
    }
}

QTEST_GUILESS_MAIN(tst_DecimalText)
#include "tst_DecimalText.moc"
