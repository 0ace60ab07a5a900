// The fast path of CkptInfoReader: flat ckpt-info.json files read without a
// JSON document (what trainers write); anything else goes to parse().
#include "candle/CkptInfoReader.h"
#include "common/CopyShort.h"
#include "json/DecimalText.h"
#include "json/DoubleText.h"
#include "json/JsonNumber.h"
#include "json/JsonText.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace ckpt {

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

// The cursor over one file's text. A local of FlatObject::parse, so that the
// compiler keeps the position in a register rather than in the thread's object.
class FlatReader
{
public:
    explicit FlatReader(std::string_view text) : m_text(text) {}

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
        for (; m_pos < m_text.size(); ++m_pos) {
            const char c = m_text[m_pos];
            if (c > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t'))
                return; // most characters are past ' ': one comparison
        }
    }

    bool atEndAfterSpace()
    {
        skipSpace();
        return m_pos == m_text.size();
    }

    // ASCII, no escapes, no control characters: the text is the value. One
    // pass: the first byte that is not plain text must be the closing quote.
    bool plainString(std::string_view& out)
    {
        if (!take('"'))
            return false;
        const std::size_t from = m_pos;
        const std::size_t at = from + plainJsonPrefix(m_text.data() + from, m_text.size() - from);
        return at < m_text.size() && closeString(from, at, out);
    }

    bool closeString(std::size_t from, std::size_t at, std::string_view& out)
    {
        if (m_text[at] != '"')
            return false;
        out = m_text.substr(from, at - from);
        m_pos = at + 1;
        return true;
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
        const JsonNumberSpan span = scanJsonNumber(m_text, start);
        if (!span.ok())
            return false;
        m_pos = span.end;
        const JsonNumber n =
            jsonNumberValue(m_text.data() + start, m_text.data() + m_pos, span.integral);
        v.kind = n.kind == JsonNumber::Kind::Int    ? K::Int
                 : n.kind == JsonNumber::Kind::UInt ? K::UInt
                                                    : K::Double;
        v.i = n.i;
        v.u = n.u;
        v.d = n.d;
        return true;
    }

    std::size_t position() const { return m_pos; }
    std::string_view text() const { return m_text; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

// The members readFlat looks at, found in one pass over the object's keys.
enum Known : std::uint8_t
{
    kEpoch,
    kSaveBestMetric,
    kSaveBestStat,
    kSaveBestOnly,
    kBestMetricLast,
    kBestStatLast,
    kModelFile,
    kChecksum,
    kChecksumModel,
    kTimestamp,
    kTimeElapsed,
    kMetadata,
    kKnownCount,
    kUnknown = kKnownCount
};

Known knownKey(std::string_view key)
{
    const auto is = [&](std::string_view name) {
        return std::memcmp(key.data(), name.data(), name.size()) == 0;
    };
    switch (key.size()) {
    case 5:
        return is("epoch") ? kEpoch : kUnknown;
    case 8:
        return is("checksum") ? kChecksum : is("metadata") ? kMetadata : kUnknown;
    case 9:
        return is("timestamp") ? kTimestamp : kUnknown;
    case 10:
        return is("model_file") ? kModelFile : kUnknown;
    case 12:
        return is("time_elapsed") ? kTimeElapsed : kUnknown;
    case 14:
        return is("save_best_stat")   ? kSaveBestStat
               : is("save_best_only") ? kSaveBestOnly
               : is("best_stat_last") ? kBestStatLast
               : is("checksum_model") ? kChecksumModel
                                      : kUnknown;
    case 16:
        return is("save_best_metric")   ? kSaveBestMetric
               : is("best_metric_last") ? kBestMetricLast
                                        : kUnknown;
    default:
        return kUnknown;
    }
}

class FlatObject
{
public:
    static constexpr std::size_t kMaxMembers = 32;

    bool parse(std::string_view text)
    {
        FlatReader r(text);
        m_count = 0;
        m_unknownCount = 0;
        m_at.fill(static_cast<std::uint8_t>(kMaxMembers));
        r.skipSpace();
        if (!r.take('{'))
            return false;
        r.skipSpace();
        if (r.take('}'))
            return r.atEndAfterSpace();
        for (;;) {
            r.skipSpace();
            std::string_view key;
            if (m_count == kMaxMembers || !r.plainString(key))
                return false;
            // A repeated key: Python keeps the last one in the first one's
            // place, which parse() does. Known keys are told by their place,
            // the others compared with the unknown ones before them.
            const Known which = knownKey(key);
            if (which != kUnknown) {
                if (m_at[which] != kMaxMembers)
                    return false;
                m_at[which] = static_cast<std::uint8_t>(m_count);
            } else {
                for (std::size_t u = 0; u < m_unknownCount; ++u)
                    if (m_keys[m_unknown[u]] == key)
                        return false;
                m_unknown[m_unknownCount++] = static_cast<std::uint8_t>(m_count);
            }
            r.skipSpace();
            if (!r.take(':'))
                return false;
            r.skipSpace();
            FlatValue& v = m_values[m_count];
            const std::size_t start = r.position();
            if (!r.value(v))
                return false;
            if (v.kind != FlatValue::Kind::String)
                v.text = text.substr(start, r.position() - start);
            m_keys[m_count++] = key;
            r.skipSpace();
            if (r.take(','))
                continue;
            if (r.take('}'))
                return r.atEndAfterSpace();
            return false;
        }
    }

    std::size_t size() const { return m_count; }
    std::string_view key(std::size_t k) const { return m_keys[k]; }
    // The known member `which`, nullptr when the object has none.
    const FlatValue* known(Known which) const
    {
        return m_at[which] < m_count ? &m_values[m_at[which]] : nullptr;
    }
    const FlatValue& value(std::size_t k) const { return m_values[k]; }

private:
    std::size_t m_count = 0;
    std::string_view m_keys[kMaxMembers];
    std::array<std::uint8_t, kKnownCount> m_at{}; // each known member's place; kMaxMembers: none
    std::uint8_t m_unknown[kMaxMembers] = {};     // the places of the other members
    std::size_t m_unknownCount = 0;
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
        if (auto d = CkptInfoReader::numberFromText(v->text)) {
            out = d;
            return true;
        }
    }
    return false;
}

bool flatString(const FlatValue* v, std::optional<std::string_view>& out)
{
    if (!v || v->kind == FK::Null)
        return true;
    if (v->kind != FK::String)
        return false;
    out = v->text;
    return true;
}

// A checksum written as a number is kept as its decimal text, in `room`.
bool flatChecksum(const FlatValue* v, std::optional<std::string_view>& out, std::string& room)
{
    if (v && ((v->kind == FK::Int && v->i >= 0) || v->kind == FK::UInt)) {
        room = std::to_string(v->kind == FK::Int ? static_cast<std::uint64_t>(v->i) : v->u);
        out = room;
        return true;
    }
    return flatString(v, out);
}

// The longest double text the reader remembers (readFlat's memo).
constexpr std::size_t kMemoChars = 32;

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
        char buffer[DoubleText::kMaxChars];
        const char* end = DoubleText::write(buffer, v.d);
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

bool CkptInfoReader::readFlat(std::string_view text, CkptInfoView& info, KeyValues& record)
{
    // Kept from file to file (constant-initialised, no guard): its 32 members'
    // room is not cleared for each file, only the members read are written.
    thread_local FlatObject object;
    FlatObject& f = object;
    if (!f.parse(text))
        return false;

    if (!flatInt(f.known(kEpoch), info.epoch))
        return false;
    if (const FlatValue* metric = f.known(kSaveBestMetric)) {
        if (!flatString(metric, info.saveBestMetric))
            return false;
    } else if (const FlatValue* stat = f.known(kSaveBestStat)) {
        if (!flatString(stat, info.saveBestMetric))
            return false;
    }
    if (const FlatValue* only = f.known(kSaveBestOnly); only && !f.known(kSaveBestMetric)) {
        if (only->kind == FK::Bool && !only->b)
            info.saveBestMetric.reset();
        else if (only->kind == FK::String)
            return false;
    }
    if (const FlatValue* last = f.known(kBestMetricLast)) {
        if (!flatDouble(last, info.bestMetricLast))
            return false;
    } else if (!flatDouble(f.known(kBestStatLast), info.bestMetricLast)) {
        return false;
    }
    if (!flatString(f.known(kModelFile), info.modelFile))
        return false;
    thread_local std::string checksumText;
    if (const FlatValue* sum = f.known(kChecksum)) {
        if (!flatChecksum(sum, info.checksum, checksumText))
            return false;
    } else if (!flatChecksum(f.known(kChecksumModel), info.checksum, checksumText)) {
        return false;
    }
    if (!flatString(f.known(kTimestamp), info.timestamp))
        return false;
    const FlatValue* elapsed = f.known(kTimeElapsed);
    if (elapsed && elapsed->kind == FK::String && elapsed->text == "__FIRST__")
        info.firstSave = true;
    else if (!flatDouble(elapsed, info.timeElapsed))
        return false;
    if (const FlatValue* meta = f.known(kMetadata); meta && meta->kind != FK::Null) {
        if (meta->kind == FK::String) {
            info.metadata = meta->text;
        } else {
            thread_local std::string metadataText;
            metadataText.clear();
            appendDump(metadataText, *meta, false);
            info.metadata = metadataText;
        }
    }
    // A value's text as dump() writes it: the file's own where they agree (a
    // string with its quotes, an integer, a word), written again for doubles.
    thread_local std::string values;
    values.clear();
    thread_local KeyValues::Entry entries[FlatObject::kMaxMembers];
    // The last double read at each place of the object and its text as
    // written again: the files of a run share one layout.
    struct DoubleMemo
    {
        std::uint8_t size = 0; // 0: none yet (a number has a digit)
        std::uint8_t canonicalSize = 0;
        char text[kMemoChars];
        char canonical[DoubleText::kMaxChars];
    };
    thread_local DoubleMemo memos[FlatObject::kMaxMembers];
    std::size_t dumped[FlatObject::kMaxMembers][2]; // member, end in `values`
    std::size_t dumps = 0;
    for (std::size_t k = 0; k < f.size(); ++k) {
        const FlatValue& v = f.value(k);
        if (v.kind == FK::String) {
            entries[k] = {f.key(k), std::string_view(v.text.data() - 1, v.text.size() + 2)};
        } else if (v.kind == FK::Bool || v.kind == FK::Null || v.kind == FK::UInt ||
                   (v.kind == FK::Int && v.text != "-0")) {
            entries[k] = {f.key(k), v.text};
        } else if (v.kind == FK::Double && std::isfinite(v.d) && v.text.size() <= kMemoChars) {
            // A double written as the file before wrote it at the same place
            // (best_metric_last stays until the metric improves): its text
            // again, without formatting it again.
            // The entry is the memo's text: assignDistinct copies it before
            // the next file is read. Short copies by copyShort: GCC expands
            // memcpy of a size it knows is small into `rep movsq`, slow to start.
            DoubleMemo& memo = memos[k];
            if (memo.size != v.text.size() ||
                std::memcmp(memo.text, v.text.data(), v.text.size()) != 0) {
                memo.size = static_cast<std::uint8_t>(v.text.size());
                copyShort(memo.text, v.text.data(), v.text.size());
                memo.canonicalSize = static_cast<std::uint8_t>(
                    DoubleText::write(memo.canonical, v.d) - memo.canonical);
            }
            entries[k] = {f.key(k), std::string_view(memo.canonical, memo.canonicalSize)};
        } else {
            appendDump(values, v, true);
            dumped[dumps][0] = k;
            dumped[dumps++][1] = values.size();
        }
    }
    for (std::size_t d = 0, from = 0; d < dumps; from = dumped[d][1], ++d)
        entries[dumped[d][0]] = {f.key(dumped[d][0]),
                                 std::string_view(values).substr(from, dumped[d][1] - from)};
    record.assignDistinct(entries, f.size(), /*canonical=*/true);
    return true;
}

CkptInfoView CkptInfoView::of(const CkptInfo& info)
{
    CkptInfoView view;
    view.epoch = info.epoch;
    view.saveBestMetric = info.saveBestMetric;
    view.bestMetricLast = info.bestMetricLast;
    view.modelFile = info.modelFile;
    view.checksum = info.checksum;
    view.timestamp = info.timestamp;
    view.timeElapsed = info.timeElapsed;
    view.firstSave = info.firstSave;
    view.metadata = info.metadata;
    return view;
}

} // namespace ckpt
