#include "json/LenientJson.h"

#include "json/JsonNumber.h"
#include "json/Utf8.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>

namespace ckpt {

namespace {

using Json = nlohmann::ordered_json;

// Thrown only inside this file and always caught by LenientJson::parse.
struct ParseFailure
{
    std::size_t pos;
    std::string what; // "expected ..." or "unexpected ..."
    bool eof;
    std::string found = {}; // what stood there instead, for the message's tail
};

// The members of one object being parsed. Python keeps the last of duplicate
// keys, in first position; ordered_json's own insert finds duplicates by a
// linear search, fine for the handful of keys of a ckpt-info.json but quadratic
// (minutes) for a hostile file with 100,000s of keys: big objects get an index.
class Members
{
public:
    explicit Members(Json::object_t& members) : m_members(members) {}

    void set(std::string key, Json value)
    {
        if (m_index.empty()) {
            for (auto& member : m_members) {
                if (member.first == key) {
                    member.second = std::move(value);
                    return;
                }
            }
            m_members.emplace_back(std::move(key), std::move(value));
            if (m_members.size() == kIndexFrom) {
                for (std::size_t i = 0; i < m_members.size(); ++i)
                    m_index.emplace((m_members.begin() + static_cast<std::ptrdiff_t>(i))->first, i);
            }
            return;
        }
        const auto [it, inserted] = m_index.try_emplace(key, m_members.size());
        if (!inserted) {
            (m_members.begin() + static_cast<std::ptrdiff_t>(it->second))->second =
                std::move(value);
            return;
        }
        m_members.emplace_back(std::move(key), std::move(value));
    }

private:
    static constexpr std::size_t kIndexFrom = 32;
    Json::object_t& m_members;
    std::unordered_map<std::string, std::size_t> m_index;
};

class Parser
{
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    Json document()
    {
        skipSpace();
        Json value = parseValue(0);
        skipSpace();
        if (m_pos != m_text.size())
            throw ParseFailure{m_pos, "unexpected " + describeHere() + " after the JSON value",
                               false};
        return value;
    }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_text[m_pos]; }

    [[noreturn]] void fail(std::string expected) const
    {
        if (atEnd())
            throw ParseFailure{m_pos, "unexpected end of file", true};
        throw ParseFailure{m_pos, "expected " + expected, false, describeHere()};
    }

    std::string describeHere() const
    {
        const unsigned char c = static_cast<unsigned char>(peek());
        if (c >= 0x20 && c < 0x7f)
            return std::string("'") + static_cast<char>(c) + "'";
        static constexpr char kHex[] = "0123456789abcdef";
        return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 0xf];
    }

    void skipSpace()
    {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                break;
            ++m_pos;
        }
    }

    bool consumeWord(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        m_pos += word.size();
        return true;
    }

    Json parseValue(int depth)
    {
        if (atEnd())
            fail("a value");
        switch (peek()) {
        case '{':
            return parseObject(depth);
        case '[':
            return parseArray(depth);
        case '"':
            return Json(parseString());
        case 't':
            if (consumeWord("true"))
                return Json(true);
            break;
        case 'f':
            if (consumeWord("false"))
                return Json(false);
            break;
        case 'n':
            if (consumeWord("null"))
                return Json(nullptr);
            break;
        case 'N':
            if (consumeWord("NaN"))
                return Json(std::numeric_limits<double>::quiet_NaN());
            break;
        case 'I':
            if (consumeWord("Infinity"))
                return Json(std::numeric_limits<double>::infinity());
            break;
        default:
            if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
                return parseNumber();
            break;
        }
        if (remainderIsPrefixOfWord())
            throw ParseFailure{m_text.size(), "unexpected end of file", true};
        fail("a value");
    }

    // "Infin" at the very end of a truncated file is a truncation, not garbage.
    bool remainderIsPrefixOfWord() const
    {
        const std::string_view rest = m_text.substr(m_pos);
        for (std::string_view word : {"true", "false", "null", "NaN", "Infinity"})
            if (rest.size() < word.size() && word.substr(0, rest.size()) == rest)
                return true;
        return false;
    }

    void enter(int depth) const
    {
        if (depth >= LenientJson::kMaxDepth)
            throw ParseFailure{m_pos, "nesting deeper than 256 levels", false};
    }

    Json parseObject(int depth)
    {
        enter(depth);
        ++m_pos; // '{'
        Json object = Json::object();
        Members members(object.get_ref<Json::object_t&>());
        skipSpace();
        if (!atEnd() && peek() == '}') {
            ++m_pos;
            return object;
        }
        for (;;) {
            skipSpace();
            if (atEnd() || peek() != '"')
                fail("a string key");
            std::string key = parseString();
            skipSpace();
            if (atEnd() || peek() != ':')
                fail("':'");
            ++m_pos;
            skipSpace();
            Json value = parseValue(depth + 1);
            members.set(std::move(key), std::move(value));
            skipSpace();
            if (atEnd())
                fail("',' or '}'");
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            if (peek() == '}') {
                ++m_pos;
                return object;
            }
            fail("',' or '}'");
        }
    }

    Json parseArray(int depth)
    {
        enter(depth);
        ++m_pos; // '['
        Json array = Json::array();
        skipSpace();
        if (!atEnd() && peek() == ']') {
            ++m_pos;
            return array;
        }
        for (;;) {
            skipSpace();
            array.push_back(parseValue(depth + 1));
            skipSpace();
            if (atEnd())
                fail("',' or ']'");
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            if (peek() == ']') {
                ++m_pos;
                return array;
            }
            fail("',' or ']'");
        }
    }

    unsigned hex4()
    {
        if (m_text.size() - m_pos < 4)
            throw ParseFailure{m_text.size(), "unexpected end of file", true};
        unsigned v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_text[m_pos];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= static_cast<unsigned>(c - 'A' + 10);
            else
                fail("a hexadecimal digit");
            ++m_pos;
        }
        return v;
    }

    std::string parseString()
    {
        ++m_pos; // '"'
        std::string out;
        for (;;) {
            // Copy the run of plain characters in one go: most strings have no escapes.
            const std::size_t start = m_pos;
            while (m_pos < m_text.size()) {
                const char c = m_text[m_pos];
                if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
                    break;
                ++m_pos;
            }
            // Invalid UTF-8 (a Latin-1 hostname in metadata, a damaged file) becomes
            // U+FFFD as Python shows it: values must stay printable and serialisable
            // (nlohmann refuses to dump invalid UTF-8).
            Utf8::appendValid(out, m_text.substr(start, m_pos - start));
            if (atEnd())
                fail("'\"'");
            const char c = peek();
            if (c == '"') {
                ++m_pos;
                return out;
            }
            if (c != '\\')
                fail("'\"' (control characters must be escaped in strings)");
            ++m_pos;
            if (atEnd())
                fail("an escape character");
            const char e = peek();
            ++m_pos;
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out += e;
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                unsigned cp = hex4();
                if (cp >= 0xd800 && cp < 0xdc00 && m_text.substr(m_pos, 2) == "\\u") {
                    const std::size_t save = m_pos;
                    m_pos += 2;
                    const unsigned low = hex4();
                    if (low >= 0xdc00 && low < 0xe000)
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                    else
                        m_pos = save;
                }
                // A lone surrogate has no UTF-8 form; show it as U+FFFD.
                if (cp >= 0xd800 && cp < 0xe000)
                    cp = Utf8::kReplacement;
                Utf8::append(out, cp);
                break;
            }
            default:
                --m_pos;
                fail("a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
            }
        }
    }

    Json parseNumber()
    {
        const std::size_t start = m_pos;
        if (peek() == '-') {
            ++m_pos;
            if (consumeWord("Infinity"))
                return Json(-std::numeric_limits<double>::infinity());
            if (atEnd() || remainderIsPrefixOfWord())
                throw ParseFailure{m_text.size(), "unexpected end of file", true};
        }
        const JsonNumberSpan span = scanJsonNumber(m_text, start);
        m_pos = span.end;
        switch (span.missing) {
        case JsonNumberSpan::Missing::Nothing:
            break;
        case JsonNumberSpan::Missing::Digit:
            fail("a digit");
        case JsonNumberSpan::Missing::FractionDigit:
            fail("a digit after '.'");
        case JsonNumberSpan::Missing::ExponentDigit:
            fail("a digit in the exponent");
        }
        const JsonNumber n =
            jsonNumberValue(m_text.data() + start, m_text.data() + m_pos, span.integral);
        switch (n.kind) {
        case JsonNumber::Kind::Int:
            return Json(n.i);
        case JsonNumber::Kind::UInt:
            return Json(n.u);
        case JsonNumber::Kind::Double:
            break;
        }
        return Json(n.d);
    }
};

std::string lineColumn(std::string_view text, std::size_t pos)
{
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return std::to_string(line) + ":" + std::to_string(pos - lineStart + 1);
}

} // namespace

std::string LenientJson::validUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    Utf8::appendValid(out, text);
    return out;
}

bool LenientJson::withinMaxDepth(std::string_view text)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth)
                return false;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return true;
}

Result<nlohmann::ordered_json> LenientJson::parse(std::string_view text, std::string_view origin)
{
    const std::string where(origin);
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return Error::at(where, "file is empty");
    try {
        Parser parser(text);
        return parser.document();
    } catch (const ParseFailure& failure) {
        std::string message = failure.what + " at " + lineColumn(text, failure.pos);
        if (failure.eof)
            message += " (truncated?)";
        else if (!failure.found.empty())
            message += " (found " + failure.found + ")";
        return Error::at(where, std::move(message));
    } catch (const std::exception& e) {
        return Error::at(where, std::string("cannot parse JSON: ") + e.what());
    }
}

} // namespace ckpt
