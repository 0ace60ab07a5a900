#include "candle/CkptInfoReader.h"

#include "io/AtomicFile.h"
#include "json/LenientJson.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace ckpt {

namespace {

using Json = nlohmann::ordered_json;

std::string typeName(const Json& v)
{
    switch (v.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return v.get<bool>() ? "true" : "false";
    case Json::value_t::string:
        return "the string \"" + v.get_ref<const std::string&>() + "\"";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
        return "the number " + v.dump();
    case Json::value_t::array:
        return "an array";
    case Json::value_t::object:
        return "an object";
    default:
        return "an unsupported value";
    }
}

// Reads one key; a wrong type becomes an Error naming the file and the key.
class Fields
{
public:
    Fields(const Json& object, std::string_view origin) : m_object(object), m_origin(origin) {}

    const Json* find(const char* key) const
    {
        auto it = m_object.find(key);
        return it == m_object.end() ? nullptr : &*it;
    }

    Error wrongType(const char* key, const Json& v, const char* expected) const
    {
        return Error::at(std::string(m_origin), std::string("key \"") + key + "\": expected " +
                                                    expected + ", found " + typeName(v));
    }

private:
    const Json& m_object;
    std::string_view m_origin;
};

std::optional<double> numberFromText(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    // Python's own spellings as well as what str(float) gives.
    if (s == "Infinity" || s == "inf" || s == "+inf" || s == "+Infinity")
        return std::numeric_limits<double>::infinity();
    if (s == "-Infinity" || s == "-inf")
        return -std::numeric_limits<double>::infinity();
    if (s == "NaN" || s == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    double d = 0.0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty())
        return std::nullopt;
    return d;
}

// A number, or a string holding one (some hand-written and converted files quote them).
Status readDouble(const Fields& f, const Json* v, const char* key, std::optional<double>& out)
{
    if (!v || v->is_null())
        return {};
    if (v->is_number()) {
        out = v->get<double>();
        return {};
    }
    if (v->is_string()) {
        if (auto d = numberFromText(v->get_ref<const std::string&>())) {
            out = d;
            return {};
        }
    }
    return f.wrongType(key, *v, "a number");
}

Status readInt(const Fields& f, const Json* v, const char* key, std::optional<int>& out)
{
    if (!v || v->is_null())
        return {};
    std::optional<double> d;
    if (v->is_number_integer()) {
        const auto i = v->get<std::int64_t>();
        if (i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max()) {
            out = static_cast<int>(i);
            return {};
        }
    } else if (!readDouble(f, v, key, d).ok() || !d) {
        return f.wrongType(key, *v, "an integer");
    } else if (std::isfinite(*d) && std::floor(*d) == *d && std::fabs(*d) < 2147483647.0) {
        out = static_cast<int>(*d);
        return {};
    }
    return f.wrongType(key, *v, "an integer");
}

Status readString(const Fields& f, const Json* v, const char* key, std::optional<std::string>& out)
{
    if (!v || v->is_null())
        return {};
    if (v->is_string()) {
        out = v->get<std::string>();
        return {};
    }
    return f.wrongType(key, *v, "a string");
}

// Checksums are decimal strings, but a writer that forgot str() gives a number.
Status readChecksum(const Fields& f, const Json* v, const char* key,
                    std::optional<std::string>& out)
{
    if (v && (v->is_number_unsigned() || (v->is_number_integer() && v->get<std::int64_t>() >= 0))) {
        out = std::to_string(v->get<std::uint64_t>());
        return {};
    }
    return readString(f, v, key, out);
}

Status readElapsed(const Fields& f, const Json* v, CkptInfo& info)
{
    if (v && v->is_string() && v->get_ref<const std::string&>() == "__FIRST__") {
        info.firstSave = true;
        return {};
    }
    return readDouble(f, v, "time_elapsed", info.timeElapsed);
}

// Free text by intent; anything else is shown as its JSON rather than refused.
void readMetadata(const Json* v, std::optional<std::string>& out)
{
    if (!v || v->is_null())
        return;
    out = v->is_string() ? v->get<std::string>() : v->dump();
}

} // namespace

Result<CkptInfo> CkptInfoReader::parse(std::string_view text, std::string_view origin)
{
    auto parsed = LenientJson::parse(text, origin);
    if (!parsed)
        return parsed.error();
    Json& object = parsed.value();
    if (!object.is_object())
        return Error::at(std::string(origin),
                         "expected a JSON object ({...}), found " + typeName(object));
    const Fields f(object, origin);
    CkptInfo info;
    Status st;
    const auto check = [&](Status s) {
        if (st && !s)
            st = std::move(s);
    };
    check(readInt(f, f.find("epoch"), "epoch", info.epoch));

    // The oldest writer: save_best_stat / best_stat_last / checksum_model, and
    // save_best_only telling whether "best" was tracked at all.
    if (const Json* metric = f.find("save_best_metric"))
        check(readString(f, metric, "save_best_metric", info.saveBestMetric));
    else if (const Json* stat = f.find("save_best_stat"))
        check(readString(f, stat, "save_best_stat", info.saveBestMetric));
    if (const Json* only = f.find("save_best_only"); only && !f.find("save_best_metric")) {
        if (only->is_boolean() && !only->get<bool>())
            info.saveBestMetric.reset();
        else if (!only->is_boolean() && !only->is_null() && !only->is_number())
            check(f.wrongType("save_best_only", *only, "true or false"));
    }
    if (const Json* last = f.find("best_metric_last"))
        check(readDouble(f, last, "best_metric_last", info.bestMetricLast));
    else
        check(readDouble(f, f.find("best_stat_last"), "best_stat_last", info.bestMetricLast));

    check(readString(f, f.find("model_file"), "model_file", info.modelFile));
    if (const Json* sum = f.find("checksum"))
        check(readChecksum(f, sum, "checksum", info.checksum));
    else
        check(readChecksum(f, f.find("checksum_model"), "checksum_model", info.checksum));
    check(readString(f, f.find("timestamp"), "timestamp", info.timestamp));
    check(readElapsed(f, f.find("time_elapsed"), info));
    readMetadata(f.find("metadata"), info.metadata);
    if (!st)
        return st.error();
    info.raw = std::move(object);
    return info;
}

namespace {

// One value of a flat ckpt-info.json, as LenientJson would hold it.
struct FlatValue
{
    enum class Kind : std::uint8_t
    {
        String,
        Int,
        UInt,
        Double,
        Bool,
        Null
    };
    Kind kind = Kind::Null;
    std::string_view text; // a string's characters, or the token as written
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double d = 0.0;
    bool b = false;

    bool isNumber() const
    {
        return kind == Kind::Int || kind == Kind::UInt || kind == Kind::Double;
    }
    double number() const
    {
        return kind == Kind::Int    ? static_cast<double>(i)
               : kind == Kind::UInt ? static_cast<double>(u)
                                    : d;
    }
};

class FlatObject
{
public:
    static constexpr std::size_t kMaxMembers = 32;

    bool parse(std::string_view text)
    {
        m_text = text;
        skipSpace();
        if (!take('{'))
            return false;
        skipSpace();
        if (take('}'))
            return atEndAfterSpace();
        for (;;) {
            skipSpace();
            std::string_view key;
            if (m_count == kMaxMembers || !plainString(key))
                return false;
            for (std::size_t k = 0; k < m_count; ++k)
                if (m_keys[k] == key)
                    return false; // Python keeps the last one in the first one's place
            skipSpace();
            if (!take(':'))
                return false;
            skipSpace();
            FlatValue& v = m_values[m_count];
            const std::size_t start = m_pos;
            if (!value(v))
                return false;
            if (v.kind != FlatValue::Kind::String)
                v.text = m_text.substr(start, m_pos - start);
            m_keys[m_count++] = key;
            skipSpace();
            if (take(','))
                continue;
            if (take('}'))
                return atEndAfterSpace();
            return false;
        }
    }

    const FlatValue* find(std::string_view key) const
    {
        for (std::size_t k = 0; k < m_count; ++k)
            if (m_keys[k] == key)
                return &m_values[k];
        return nullptr;
    }

    std::size_t size() const { return m_count; }
    std::string_view key(std::size_t k) const { return m_keys[k]; }
    const FlatValue& value(std::size_t k) const { return m_values[k]; }

private:
    bool take(char c)
    {
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }

    bool word(std::string_view w)
    {
        if (m_text.substr(m_pos, w.size()) != w)
            return false;
        m_pos += w.size();
        return true;
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' ||
                                         m_text[m_pos] == '\r' || m_text[m_pos] == '\t'))
            ++m_pos;
    }

    bool atEndAfterSpace()
    {
        skipSpace();
        return m_pos == m_text.size();
    }

    // ASCII, no escapes, no control characters: the text is the value.
    bool plainString(std::string_view& out)
    {
        if (!take('"'))
            return false;
        const std::size_t start = m_pos;
        while (m_pos < m_text.size()) {
            const auto c = static_cast<unsigned char>(m_text[m_pos]);
            if (c == '"') {
                out = m_text.substr(start, m_pos - start);
                ++m_pos;
                return true;
            }
            if (c < 0x20 || c >= 0x80 || c == '\\')
                return false;
            ++m_pos;
        }
        return false;
    }

    bool digits()
    {
        const std::size_t from = m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
            ++m_pos;
        return m_pos > from;
    }

    bool value(FlatValue& v)
    {
        using K = FlatValue::Kind;
        if (m_pos >= m_text.size())
            return false;
        switch (m_text[m_pos]) {
        case '"':
            v.kind = K::String;
            return plainString(v.text);
        case 't':
            v.kind = K::Bool;
            v.b = true;
            return word("true");
        case 'f':
            v.kind = K::Bool;
            v.b = false;
            return word("false");
        case 'n':
            v.kind = K::Null;
            return word("null");
        case 'N':
            v.kind = K::Double;
            v.d = std::numeric_limits<double>::quiet_NaN();
            return word("NaN");
        case 'I':
            v.kind = K::Double;
            v.d = std::numeric_limits<double>::infinity();
            return word("Infinity");
        default:
            return number(v);
        }
    }

    // As LenientJson reads numbers: int64, else uint64, else double.
    bool number(FlatValue& v)
    {
        using K = FlatValue::Kind;
        const std::size_t start = m_pos;
        if (take('-') && word("Infinity")) {
            v.kind = K::Double;
            v.d = -std::numeric_limits<double>::infinity();
            return true;
        }
        if (take('0')) {
        } else if (!digits()) {
            return false;
        }
        bool integral = true;
        if (take('.')) {
            integral = false;
            if (!digits())
                return false;
        }
        if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            ++m_pos;
            integral = false;
            if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-'))
                ++m_pos;
            if (!digits())
                return false;
        }
        const char* first = m_text.data() + start;
        const char* last = m_text.data() + m_pos;
        if (integral) {
            if (*first == '-') {
                if (std::from_chars(first, last, v.i).ec == std::errc()) {
                    v.kind = K::Int;
                    return true;
                }
            } else if (std::from_chars(first, last, v.u).ec == std::errc()) {
                if (v.u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                    v.kind = K::Int;
                    v.i = static_cast<std::int64_t>(v.u);
                } else {
                    v.kind = K::UInt;
                }
                return true;
            }
        }
        v.kind = K::Double;
        const auto [ptr, ec] = std::from_chars(first, last, v.d);
        (void)ptr;
        if (ec == std::errc::result_out_of_range)
            v.d = *first == '-' ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity();
        return true;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_count = 0;
    std::string_view m_keys[kMaxMembers];
    FlatValue m_values[kMaxMembers];
};

using FK = FlatValue::Kind;

// The typed reads of parse() for flat values; false where parse() would refuse.
bool flatInt(const FlatValue* v, std::optional<int>& out)
{
    if (!v || v->kind == FK::Null)
        return true;
    if (v->kind != FK::Int || v->i < std::numeric_limits<int>::min() ||
        v->i > std::numeric_limits<int>::max())
        return false; // parse() decides (12.0 and "12" are integers too)
    out = static_cast<int>(v->i);
    return true;
}

bool flatDouble(const FlatValue* v, std::optional<double>& out)
{
    if (!v || v->kind == FK::Null)
        return true;
    if (v->isNumber()) {
        out = v->number();
        return true;
    }
    if (v->kind == FK::String) {
        if (auto d = numberFromText(v->text)) {
            out = d;
            return true;
        }
    }
    return false;
}

bool flatString(const FlatValue* v, std::optional<std::string>& out)
{
    if (!v || v->kind == FK::Null)
        return true;
    if (v->kind != FK::String)
        return false;
    out = std::string(v->text);
    return true;
}

bool flatChecksum(const FlatValue* v, std::optional<std::string>& out)
{
    if (v && ((v->kind == FK::Int && v->i >= 0) || v->kind == FK::UInt)) {
        out = std::to_string(v->kind == FK::Int ? static_cast<std::uint64_t>(v->i) : v->u);
        return true;
    }
    return flatString(v, out);
}

// A value as nlohmann's dump() writes it (Json::dump for metadata that is not text).
void appendDump(std::string& out, const FlatValue& v, bool pythonNonFinite)
{
    switch (v.kind) {
    case FK::String:
        out += '"';
        out += v.text;
        out += '"';
        return;
    case FK::Int:
    case FK::UInt: {
        char buffer[24];
        const auto end = v.kind == FK::Int ? std::to_chars(buffer, buffer + sizeof buffer, v.i).ptr
                                           : std::to_chars(buffer, buffer + sizeof buffer, v.u).ptr;
        out.append(buffer, static_cast<std::size_t>(end - buffer));
        return;
    }
    case FK::Double: {
        if (!std::isfinite(v.d)) {
            // jsonText keeps Python's spelling; a plain dump() writes null.
            out += !pythonNonFinite  ? "null"
                   : std::isnan(v.d) ? "NaN"
                   : v.d > 0         ? "Infinity"
                                     : "-Infinity";
            return;
        }
        char buffer[64];
        char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, v.d);
        out.append(buffer, static_cast<std::size_t>(end - buffer));
        return;
    }
    case FK::Bool:
        out += v.b ? "true" : "false";
        return;
    case FK::Null:
        out += "null";
        return;
    }
}

} // namespace

bool CkptInfoReader::parseFlat(std::string_view text, CkptInfo& info, KeyValues& record)
{
    FlatObject f;
    if (!f.parse(text))
        return false;
    if (!flatInt(f.find("epoch"), info.epoch))
        return false;
    if (const FlatValue* metric = f.find("save_best_metric")) {
        if (!flatString(metric, info.saveBestMetric))
            return false;
    } else if (const FlatValue* stat = f.find("save_best_stat")) {
        if (!flatString(stat, info.saveBestMetric))
            return false;
    }
    if (const FlatValue* only = f.find("save_best_only"); only && !f.find("save_best_metric")) {
        if (only->kind == FK::Bool && !only->b)
            info.saveBestMetric.reset();
        else if (only->kind == FK::String)
            return false;
    }
    if (const FlatValue* last = f.find("best_metric_last")) {
        if (!flatDouble(last, info.bestMetricLast))
            return false;
    } else if (!flatDouble(f.find("best_stat_last"), info.bestMetricLast)) {
        return false;
    }
    if (!flatString(f.find("model_file"), info.modelFile))
        return false;
    if (const FlatValue* sum = f.find("checksum")) {
        if (!flatChecksum(sum, info.checksum))
            return false;
    } else if (!flatChecksum(f.find("checksum_model"), info.checksum)) {
        return false;
    }
    if (!flatString(f.find("timestamp"), info.timestamp))
        return false;
    const FlatValue* elapsed = f.find("time_elapsed");
    if (elapsed && elapsed->kind == FK::String && elapsed->text == "__FIRST__")
        info.firstSave = true;
    else if (!flatDouble(elapsed, info.timeElapsed))
        return false;
    if (const FlatValue* meta = f.find("metadata"); meta && meta->kind != FK::Null) {
        if (meta->kind == FK::String) {
            info.metadata = std::string(meta->text);
        } else {
            std::string dumped;
            appendDump(dumped, *meta, false);
            info.metadata = std::move(dumped);
        }
    }
    thread_local std::string values;
    values.clear();
    std::size_t ends[FlatObject::kMaxMembers];
    for (std::size_t k = 0; k < f.size(); ++k) {
        appendDump(values, f.value(k), true);
        ends[k] = values.size();
    }
    KeyValues::Entry entries[FlatObject::kMaxMembers];
    for (std::size_t k = 0, from = 0; k < f.size(); from = ends[k], ++k)
        entries[k] = {f.key(k), std::string_view(values).substr(from, ends[k] - from)};
    record.assignDistinct(entries, f.size());
    return true;
}

std::optional<std::string> CkptInfoReader::modelFileProblem(std::string_view modelFile)
{
    const std::string quoted = "model_file \"" + LenientJson::validUtf8(modelFile) + "\"";
    if (modelFile.empty())
        return quoted + " is empty";
    if (modelFile.find('\0') != std::string_view::npos)
        return quoted + " contains a NUL byte";
    if (modelFile.front() == '/')
        return quoted + " is an absolute path, outside the epoch directory: not followed";
    std::size_t start = 0;
    while (start <= modelFile.size()) {
        const std::size_t slash = std::min(modelFile.find('/', start), modelFile.size());
        if (modelFile.substr(start, slash - start) == "..")
            return quoted + " climbs out of the epoch directory (\"..\"): not followed";
        start = slash + 1;
    }
    return std::nullopt;
}

Result<CkptInfo> CkptInfoReader::readFile(const std::filesystem::path& path)
{
    auto text = ckpt::readFile(path, RegularFile::kMetadataLimit);
    if (!text)
        return text.error();
    return parse(text.value(), path.string());
}

} // namespace ckpt
