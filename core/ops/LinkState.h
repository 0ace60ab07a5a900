#pragma once

#include "common/Result.h"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace ckpt {

// What stands at <root>/last or <root>/best right now, read from disk with
// lstat/readlink, and which epochs of the run it designates.
struct LinkState
{
    enum class Kind
    {
        Absent,
        Symlink,
        Other
    };

    std::string name;           // "last" or "best"
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

    static Result<LinkState> read(const std::filesystem::path& root, std::string_view name);
    // Trailing "epochs/<digits>" of a link text (CANDLE's relocation rule).
    static std::optional<int> trailingEpoch(std::string_view text);
    // "last" or "best"; Error naming the bad name otherwise.
    static Status checkName(std::string_view name);
};

} // namespace ckpt
