#include "model/KeyValues.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <nlohmann/json.hpp>

namespace ckpt {

struct KeyValues::Block : SharedCount
{
    std::uint32_t size = 0;
    std::uint32_t capacity = 0;
    bool canonical = false;

    char* chars() { return reinterpret_cast<char*>(this + 1); }

    // One allocation: the header, then `capacity` characters.
    static Block* make(std::size_t capacity)
    {
        void* memory = ::operator new(sizeof(Block) + capacity);
        auto* block = new (memory) Block;
        block->capacity = static_cast<std::uint32_t>(capacity);
        return block;
    }
    static void destroy(Block* block)
    {
        block->~Block();
        ::operator delete(block);
    }
};

KeyValues::KeyValues() noexcept = default;
KeyValues::KeyValues(const KeyValues& other) noexcept = default;
KeyValues::KeyValues(KeyValues&& other) noexcept = default;
KeyValues& KeyValues::operator=(const KeyValues& other) noexcept = default;
KeyValues& KeyValues::operator=(KeyValues&& other) noexcept = default;
KeyValues::~KeyValues() = default;

void KeyValues::clear()
{
    m_block.reset();
}

void KeyValues::clearKeepingRoom()
{
    if (!m_block.unique()) {
        m_block.reset();
        return;
    }
    m_block->size = 0;
    m_block->canonical = false;
}

std::string_view KeyValues::packed() const
{
    return m_block ? std::string_view(m_block->chars(), m_block->size) : std::string_view();
}

SharedBlock<KeyValues::Block> KeyValues::writable(std::size_t bytes)
{
    if (m_block.unique() && m_block->capacity >= bytes)
        return {};
    const std::string_view now = packed();
    Block* fresh = Block::make(std::max(bytes, now.size() * 2));
    if (!now.empty()) // memcpy from the null data() of an empty view is undefined
        std::memcpy(fresh->chars(), now.data(), now.size());
    fresh->size = static_cast<std::uint32_t>(now.size());
    SharedBlock<Block> previous(fresh);
    m_block.swap(previous);
    return previous;
}

void KeyValues::assign(std::string_view text)
{
    m_block.reset();
    if (text.empty())
        return;
    m_block.reset(Block::make(text.size()));
    std::memcpy(m_block->chars(), text.data(), text.size());
    m_block->size = static_cast<std::uint32_t>(text.size());
}

bool KeyValues::canonical() const
{
    return m_block && m_block->canonical;
}

namespace {

std::size_t sizeBytes(std::size_t n)
{
    std::size_t bytes = 1;
    for (; n >= 0x80; n >>= 7)
        ++bytes;
    return bytes;
}

char* putSize(char* out, std::size_t n)
{
    for (; n >= 0x80; n >>= 7)
        *out++ = static_cast<char>((n & 0x7f) | 0x80);
    *out++ = static_cast<char>(n);
    return out;
}

char* putText(char* out, std::string_view text)
{
    out = putSize(out, text.size());
    if (!text.empty()) // an empty view's data may be null
        std::memcpy(out, text.data(), text.size());
    return out + text.size();
}

} // namespace

std::size_t KeyValues::entryBytes(std::string_view key, std::string_view value)
{
    return sizeBytes(key.size()) + key.size() + sizeBytes(value.size()) + value.size();
}

char* KeyValues::putEntry(char* out, std::string_view key, std::string_view value)
{
    return putText(putText(out, key), value);
}

void KeyValues::assignDistinct(const Entry* entries, std::size_t count, bool canonical)
{
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < count; ++i)
        bytes += entryBytes(entries[i].first, entries[i].second);
    if (bytes == 0) {
        m_block.reset();
        return;
    }
    // The buffer is written over when it is this record's alone and large
    // enough (a recycled epoch's, see clearKeepingRoom).
    if (!m_block.unique() || m_block->capacity < bytes)
        m_block.reset(Block::make(bytes));
    char* out = m_block->chars();
    for (std::size_t i = 0; i < count; ++i)
        out = putEntry(out, entries[i].first, entries[i].second);
    m_block->size = static_cast<std::uint32_t>(bytes);
    m_block->canonical = canonical;
}

void KeyValues::shrinkToFit()
{
    if (m_block && m_block->size == 0) {
        m_block.reset(); // emptied keeping its room
        return;
    }
    if (m_block && m_block->capacity > m_block->size) {
        const bool wasCanonical = m_block->canonical;
        const std::string copy(packed());
        assign(copy);
        m_block->canonical = wasCanonical;
    }
}

std::size_t KeyValues::size() const
{
    std::size_t n = 0;
    for (auto it = begin(); it != end(); ++it)
        ++n;
    return n;
}

std::optional<std::string_view> KeyValues::get(std::string_view key) const
{
    for (const auto& [k, v] : *this)
        if (k == key)
            return v;
    return std::nullopt;
}

void KeyValues::set(std::string_view key, std::string_view value)
{
    if (key.find('\0') != key.npos || value.find('\0') != value.npos) {
        // Found by fuzz_lightning_hparams: a NUL split an entry in two and
        // iteration never reached the end.
        auto visible = [](std::string_view text) {
            std::string out;
            for (char c : text)
                out += c == '\0' ? std::string_view("\xe2\x90\x80") : std::string_view(&c, 1);
            return out;
        };
        set(visible(key), visible(value));
        return;
    }
    if (contains(key)) {
        std::string rebuilt(packed().size() + entryBytes(key, value), '\0');
        char* out = rebuilt.data();
        for (const auto& [k, v] : *this)
            out = putEntry(out, k, k == key ? value : v);
        rebuilt.resize(static_cast<std::size_t>(out - rebuilt.data()));
        assign(rebuilt);
        return;
    }
    const std::size_t at = packed().size();
    const std::size_t bytes = entryBytes(key, value);
    // The old buffer lives until the end: key or value may point into it.
    const SharedBlock<Block> previous = writable(at + bytes);
    putEntry(m_block->chars() + at, key, value);
    m_block->size = static_cast<std::uint32_t>(at + bytes);
    m_block->canonical = false;
}

std::optional<std::string> KeyValues::text(std::string_view key) const
{
    const auto v = get(key);
    if (!v || v->size() < 2 || v->front() != '"' || v->back() != '"')
        return std::nullopt;
    if (v->find('\\') == std::string_view::npos)
        return std::string(v->substr(1, v->size() - 2));
    const auto parsed = nlohmann::json::parse(*v, nullptr, false);
    if (!parsed.is_string())
        return std::nullopt;
    return parsed.get<std::string>();
}

std::optional<double> KeyValues::number(std::string_view key) const
{
    const auto v = get(key);
    if (!v || v->empty())
        return std::nullopt;
    if (*v == "Infinity")
        return std::numeric_limits<double>::infinity();
    if (*v == "-Infinity")
        return -std::numeric_limits<double>::infinity();
    if (*v == "NaN")
        return std::numeric_limits<double>::quiet_NaN();
    double d = 0.0;
    const auto [ptr, ec] = std::from_chars(v->data(), v->data() + v->size(), d);
    if (ec != std::errc() || ptr != v->data() + v->size())
        return std::nullopt;
    return d;
}

} // namespace ckpt
