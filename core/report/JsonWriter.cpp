#include "report/JsonWriter.h"

#include "json/Utf8.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace ckpt {

namespace {

// Bytes nlohmann escapes with ensure_ascii off: controls, '"' and '\'.
bool needsEscape(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

void appendEscaped(std::string& out, std::string_view valid)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::size_t plain = 0;
    for (std::size_t i = 0; i < valid.size(); ++i) {
        const auto c = static_cast<unsigned char>(valid[i]);
        if (!needsEscape(c))
            continue;
        out.append(valid.data() + plain, i - plain);
        plain = i + 1;
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default: {
            const char u[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
            out.append(u, sizeof u);
            break;
        }
        }
    }
    out.append(valid.data() + plain, valid.size() - plain);
}

} // namespace

void JsonWriter::appendString(std::string& out, std::string_view text)
{
    out += '"';
    bool simple = true;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x80 || needsEscape(c)) {
            simple = false;
            break;
        }
    }
    if (simple) {
        out.append(text);
    } else {
        std::string valid;
        valid.reserve(text.size());
        Utf8::appendValid(valid, text);
        appendEscaped(out, valid);
    }
    out += '"';
}

void JsonWriter::appendDouble(std::string& out, double value)
{
    char buffer[64];
    char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, static_cast<std::size_t>(end - buffer));
}

JsonWriter& JsonWriter::beginObject()
{
    separate();
    m_out += '{';
    m_needComma = false;
    return *this;
}

JsonWriter& JsonWriter::endObject()
{
    m_out += '}';
    m_needComma = true;
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    separate();
    m_out += '[';
    m_needComma = false;
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    m_out += ']';
    m_needComma = true;
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name)
{
    separate();
    appendString(m_out, name);
    m_out += ':';
    m_needComma = false;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view text)
{
    separate();
    appendString(m_out, text);
    return *this;
}

JsonWriter& JsonWriter::integer(std::int64_t value)
{
    separate();
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    m_out.append(buffer, static_cast<std::size_t>(end - buffer));
    return *this;
}

JsonWriter& JsonWriter::unsignedInteger(std::uint64_t value)
{
    separate();
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    m_out.append(buffer, static_cast<std::size_t>(end - buffer));
    return *this;
}

JsonWriter& JsonWriter::number(double value)
{
    if (!std::isfinite(value))
        return null();
    separate();
    appendDouble(m_out, value);
    return *this;
}

JsonWriter& JsonWriter::boolean(bool value)
{
    separate();
    m_out += value ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null()
{
    separate();
    m_out += "null";
    return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json)
{
    separate();
    m_out += json;
    return *this;
}

} // namespace ckpt
