#include "json/PythonRepr.h"

#include "json/Utf8.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace ckpt {

namespace {

void appendHex4(std::string& out, unsigned value)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", value & 0xffffu);
    out += buf;
}

void dumpValue(const nlohmann::ordered_json& v, int indent, int depth, std::string& out)
{
    const bool pretty = indent >= 0;
    auto newline = [&](int d) {
        out += '\n';
        out.append(static_cast<std::size_t>(indent * d), ' ');
    };
    switch (v.type()) {
    case nlohmann::json::value_t::null:
        out += "null";
        break;
    case nlohmann::json::value_t::boolean:
        out += v.get<bool>() ? "true" : "false";
        break;
    case nlohmann::json::value_t::number_integer:
        out += std::to_string(v.get<std::int64_t>());
        break;
    case nlohmann::json::value_t::number_unsigned:
        out += std::to_string(v.get<std::uint64_t>());
        break;
    case nlohmann::json::value_t::number_float:
        out += PythonRepr::jsonFloat(v.get<double>());
        break;
    case nlohmann::json::value_t::string:
        out += PythonRepr::jsonString(v.get_ref<const std::string&>());
        break;
    case nlohmann::json::value_t::array: {
        if (v.empty()) {
            out += "[]";
            break;
        }
        out += '[';
        bool first = true;
        for (const auto& item : v) {
            if (!first)
                out += pretty ? "," : ", ";
            first = false;
            if (pretty)
                newline(depth + 1);
            dumpValue(item, indent, depth + 1, out);
        }
        if (pretty)
            newline(depth);
        out += ']';
        break;
    }
    case nlohmann::json::value_t::object: {
        if (v.empty()) {
            out += "{}";
            break;
        }
        out += '{';
        bool first = true;
        for (const auto& [key, item] : v.items()) {
            if (!first)
                out += pretty ? "," : ", ";
            first = false;
            if (pretty)
                newline(depth + 1);
            out += PythonRepr::jsonString(key);
            out += ": ";
            dumpValue(item, indent, depth + 1, out);
        }
        if (pretty)
            newline(depth);
        out += '}';
        break;
    }
    case nlohmann::json::value_t::binary:
    case nlohmann::json::value_t::discarded:
        out += "null";
        break;
    }
}

} // namespace

std::string PythonRepr::floatRepr(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";

    // Shortest round-trip digits in scientific form, then laid out by Python's
    // float_repr_style rules.
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    const std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
    const auto ePos = sci.find('e');
    std::string_view mantissa = sci.substr(0, ePos);
    const int exponent = std::stoi(std::string(sci.substr(ePos + 1)));

    std::string out;
    if (!mantissa.empty() && mantissa.front() == '-') {
        out += '-';
        mantissa.remove_prefix(1);
    }
    std::string digits;
    for (char c : mantissa)
        if (c != '.')
            digits += c;

    if (exponent < -4 || exponent >= 16) {
        out += digits[0];
        if (digits.size() > 1) {
            out += '.';
            out += digits.substr(1);
        }
        char ebuf[16];
        std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        out += ebuf;
        return out;
    }
    if (exponent < 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-exponent - 1), '0');
        out += digits;
        return out;
    }
    const auto intDigits = static_cast<std::size_t>(exponent) + 1;
    if (digits.size() <= intDigits) {
        out += digits;
        out.append(intDigits - digits.size(), '0');
        out += ".0";
    } else {
        out += digits.substr(0, intDigits);
        out += '.';
        out += digits.substr(intDigits);
    }
    return out;
}

std::string PythonRepr::jsonFloat(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "Infinity" : "-Infinity";
    return floatRepr(value);
}

std::string PythonRepr::jsonString(std::string_view utf8)
{
    std::string out;
    out.reserve(utf8.size() + 2);
    out += '"';
    std::size_t i = 0;
    while (i < utf8.size()) {
        const char32_t cp = Utf8::decode(utf8, i);
        switch (cp) {
        case U'"':
            out += "\\\"";
            continue;
        case U'\\':
            out += "\\\\";
            continue;
        case U'\n':
            out += "\\n";
            continue;
        case U'\r':
            out += "\\r";
            continue;
        case U'\t':
            out += "\\t";
            continue;
        case U'\b':
            out += "\\b";
            continue;
        case U'\f':
            out += "\\f";
            continue;
        default:
            break;
        }
        if (cp >= 0x20 && cp <= 0x7e) {
            out += static_cast<char>(cp);
        } else if (cp > 0xffff) {
            const char32_t v = cp - 0x10000;
            appendHex4(out, static_cast<unsigned>(0xd800 | (v >> 10)));
            appendHex4(out, static_cast<unsigned>(0xdc00 | (v & 0x3ff)));
        } else {
            appendHex4(out, static_cast<unsigned>(cp));
        }
    }
    out += '"';
    return out;
}

std::string PythonRepr::stringRepr(std::string_view text)
{
    const bool hasSingle = text.find('\'') != std::string_view::npos;
    const bool hasDouble = text.find('"') != std::string_view::npos;
    const char quote = (hasSingle && !hasDouble) ? '"' : '\'';
    std::string out(1, quote);
    for (char c : text) {
        switch (c) {
        case '\\':
            out += "\\\\";
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
        default:
            if (c == quote)
                out += '\\';
            out += c;
        }
    }
    out += quote;
    return out;
}

std::string PythonRepr::dumpJson(const nlohmann::ordered_json& value, int indent)
{
    std::string out;
    dumpValue(value, indent, 0, out);
    return out;
}

} // namespace ckpt
