#include "watch/EpochDirs.h"

#include <algorithm>

namespace ckpt {

void EpochDirs::assign(const std::map<int, Dir>& dirs)
{
    m_entries.clear();
    m_entries.reserve(dirs.size());
    for (const auto& [number, dir] : dirs)
        m_entries.push_back(Entry{number, dir});
}

std::vector<EpochDirs::Entry>::iterator EpochDirs::lowerBound(int number)
{
    return std::lower_bound(m_entries.begin(), m_entries.end(), number,
                            [](const Entry& e, int n) { return e.number < n; });
}

const EpochDirs::Dir* EpochDirs::find(int number) const
{
    auto it = std::lower_bound(m_entries.begin(), m_entries.end(), number,
                               [](const Entry& e, int n) { return e.number < n; });
    return it != m_entries.end() && it->number == number ? &it->dir : nullptr;
}

void EpochDirs::set(int number, const Dir& dir)
{
    auto it = lowerBound(number);
    if (it != m_entries.end() && it->number == number)
        it->dir = dir;
    else
        m_entries.insert(it, Entry{number, dir});
}

void EpochDirs::erase(int number)
{
    auto it = lowerBound(number);
    if (it != m_entries.end() && it->number == number)
        m_entries.erase(it);
}

} // namespace ckpt
