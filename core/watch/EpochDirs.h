#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ckpt {

// The entries of a run's epochs folder that are epochs, by epoch number, as the
// watcher last saw them. A sorted vector rather than a map: the watcher keeps
// one entry for every epoch of every run, and a map node costs twice as much.
class EpochDirs
{
public:
    struct Dir
    {
        std::string name;
        std::uint64_t inode = 0;
    };
    struct Entry
    {
        int number = 0;
        Dir dir;
    };

    // Replaces the content (a map collects a listing: several files may make one epoch).
    void assign(const std::map<int, Dir>& dirs);
    const Dir* find(int number) const;
    bool contains(int number) const { return find(number) != nullptr; }
    void set(int number, const Dir& dir);
    void erase(int number);
    void clear() { m_entries.clear(); }
    std::size_t size() const { return m_entries.size(); }
    std::vector<Entry>::const_iterator begin() const { return m_entries.begin(); }
    std::vector<Entry>::const_iterator end() const { return m_entries.end(); }

private:
    std::vector<Entry>::iterator lowerBound(int number);

    std::vector<Entry> m_entries; // sorted by number
};

} // namespace ckpt
