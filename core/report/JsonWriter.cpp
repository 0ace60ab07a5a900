#include "report/JsonWriter.h"

#include "json/DoubleText.h"
#include "json/JsonText.h"
#include "json/Utf8.h"

#include <algorithm>
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
    if (isPlain(text)) {
        out.append(text);
    } else {
        std::string valid;
        valid.reserve(text.size());
        Utf8::appendValid(valid, text);
        appendEscaped(out, valid);
    }
    out += '"';
}

JsonWriter::JsonWriter(std::string& out) : m_out(out)
{
    m_begin = m_out.data();
    m_cur = m_begin + m_out.size();
    m_end = m_cur;
}

JsonWriter::JsonWriter(std::string& out, Overwrite) : m_out(out)
{
    m_begin = m_out.data();
    m_cur = m_begin;
    m_end = m_begin + m_out.size();
}

JsonWriter::~JsonWriter()
{
    m_out.resize(size());
}

void JsonWriter::grow(std::size_t bytes)
{
    // Room is made a step at a time, even within the string's capacity: what
    // resize() zero-fills is memory first touched, and a page first touched is
    // a fault, costly on a VM; a caller reserving generously pays for no more
    // than it writes. Past the capacity, the string doubles as it always does.
    constexpr std::size_t kStep = 16 * 1024;
    const std::size_t used = size();
    m_out.resize(used + std::max(bytes, kStep));
    m_begin = m_out.data();
    m_cur = m_begin + used;
    m_end = m_begin + m_out.size();
}

void JsonWriter::quotedEscaped(std::string_view text)
{
    std::string escaped;
    appendString(escaped, text);
    put(escaped);
}

JsonWriter& JsonWriter::integer(std::int64_t value)
{
    separate();
    char* p = room(24);
    m_cur = std::to_chars(p, p + 24, value).ptr;
    return *this;
}

JsonWriter& JsonWriter::unsignedInteger(std::uint64_t value)
{
    separate();
    char* p = room(24);
    m_cur = std::to_chars(p, p + 24, value).ptr;
    return *this;
}

JsonWriter& JsonWriter::number(double value)
{
    if (!std::isfinite(value))
        return null();
    separate();
    m_cur = DoubleText::write(room(DoubleText::kMaxChars), value);
    return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json)
{
    separate();
    put(json);
    return *this;
}

JsonWriter& JsonWriter::verbatim(std::string_view text)
{
    put(text);
    m_needComma = false;
    return *this;
}

} // namespace ckpt
