#include "config/HyperValue.h"

#include "common/SingleQuoted.h"
#include "config/AsciiLower.h"
#include "json/PythonRepr.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace ckpt {

namespace {

// Recursive-descent parser for the subset of Python literals CANDLE configs use.
class LiteralParser
{
public:
    explicit LiteralParser(std::string_view text) : m_text(text) {}

    Result<HyperValue> parseAll()
    {
        auto v = parseValue(0);
        if (!v)
            return v;
        skipSpace();
        if (m_pos != m_text.size())
            return fail("unexpected text after the value");
        return v;
    }

private:
    Error fail(const std::string& what) const
    {
        // A hostile value can be megabytes long: quote its start only.
        constexpr std::size_t kQuoted = 200;
        std::string message = "column " + std::to_string(m_pos + 1) + ": " + what + " in '";
        message.append(m_text.substr(0, kQuoted));
        message += m_text.size() > kQuoted ? "...'" : "'";
        return Error::at({}, message);
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }

    // Python's parser refuses more nested brackets ("too many nested
    // parentheses"); every level here is a stack frame (a fuzzed value of
    // ~2,000 '[' overflowed the stack).
    static constexpr int kMaxDepth = 200;

    Result<HyperValue> parseValue(int depth)
    {
        skipSpace();
        if (m_pos >= m_text.size())
            return fail("expected a value");
        const char c = m_text[m_pos];
        if (c == '\'' || c == '"')
            return parseString();
        if (c == '[' || c == '(') {
            if (depth >= kMaxDepth)
                return fail("brackets nested deeper than " + std::to_string(kMaxDepth) + " levels");
            return parseList(c == '[' ? ']' : ')', depth + 1);
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.')
            return parseNumber();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = m_pos;
            while (
                m_pos < m_text.size() &&
                (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
                ++m_pos;
            const std::string_view word = m_text.substr(start, m_pos - start);
            if (word == "True")
                return HyperValue::fromBool(true);
            if (word == "False")
                return HyperValue::fromBool(false);
            if (word == "None")
                return HyperValue::null();
            m_pos = start;
            return fail(singleQuoted(word) + " is not a Python literal (strings need quotes)");
        }
        return fail(std::string("unexpected character '") + c + "'");
    }

    Result<HyperValue> parseString()
    {
        const char quote = m_text[m_pos++];
        std::string out;
        while (m_pos < m_text.size()) {
            char c = m_text[m_pos++];
            if (c == quote)
                return HyperValue::fromString(std::move(out));
            if (c == '\\' && m_pos < m_text.size()) {
                const char e = m_text[m_pos++];
                switch (e) {
                case 'n':
                    out += '\n';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case '0':
                    out += '\0';
                    break;
                case '\\':
                case '\'':
                case '"':
                    out += e;
                    break;
                default:
                    // Python keeps unknown escapes verbatim.
                    out += '\\';
                    out += e;
                }
                continue;
            }
            out += c;
        }
        return fail("unterminated string");
    }

    Result<HyperValue> parseList(char close, int depth)
    {
        ++m_pos;
        HyperValue::List items;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == close) {
            ++m_pos;
            return HyperValue::fromList(std::move(items));
        }
        for (;;) {
            auto item = parseValue(depth);
            if (!item)
                return item;
            items.push_back(std::move(item.value()));
            skipSpace();
            if (m_pos >= m_text.size())
                return fail(std::string("missing '") + close + "'");
            const char c = m_text[m_pos++];
            if (c == close)
                return HyperValue::fromList(std::move(items));
            if (c != ',')
                return fail(std::string("expected ',' or '") + close + "'");
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == close) { // trailing comma
                ++m_pos;
                return HyperValue::fromList(std::move(items));
            }
        }
    }

    Result<HyperValue> parseNumber()
    {
        const std::size_t start = m_pos;
        if (m_text[m_pos] == '-' || m_text[m_pos] == '+')
            ++m_pos;
        bool isFloat = false;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (std::isdigit(static_cast<unsigned char>(c)) || c == '_') {
                ++m_pos;
            } else if (c == '.' || c == 'e' || c == 'E') {
                isFloat = true;
                ++m_pos;
                if ((c == 'e' || c == 'E') && m_pos < m_text.size() &&
                    (m_text[m_pos] == '-' || m_text[m_pos] == '+'))
                    ++m_pos;
            } else {
                break;
            }
        }
        std::string num;
        for (char c : m_text.substr(start, m_pos - start))
            if (c != '_' && c != '+')
                num += c;
        if (num.empty() || num == "-" || num == "." || num == "-.")
            return fail("malformed number");
        if (!isFloat) {
            // Python 3 rejects leading zeros in non-zero integers ("0755").
            std::int64_t v = 0;
            const auto res = std::from_chars(num.data(), num.data() + num.size(), v);
            if (res.ec == std::errc() && res.ptr == num.data() + num.size())
                return HyperValue::fromInt(v);
            isFloat = true; // too large for int64: keep it as a float
        }
        double d = 0;
        const auto res = std::from_chars(num.data(), num.data() + num.size(), d);
        if (res.ec != std::errc() || res.ptr != num.data() + num.size())
            return fail("malformed number '" + num + "'");
        return HyperValue::fromDouble(d);
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

} // namespace

Result<HyperValue> HyperValue::parseLiteral(std::string_view text)
{
    return LiteralParser(text).parseAll();
}

HyperValue HyperValue::fromWord(std::string_view word)
{
    auto v = parseLiteral(word);
    if (v)
        return std::move(v.value());
    return fromString(std::string(word));
}

Result<bool> HyperValue::toBool() const
{
    switch (kind()) {
    case Kind::Bool:
        return std::get<1>(m_data);
    case Kind::Int:
        if (std::get<2>(m_data) == 0 || std::get<2>(m_data) == 1)
            return std::get<2>(m_data) == 1;
        break;
    case Kind::String: {
        const std::string s = asciiLower(std::get<4>(m_data));
        if (s == "yes" || s == "true" || s == "t" || s == "y" || s == "1")
            return true;
        if (s == "no" || s == "false" || s == "f" || s == "n" || s == "0")
            return false;
        break;
    }
    default:
        break;
    }
    return Error::at({}, singleQuoted(toString()) +
                             " is not a boolean (expected yes/true/t/y/1 or no/false/f/n/0)");
}

Result<std::int64_t> HyperValue::toInt() const
{
    switch (kind()) {
    case Kind::Int:
        return std::get<2>(m_data);
    case Kind::Bool:
        return std::int64_t{std::get<1>(m_data) ? 1 : 0};
    case Kind::Double: {
        const double d = std::get<3>(m_data);
        // 2^63 and beyond (1e60 as written in a config) has no int64: converting is UB.
        if (std::isfinite(d) && d == std::trunc(d) && d >= -0x1p63 && d < 0x1p63)
            return static_cast<std::int64_t>(d);
        break;
    }
    case Kind::String: {
        const std::string& s = std::get<4>(m_data);
        std::int64_t v = 0;
        const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
        if (res.ec == std::errc() && res.ptr == s.data() + s.size())
            return v;
        break;
    }
    default:
        break;
    }
    return Error::at({}, singleQuoted(toString()) + " is not an integer");
}

Result<double> HyperValue::toDouble() const
{
    switch (kind()) {
    case Kind::Double:
        return std::get<3>(m_data);
    case Kind::Int:
        return static_cast<double>(std::get<2>(m_data));
    case Kind::String: {
        const std::string s = asciiLower(std::get<4>(m_data));
        if (s == "inf" || s == "infinity" || s == "+inf")
            return HUGE_VAL;
        if (s == "-inf" || s == "-infinity")
            return -HUGE_VAL;
        if (s == "nan")
            return std::nan("");
        double d = 0;
        const auto res = std::from_chars(s.data(), s.data() + s.size(), d);
        if (res.ec == std::errc() && res.ptr == s.data() + s.size())
            return d;
        break;
    }
    default:
        break;
    }
    return Error::at({}, singleQuoted(toString()) + " is not a number");
}

bool HyperValue::equivalent(const HyperValue& other) const
{
    const Kind a = kind();
    const Kind b = other.kind();
    if (a == Kind::List || b == Kind::List) {
        const List* x = list();
        const List* y = other.list();
        if (!x || !y || x->size() != y->size())
            return false;
        for (std::size_t i = 0; i < x->size(); ++i)
            if (!(*x)[i].equivalent((*y)[i]))
                return false;
        return true;
    }
    if (a == Kind::Null || b == Kind::Null)
        return a == b;
    if (a == Kind::Bool || b == Kind::Bool) {
        auto x = toBool();
        auto y = other.toBool();
        return x && y && *x == *y;
    }
    if (a == Kind::String && b == Kind::String)
        return *this == other;
    auto x = toDouble();
    auto y = other.toDouble();
    if (!x || !y)
        return false;
    if (std::isnan(*x) || std::isnan(*y))
        return std::isnan(*x) && std::isnan(*y);
    if (a == Kind::Int && b == Kind::Int)
        return std::get<2>(m_data) == std::get<2>(other.m_data);
    return *x == *y;
}

std::string HyperValue::toString() const
{
    if (kind() == Kind::String)
        return std::get<4>(m_data);
    return pythonLiteral();
}

std::string HyperValue::pythonLiteral() const
{
    switch (kind()) {
    case Kind::Null:
        return "None";
    case Kind::Bool:
        return std::get<1>(m_data) ? "True" : "False";
    case Kind::Int:
        return std::to_string(std::get<2>(m_data));
    case Kind::Double:
        return PythonRepr::floatRepr(std::get<3>(m_data));
    case Kind::String:
        return PythonRepr::stringRepr(std::get<4>(m_data));
    case Kind::List: {
        std::string out = "[";
        const List& items = std::get<5>(m_data);
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i)
                out += ", ";
            out += items[i].pythonLiteral();
        }
        return out + "]";
    }
    }
    return "None";
}

} // namespace ckpt
