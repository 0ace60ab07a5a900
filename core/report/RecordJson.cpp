#include "report/RecordJson.h"

#include "json/DecimalText.h"
#include "json/JsonNumber.h"
#include "json/LenientJson.h"
#include "report/JsonWriter.h"
#include "report/RunJson.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

namespace ckpt {

using Json = nlohmann::ordered_json;

namespace {

constexpr auto kReplace = Json::error_handler_t::replace;

// One value of an epoch's record as metadataToJson(...).dump() writes it, without
// the document for the values records hold (plain strings, numbers, words);
// anything else goes through the document.
void writeRecordValue(JsonWriter& w, std::string_view value)
{
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        if (JsonWriter::isPlain(value.substr(1, value.size() - 2))) {
            w.raw(value);
            return;
        }
    } else if (value == "true" || value == "false" || value == "null") {
        w.raw(value);
        return;
    } else if (value == "NaN" || value == "Infinity" || value == "-Infinity") {
        w.null();
        return;
    } else if (const JsonNumberSpan span = scanJsonNumber(value, 0);
               span.ok() && span.end == value.size()) {
        const bool integral = span.integral;
        const char* first = value.data();
        const char* last = value.data() + value.size();
        // An integer of up to 18 digits is written back as it is (the JSON
        // grammar lets no leading zero through), but for "-0", which the document writes "0".
        if (integral && value.size() <= 18 && value != "-0") {
            w.raw(value);
            return;
        }
        if (integral) {
            std::int64_t i = 0;
            if (std::from_chars(first, last, i).ec == std::errc()) {
                w.integer(i);
                return;
            }
        } else {
            double d = 0.0;
            if (std::from_chars(first, last, d).ec == std::errc() && std::isfinite(d)) {
                w.number(d);
                return;
            }
        }
    }
    auto parsed = LenientJson::parse(value, {});
    w.raw((parsed ? RecordJson::finiteOnly(*parsed) : Json(LenientJson::validUtf8(value)))
              .dump(-1, ' ', false, kReplace));
}

// True when `text` holds one of `chars` (a loop: find_first_of calls memchr
// on the set for every character).
template <std::size_t N> bool holdsAny(std::string_view text, const char (&chars)[N])
{
    for (const char c : text)
        for (std::size_t i = 0; i + 1 < N; ++i)
            if (c == chars[i])
                return true;
    return false;
}

// False when `text` (a double's text) cannot be `value`: told by the integer
// part alone where it is cheap to read (no exponent, below 2^53); true when it
// may be, for from_chars to decide.
bool mayBe(std::string_view text, double value)
{
    if ((text.front() == '-') != std::signbit(value))
        return false;
    const double magnitude = std::fabs(value);
    // A known text is a double as DoubleText writes it, its exponent (if any)
    // "e+NN", "e-NN" or three digits at its end. Only a filter: any other
    // text is told apart by from_chars.
    const std::size_t n = text.size();
    if (magnitude >= 9007199254740992.0 || (n >= 4 && (text[n - 4] == 'e' || text[n - 4] == 'E')) ||
        (n >= 5 && (text[n - 5] == 'e' || text[n - 5] == 'E')))
        return true;
    std::uint64_t whole = 0;
    for (std::size_t i = text.front() == '-' ? 1 : 0; i < text.size() && text[i] != '.'; ++i)
        whole = whole * 10 + static_cast<std::uint64_t>(text[i] - '0');
    return whole == static_cast<std::uint64_t>(magnitude);
}

} // namespace

Json RecordJson::finiteOnly(const Json& v)
{
    if (v.is_number_float() && !std::isfinite(v.get<double>()))
        return Json(nullptr);
    if (v.is_structured()) {
        Json out = v.is_object() ? Json::object() : Json::array();
        if (v.is_object())
            for (const auto& [k, item] : v.items())
                out[k] = finiteOnly(item);
        else
            for (const auto& item : v)
                out.push_back(finiteOnly(item));
        return out;
    }
    return v;
}

bool RecordJson::isAscii(std::string_view text)
{
    for (const char c : text)
        if (static_cast<unsigned char>(c) >= 0x80)
            return false;
    return true;
}

void RecordJson::Doubles::note(std::string_view value)
{
    // A number with a fraction or an exponent (an integer has neither).
    const bool number =
        !value.empty() && (value.front() == '-' || (value.front() >= '0' && value.front() <= '9'));
    if (count < kMax && number && holdsAny(value, ".eE"))
        text[count++] = value;
}

void RecordJson::writeNumber(JsonWriter& w, double value, const Doubles& known)
{
    if (std::isfinite(value)) {
        for (std::size_t i = 0; i < known.count; ++i) {
            const std::string_view t = known.text[i];
            double d = 0.0;
            if (mayBe(t, value) &&
                decimalFromChars(t.data(), t.data() + t.size(), d).ec == std::errc() &&
                std::bit_cast<std::uint64_t>(d) == std::bit_cast<std::uint64_t>(value)) {
                w.raw(t); // the same value: DoubleText's text for it
                return;
            }
        }
    }
    w.number(value);
}

void RecordJson::write(JsonWriter& w, const KeyValues& metadata, std::optional<Json>& raw,
                       Doubles* doubles)
{
    if (metadata.canonical()) {
        // Already as the document writes it: copied out, but for non-finite
        // numbers. In one piece of room: an entry takes its key and value and
        // at least two bytes of sizes in the record, and `"key":value,` here
        // (null, in place of NaN, by one byte more), so twice the record's
        // bytes always suffice.
        char* out = w.beginValue(2 * metadata.packedBytes() + 2);
        char separator = '{';
        for (const auto& [key, value] : metadata) {
            *out++ = std::exchange(separator, ',');
            *out++ = '"';
            copyShort(out, key.data(), key.size());
            out += key.size();
            *out++ = '"';
            *out++ = ':';
            if (value.front() == 'N' || value.front() == 'I' ||
                (value.front() == '-' && value.size() > 1 && value[1] == 'I')) {
                std::memcpy(out, "null", 4);
                out += 4;
                if (!raw)
                    raw = Json::object();
                (*raw)[std::string(key)] = std::string(value);
            } else {
                copyShort(out, value.data(), value.size());
                out += value.size();
                if (doubles && value.front() != '"')
                    doubles->note(value);
            }
        }
        if (separator == '{')
            *out++ = '{'; // no entry: {}
        *out++ = '}';
        w.endValue(out);
        return;
    }
    for (const auto& [key, value] : metadata) {
        if (!isAscii(key)) {
            // Two keys made valid UTF-8 may become one: the document decides.
            if (!raw)
                raw = Json::object();
            w.raw(RunJson::metadataToJson(metadata, &*raw).dump(-1, ' ', false, kReplace));
            return;
        }
    }
    w.beginObject();
    for (const auto& [key, value] : metadata) {
        w.key(key);
        const std::size_t from = w.size();
        writeRecordValue(w, value);
        if (w.written(from) != value) {
            if (!raw)
                raw = Json::object();
            (*raw)[std::string(key)] = LenientJson::validUtf8(value);
        }
    }
    w.endObject();
}

} // namespace ckpt
