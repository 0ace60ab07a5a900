#include "history/HistoryTxtParser.h"

#include "history/LineProblems.h"
#include "history/NumberText.h"
#include "io/AtomicFile.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

namespace {

// A value of the dump as far as history.txt needs it: a number, a list of
// values, or something else (strings, dicts, booleans) that is skipped.
struct Value
{
    enum class Kind
    {
        Number,
        Null,
        List,
        Other
    } kind = Kind::Other;
    double number = 0.0;
    std::vector<Value> items;
};

class LenientReader
{
public:
    explicit LenientReader(std::string_view text) : m_text(text) {}

    std::string error;

    // Reads the top-level dict, calling `onEntry(key, value)` for each entry
    // as soon as it is complete. False on a syntax error (see `error`, `where`).
    template <typename F> bool readDict(F&& onEntry)
    {
        skipSpace();
        if (!take('{'))
            return fail("expected '{' (a dict of lists)");
        skipSpace();
        if (take('}'))
            return true;
        while (true) {
            std::string key;
            skipSpace();
            if (!readString(key))
                return fail("expected a quoted key");
            skipSpace();
            if (!take(':'))
                return fail("expected ':' after the key");
            Value v;
            if (!readValue(v, 0))
                return false;
            onEntry(key, v);
            skipSpace();
            if (take(',')) {
                skipSpace();
                if (take('}'))
                    return true;
                continue;
            }
            if (take('}'))
                return true;
            return fail("expected ',' or '}'");
        }
    }

    // "line:column" of the current position, 1-based.
    std::string where() const
    {
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < m_pos && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return std::to_string(line) + ":" + std::to_string(column);
    }

private:
    bool fail(std::string what)
    {
        if (error.empty())
            error = m_pos >= m_text.size() ? what + ", found the end of the file" : std::move(what);
        return false;
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' ||
                                         m_text[m_pos] == '\n' || m_text[m_pos] == '\r'))
            ++m_pos;
        if (m_pos == 0 && m_text.starts_with("\xEF\xBB\xBF")) {
            m_pos = 3;
            skipSpace();
        }
    }

    bool take(char c)
    {
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }

    bool readString(std::string& out)
    {
        if (m_pos >= m_text.size() || (m_text[m_pos] != '"' && m_text[m_pos] != '\''))
            return false;
        const char quote = m_text[m_pos++];
        while (m_pos < m_text.size() && m_text[m_pos] != quote) {
            if (m_text[m_pos] == '\\' && m_pos + 1 < m_text.size())
                ++m_pos; // keep the escaped character itself: keys are plain names
            out += m_text[m_pos++];
        }
        return take(quote);
    }

    bool readValue(Value& v, int depth)
    {
        if (depth > 64)
            return fail("nesting too deep");
        skipSpace();
        if (m_pos >= m_text.size())
            return fail("expected a value");
        const char c = m_text[m_pos];
        if (c == '[' || c == '(')
            return readList(v, c == '[' ? ']' : ')', depth);
        if (c == '{')
            return skipDict(v, depth);
        if (c == '"' || c == '\'') {
            std::string ignored;
            v.kind = Value::Kind::Other;
            return readString(ignored) || fail("unterminated string");
        }
        return readAtom(v, depth);
    }

    bool readList(Value& v, char close, int depth)
    {
        ++m_pos;
        v.kind = Value::Kind::List;
        skipSpace();
        if (take(close))
            return true;
        while (true) {
            Value item;
            if (!readValue(item, depth + 1))
                return false;
            v.items.push_back(std::move(item));
            skipSpace();
            if (take(',')) {
                skipSpace();
                if (take(close))
                    return true;
                continue;
            }
            if (take(close))
                return true;
            return fail(std::string("expected ',' or '") + close + "' in a list");
        }
    }

    bool skipDict(Value& v, int depth)
    {
        ++m_pos;
        v.kind = Value::Kind::Other;
        skipSpace();
        if (take('}'))
            return true;
        while (true) {
            std::string key;
            Value k, item;
            skipSpace();
            if (!readString(key) && !readAtom(k, depth + 1))
                return fail("expected a key");
            skipSpace();
            if (!take(':'))
                return fail("expected ':' after the key");
            if (!readValue(item, depth + 1))
                return false;
            skipSpace();
            if (take(','))
                continue;
            if (take('}'))
                return true;
            return fail("expected ',' or '}'");
        }
    }

    // Numbers, literals and wrappers like np.float64(0.5) or float32(nan).
    bool readAtom(Value& v, int depth)
    {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            const bool word = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                              (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '+' ||
                              c == '-';
            if (!word)
                break;
            ++m_pos;
        }
        const std::string_view atom = m_text.substr(start, m_pos - start);
        if (atom.empty())
            return fail(std::string("unexpected character '") + m_text[m_pos] + "'");
        skipSpace();
        if (take('(')) { // a wrapper: the value is inside
            Value inner;
            if (!readValue(inner, depth + 1))
                return false;
            skipSpace();
            if (!take(')'))
                return fail("expected ')'");
            v = std::move(inner);
            return true;
        }
        if (atom == "null" || atom == "None") {
            v.kind = Value::Kind::Null;
            return true;
        }
        if (atom == "true" || atom == "false" || atom == "True" || atom == "False") {
            v.kind = Value::Kind::Other;
            return true;
        }
        if (const auto d = NumberText::toDouble(atom)) {
            v.kind = Value::Kind::Number;
            v.number = *d;
            return true;
        }
        m_pos = start;
        return fail("\"" + std::string(atom) + "\" is not a number");
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

} // namespace

HistoryFragment HistoryTxtParser::parse(std::string_view text, std::string_view origin)
{
    HistoryFragment out;
    out.source = MetricSource::HistoryTxt;
    out.path = std::string(origin);
    out.segments.push_back(FragmentSegment{}); // where it started is not written down

    LenientReader reader(text);
    const bool ok = reader.readDict([&](const std::string& key, const Value& v) {
        if (v.kind != Value::Kind::List)
            return;
        for (std::size_t i = 0; i < v.items.size(); ++i) {
            if (v.items[i].kind != Value::Kind::Number)
                continue;
            FragmentSample s;
            s.epoch = static_cast<int>(i) + 1;
            s.sample = MetricSample{key, v.items[i].number, MetricSource::HistoryTxt};
            out.samples.push_back(std::move(s));
        }
    });
    if (!ok) {
        Problem p;
        p.kind = ProblemKind::BadLog;
        p.path = out.path;
        p.message = out.path + ":" + reader.where() + ": " + reader.error;
        out.problems.push_back(std::move(p));
    }
    return out;
}

Result<HistoryFragment> HistoryTxtParser::parseFile(const std::filesystem::path& path)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    return parse(*text, path.string());
}

} // namespace ckpt
