#include "model/KeyValues.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace ckpt {

KeyValues::const_iterator::const_iterator(std::string_view packed, std::size_t pos)
    : m_packed(packed), m_pos(pos)
{
    load();
}

void KeyValues::const_iterator::load()
{
    if (m_pos >= m_packed.size()) {
        m_pos = m_packed.size();
        return;
    }
    const std::size_t keyEnd = m_packed.find('\0', m_pos);
    const std::size_t valueEnd = m_packed.find('\0', keyEnd + 1);
    m_entry = {m_packed.substr(m_pos, keyEnd - m_pos),
               m_packed.substr(keyEnd + 1, valueEnd - keyEnd - 1)};
    m_next = valueEnd + 1;
}

KeyValues::const_iterator& KeyValues::const_iterator::operator++()
{
    m_pos = m_next;
    load();
    return *this;
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
    if (contains(key)) {
        std::string rebuilt;
        rebuilt.reserve(m_packed.size() + value.size());
        for (const auto& [k, v] : *this) {
            rebuilt.append(k).push_back('\0');
            rebuilt.append(k == key ? value : v).push_back('\0');
        }
        m_packed = std::move(rebuilt);
        return;
    }
    m_packed.append(key).push_back('\0');
    m_packed.append(value).push_back('\0');
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
