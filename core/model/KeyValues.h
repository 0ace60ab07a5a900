#pragma once

#include "common/SharedBlock.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ckpt {

// A small ordered key/value list packed into one buffer, each key and value
// after its size (one byte below 128, LEB128 above): an epoch's metadata costs
// one allocation instead of a JSON tree or a vector of string pairs, and a walk
// over it reads sizes instead of searching for ends. Keys keep their insertion order; values are
// JSON text as the format wrote them (`12`, `"val_loss"`, `Infinity`). Copies share the buffer
// (copy-on-write, thread-safe reference count): the window's run registry and the watcher thread
// each hold every epoch of every run, and an epoch's record rarely changes once read.
class KeyValues
{
public:
    KeyValues() noexcept;
    KeyValues(const KeyValues& other) noexcept;
    KeyValues(KeyValues&& other) noexcept;
    KeyValues& operator=(const KeyValues& other) noexcept;
    KeyValues& operator=(KeyValues&& other) noexcept;
    ~KeyValues();

    using Entry = std::pair<std::string_view, std::string_view>;

    class const_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Entry;
        using difference_type = std::ptrdiff_t;
        using pointer = const Entry*;
        using reference = const Entry&;

        const_iterator() = default;
        const_iterator(std::string_view packed, std::size_t pos) : m_packed(packed), m_pos(pos)
        {
            load();
        }
        reference operator*() const { return m_entry; }
        pointer operator->() const { return &m_entry; }
        const_iterator& operator++()
        {
            m_pos = m_next;
            load();
            return *this;
        }
        bool operator==(const const_iterator& other) const { return m_pos == other.m_pos; }

    private:
        // Inline: a scan's JSON output walks every record of every epoch.
        void load()
        {
            const std::size_t size = m_packed.size();
            if (m_pos >= size) {
                m_pos = size;
                return;
            }
            // A buffer that ends early (never made by this class) ends the walk
            // at its end instead of reading past it.
            const char* p = m_packed.data() + m_pos;
            const char* end = m_packed.data() + size;
            const std::string_view key = take(p, end);
            const std::string_view value = take(p, end);
            m_entry = {key, value};
            m_next = static_cast<std::size_t>(p - m_packed.data());
        }
        static std::string_view take(const char*& p, const char* end)
        {
            std::size_t n = 0;
            if (p < end && static_cast<unsigned char>(*p) < 0x80) [[likely]] {
                n = static_cast<unsigned char>(*p++);
            } else {
                for (int shift = 0; p < end && shift <= 28; shift += 7) {
                    const auto byte = static_cast<unsigned char>(*p++);
                    n |= static_cast<std::size_t>(byte & 0x7f) << shift;
                    if (byte < 0x80)
                        break;
                }
            }
            n = std::min(n, static_cast<std::size_t>(end - p));
            const std::string_view text(p, n);
            p += n;
            return text;
        }
        std::string_view m_packed;
        std::size_t m_pos = 0;
        std::size_t m_next = 0;
        Entry m_entry;
    };

    // Appends, or replaces the value of an existing key in place of order. A NUL
    // in the key or value (a JSON "\u0000", a NUL byte in a YAML file) is stored
    // as U+2400 (NUL-terminated readers of a record see all of it).
    void set(std::string_view key, std::string_view value);
    // Replaces the whole list in one allocation, from `count` entries whose keys
    // are distinct and which hold no NUL (what set() would build, faster).
    // `canonical`: the caller vouches for what canonical() promises.
    void assignDistinct(const Entry* entries, std::size_t count, bool canonical = false);
    // True when every key is plain ASCII (no control character, quote or
    // backslash) and every value is what nlohmann's compact dump() writes for
    // it (a plain ASCII string, an integer, a shortest round-trip double, a
    // word), non-finite numbers spelled NaN, Infinity or -Infinity: a writer
    // may copy such a record out as JSON without reading it again. Only the
    // fast ckpt-info.json reader makes such records; set() ends the promise.
    bool canonical() const;
    std::optional<std::string_view> get(std::string_view key) const;
    bool contains(std::string_view key) const { return get(key).has_value(); }
    bool empty() const { return packed().empty(); }
    // Bytes of the packed list: each entry's key and value plus at least two
    // of sizes (a writer's bound on what it will write).
    std::size_t packedBytes() const { return packed().size(); }
    std::size_t size() const;
    void clear();
    // Empty, keeping the buffer for the next assignDistinct() when no other
    // copy reads it (a recycled epoch's record).
    void clearKeepingRoom();
    void shrinkToFit();

    // Decoded helpers for values written as JSON: the string value without quotes
    // and escapes (nullopt for a non-string), the number (Infinity/NaN accepted).
    std::optional<std::string> text(std::string_view key) const;
    std::optional<double> number(std::string_view key) const;

    const_iterator begin() const { return {packed(), 0}; }
    const_iterator end() const { return {packed(), packed().size()}; }

    bool operator==(const KeyValues& other) const { return packed() == other.packed(); }

private:
    struct Block;
    std::string_view packed() const;
    // Makes the buffer this object's own with room for `bytes`, keeping its
    // text; returns the buffer it let go of (empty when it kept its own),
    // for the caller to hold while it may still read from it.
    SharedBlock<Block> writable(std::size_t bytes);
    void assign(std::string_view text);
    // Bytes an entry takes, and writes one at `out`, returning its end.
    static std::size_t entryBytes(std::string_view key, std::string_view value);
    static char* putEntry(char* out, std::string_view key, std::string_view value);

    SharedBlock<Block> m_block;
};

} // namespace ckpt
