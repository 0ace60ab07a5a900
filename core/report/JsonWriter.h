#pragma once

#include "common/CopyShort.h"
#include "json/JsonText.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Appends compact JSON to a string without building a document: the bytes are
// those nlohmann's dump(-1, ' ', false, replace) gives for the same values
// (strings made valid UTF-8 first, non-finite numbers as null, doubles in
// nlohmann's shortest round-trip form), so streamed output equals the DOM's.
// Commas are placed by the writer; the caller pairs begin/end.
//
// The writer owns `out` while it lives: it writes through a cursor into room
// it makes in the string (16 KiB at a time) and cuts the string to what was
// written when it is destroyed, so that a scan's millions of small pieces cost
// a store each rather than a call. Read `out` after the writer is gone, or
// through written() while it lives.
class JsonWriter
{
public:
    explicit JsonWriter(std::string& out);
    // Writes over `out` from its start instead: the bytes it holds are room,
    // taken before any is added, so that a buffer kept from one text to the
    // next is not zero-filled again.
    struct Overwrite
    {};
    JsonWriter(std::string& out, Overwrite);
    ~JsonWriter();
    JsonWriter(const JsonWriter&) = delete;
    JsonWriter& operator=(const JsonWriter&) = delete;

    [[gnu::always_inline]] JsonWriter& beginObject() { return open('{'); }
    [[gnu::always_inline]] JsonWriter& endObject() { return close('}'); }
    [[gnu::always_inline]] JsonWriter& beginArray() { return open('['); }
    [[gnu::always_inline]] JsonWriter& endArray() { return close(']'); }
    // The member name of the value that follows.
    [[gnu::always_inline]] JsonWriter& key(std::string_view name)
    {
        separate();
        quoted(name);
        put(':');
        m_needComma = false;
        return *this;
    }
    // A name written in the source ("epoch"): plain text, never checked, and
    // copied with a size known when compiling (plainKey is inlined: a few
    // stores, no call).
    template <std::size_t N> [[gnu::always_inline]] JsonWriter& key(const char (&name)[N])
    {
        static_assert(N > 1, "a member name");
        return plainKey(std::string_view(name, N - 1));
    }
    // A name known to be plain (see isPlain), written without the check.
    [[gnu::always_inline]] JsonWriter& plainKey(std::string_view name)
    {
        separate();
        char* p = room(name.size() + 3);
        *p = '"';
        std::memcpy(p + 1, name.data(), name.size());
        p[name.size() + 1] = '"';
        p[name.size() + 2] = ':';
        m_cur = p + name.size() + 3;
        m_needComma = false;
        return *this;
    }

    [[gnu::always_inline]] JsonWriter& string(std::string_view text)
    {
        separate();
        quoted(text);
        return *this;
    }
    // A string known to be plain (see isPlain), written without the check.
    [[gnu::always_inline]] JsonWriter& plainString(std::string_view text)
    {
        separate();
        char* p = room(text.size() + 2);
        *p = '"';
        copyShort(p + 1, text.data(), text.size());
        p[text.size() + 1] = '"';
        m_cur = p + text.size() + 2;
        return *this;
    }
    JsonWriter& integer(std::int64_t value);
    JsonWriter& unsignedInteger(std::uint64_t value);
    // As nlohmann writes a double ("0.0041", "1.0", "1e-05"); null when not finite.
    JsonWriter& number(double value);
    [[gnu::always_inline]] JsonWriter& boolean(bool value)
    {
        separate();
        put(value ? std::string_view("true") : std::string_view("false"));
        return *this;
    }
    [[gnu::always_inline]] JsonWriter& null()
    {
        separate();
        put(std::string_view("null"));
        return *this;
    }
    // A complete JSON value already in compact form.
    JsonWriter& raw(std::string_view json);
    // Text that is not one value (`,\n"epochs": [`), written as it is; the
    // value or member after it gets no comma.
    JsonWriter& verbatim(std::string_view text);

    template <typename T> JsonWriter& optionalInteger(const std::optional<T>& value)
    {
        return value ? integer(static_cast<std::int64_t>(*value)) : null();
    }
    JsonWriter& optionalUnsigned(const std::optional<std::uint64_t>& value)
    {
        return value ? unsignedInteger(*value) : null();
    }
    // The path, or null when it is empty.
    [[gnu::always_inline]] JsonWriter& pathOrNull(std::string_view path)
    {
        return path.empty() ? null() : string(path);
    }

    // For a caller writing one value itself: room for at most `bytes` after
    // the separator, written through the pointer returned; endValue(end)
    // takes the cursor to the end of what it wrote.
    char* beginValue(std::size_t bytes)
    {
        separate();
        return room(bytes);
    }
    void endValue(char* end) { m_cur = end; }

    // Bytes in the string so far, and those written since `from` of them.
    std::size_t size() const { return static_cast<std::size_t>(m_cur - m_begin); }
    std::string_view written(std::size_t from) const { return {m_begin + from, size() - from}; }

    // Forgets what is written (a sink has taken it): the string is empty again.
    void discard() { m_cur = m_begin; }

    // `text` as a JSON string literal (quotes, escapes, invalid UTF-8 as U+FFFD).
    static void appendString(std::string& out, std::string_view text);
    // True when `text` can be written between quotes as it is: ASCII, no
    // control character, no '"' or '\\'. Eight bytes at a time.
    [[gnu::always_inline]] static bool isPlain(std::string_view text)
    {
        return isPlainJsonText(text);
    }

private:
    // Room for `bytes` more at the cursor.
    [[gnu::always_inline]] char* room(std::size_t bytes)
    {
        if (static_cast<std::size_t>(m_end - m_cur) < bytes) [[unlikely]]
            grow(bytes);
        return m_cur;
    }
    void grow(std::size_t bytes);
    [[gnu::always_inline]] void put(char c) { *room(1) = c, ++m_cur; }
    [[gnu::always_inline]] void put(std::string_view text)
    {
        copyShort(room(text.size()), text.data(), text.size());
        m_cur += text.size();
    }
    [[gnu::always_inline]] JsonWriter& open(char bracket)
    {
        separate();
        put(bracket);
        m_needComma = false;
        return *this;
    }
    [[gnu::always_inline]] JsonWriter& close(char bracket)
    {
        put(bracket);
        m_needComma = true;
        return *this;
    }
    [[gnu::always_inline]] void separate()
    {
        if (m_needComma)
            put(',');
        m_needComma = true;
    }
    // `text` with its quotes, through appendString when it is not plain.
    [[gnu::always_inline]] void quoted(std::string_view text)
    {
        if (!isPlain(text)) [[unlikely]] {
            quotedEscaped(text);
            return;
        }
        char* p = room(text.size() + 2);
        *p++ = '"';
        copyShort(p, text.data(), text.size());
        p[text.size()] = '"';
        m_cur = p + text.size() + 1;
    }
    void quotedEscaped(std::string_view text);

    std::string& m_out;
    char* m_begin = nullptr;
    char* m_cur = nullptr;
    char* m_end = nullptr;
    bool m_needComma = false;
};

} // namespace ckpt
