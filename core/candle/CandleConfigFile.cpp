#include "candle/CandleConfigFile.h"

#include "io/RegularFile.h"
#include "layout/DirReader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kConfigLimit = 1ull << 20;

bool hasConfigExtension(std::string_view name)
{
    static constexpr std::array<std::string_view, 4> kExtensions = {".ini", ".txt", ".cfg",
                                                                    ".conf"};
    return std::any_of(kExtensions.begin(), kExtensions.end(), [&](std::string_view ext) {
        return name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext;
    });
}

// A line "[Global_Params]" (any case, spaces around), as CANDLE's INI reader takes it.
bool hasGlobalParams(std::string_view text)
{
    constexpr std::string_view kSection = "[global_params]";
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())))
            line.remove_prefix(1);
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
            line.remove_suffix(1);
        if (line.size() == kSection.size() &&
            std::equal(line.begin(), line.end(), kSection.begin(), [](char a, char b) {
                return std::tolower(static_cast<unsigned char>(a)) == b;
            }))
            return true;
        start = end + 1;
    }
    return false;
}

} // namespace

fs::path CandleConfigFile::runFolderOf(const fs::path& root)
{
    fs::path r = root.lexically_normal();
    if (!r.has_filename() && r.has_parent_path()) // "RUN/ckpts/"
        r = r.parent_path();
    if (r.filename() != "ckpts")
        return r;
    const fs::path parent = r.parent_path();
    return parent.filename() == "save" ? parent.parent_path() : parent;
}

std::optional<fs::path> CandleConfigFile::besideRun(const fs::path& root)
{
    const fs::path folder = runFolderOf(root);
    auto listing = DirReader::list(folder);
    if (!listing)
        return std::nullopt;
    std::optional<fs::path> found;
    for (const DirEntry& e : listing->entries) {
        if (e.type == DirEntry::Type::Directory || !hasConfigExtension(e.name))
            continue;
        // RegularFile refuses FIFOs and devices and stops at the limit.
        auto text = RegularFile::read(folder / e.name, kConfigLimit);
        if (!text || !hasGlobalParams(*text))
            continue;
        if (found)
            return std::nullopt; // several: which one is for the user to say
        found = folder / e.name;
    }
    return found;
}

} // namespace ckpt
