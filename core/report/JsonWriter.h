#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Appends compact JSON to a string without building a document: the bytes are
// those nlohmann's dump(-1, ' ', false, replace) gives for the same values
// (strings made valid UTF-8 first, non-finite numbers as null, doubles in
// nlohmann's shortest round-trip form), so streamed output equals the DOM's.
// Commas are placed by the writer; the caller pairs begin/end.
class JsonWriter
{
public:
    explicit JsonWriter(std::string& out) : m_out(out) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    // The member name of the value that follows.
    JsonWriter& key(std::string_view name);

    JsonWriter& string(std::string_view text);
    JsonWriter& integer(std::int64_t value);
    JsonWriter& unsignedInteger(std::uint64_t value);
    JsonWriter& number(double value); // null when not finite
    JsonWriter& boolean(bool value);
    JsonWriter& null();
    // A complete JSON value already in compact form.
    JsonWriter& raw(std::string_view json);

    template <typename T> JsonWriter& optionalInteger(const std::optional<T>& value)
    {
        return value ? integer(static_cast<std::int64_t>(*value)) : null();
    }
    JsonWriter& optionalUnsigned(const std::optional<std::uint64_t>& value)
    {
        return value ? unsignedInteger(*value) : null();
    }
    // The path, or null when it is empty.
    JsonWriter& pathOrNull(std::string_view path) { return path.empty() ? null() : string(path); }

    std::string& out() { return m_out; }

    // `text` as a JSON string literal (quotes, escapes, invalid UTF-8 as U+FFFD).
    static void appendString(std::string& out, std::string_view text);
    // A finite double as nlohmann writes it ("0.0041", "1.0", "1e-05").
    static void appendDouble(std::string& out, double value);

private:
    void separate()
    {
        if (m_needComma)
            m_out += ',';
        m_needComma = true;
    }

    std::string& m_out;
    bool m_needComma = false;
};

} // namespace ckpt
