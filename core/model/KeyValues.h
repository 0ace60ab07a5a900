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

// A small ordered key/value list packed into one buffer ("k\0v\0k\0v\0"): an
// epoch's metadata costs one allocation instead of a JSON tree or a vector of
// string pairs. Keys keep their insertion order; values are JSON text as the
// format wrote them (`12`, `"val_loss"`, `Infinity`).
// Copies share the buffer (copy-on-write, thread-safe reference count): the
// window's run registry and the watcher thread each hold every epoch of every
// run, and an epoch's record rarely changes once read.
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
            // set() keeps NULs out of keys and values; should the buffer still
            // end early, iteration stops at its end instead of wrapping around.
            const char* base = m_packed.data();
            const char* end = base + size;
            const char* key = base + m_pos;
            const auto* keyEnd = static_cast<const char*>(std::memchr(key, '\0', end - key));
            if (!keyEnd) {
                m_entry = {std::string_view(key, end - key), std::string_view()};
                m_next = size;
                return;
            }
            const char* value = keyEnd + 1;
            const auto* valueEnd =
                value < end ? static_cast<const char*>(std::memchr(value, '\0', end - value))
                            : nullptr;
            if (!valueEnd)
                valueEnd = end;
            m_entry = {std::string_view(key, keyEnd - key),
                       std::string_view(value, valueEnd - value)};
            m_next = std::min(static_cast<std::size_t>(valueEnd - base) + 1, size);
        }
        std::string_view m_packed;
        std::size_t m_pos = 0;
        std::size_t m_next = 0;
        Entry m_entry;
    };

    // Appends, or replaces the value of an existing key in place of order. A NUL
    // in the key or value (a JSON "\u0000", a NUL byte in a YAML file) is stored
    // as U+2400 (the packed buffer separates entries with NULs).
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
    std::size_t size() const;
    void clear();
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

    SharedBlock<Block> m_block;
};

} // namespace ckpt
