#pragma once

#include "common/Result.h"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace ckpt {

class Layout;

// What stands at one of a run's links (<root>/last, <root>/best) right now, read from disk with
// lstat/readlink, and which epochs of the run it designates.
struct LinkState
{
    enum class Kind
    {
        Absent,
        Symlink,
        Other
    };

    std::string name;           // the layout's link name
    std::filesystem::path path; // <root>/<name>
    Kind kind = Kind::Absent;
    std::string text;                 // readlink text when a symlink
    bool resolves = false;            // the target exists
    std::optional<int> resolvedEpoch; // the target exists and is an epoch directory of this run
    std::optional<int> namedEpoch;    // the text ends in ".../epochs/<digits>"

    // Epochs the link may mean: the one it resolves to and the one its text
    // names (the same one unless the run was moved): a prune keeps both.
    std::set<int> designatedEpochs() const;
    // The text, or nullopt when there is no link (journal form).
    std::optional<std::string> textOrAbsent() const;

    static Result<LinkState> read(const std::filesystem::path& root, const Layout& layout,
                                  std::string_view name);
    // The epoch the tail of a link text names ("<epochs folder>/<epoch dir>"),
    // as the layout reads epoch directory names (CANDLE's relocation rule).
    static std::optional<int> trailingEpoch(const Layout& layout, std::string_view text);
    // One of the layout's movable links; Error naming the bad name (or saying
    // the layout has none) otherwise.
    static Status checkName(const Layout& layout, std::string_view name);
};

} // namespace ckpt
