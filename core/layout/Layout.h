#pragma once

#include "model/Run.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// One entry of a directory as read by readdir: enough to decide without stat().
struct DirEntry
{
    enum class Type
    {
        File,
        Directory,
        Symlink,
        Other
    };
    std::string name;
    Type type = Type::Other;
};

struct DirListing
{
    std::filesystem::path dir;
    std::vector<DirEntry> entries;

    const DirEntry* find(std::string_view name) const;
};

// A checkpoint layout (CANDLE, Lightning, Orbax, ...). Discovery walks the
// dropped folder once, and at every directory asks each layout whether that
// directory is the root of one of its runs; a layout then loads the run.
// Implementations are stateless and thread-safe.
class Layout
{
public:
    virtual ~Layout() = default;

    // Short identifier used in JSON output and the UI: "candle", ...
    virtual std::string_view name() const = 0;

    // Is `listing.dir` the root of a run of this layout? Must be cheap: it may
    // look at the listing and at most one child listing, never read files.
    virtual bool isRunRoot(const DirListing& listing) const = 0;

    // Reads the whole run below `root`: epochs, links, logs and problems.
    // Never fails as a whole: what cannot be read becomes a Problem.
    virtual Run loadRun(const std::filesystem::path& root) const = 0;

    // Re-reads a single epoch of a loaded run (for the watcher: work
    // proportional to the change). std::nullopt when the epoch is gone.
    virtual std::optional<Epoch> loadEpoch(const Run& run, int number) const = 0;

    // Re-reads the run's links (last/best) and the link problems.
    virtual void reloadLinks(Run& run) const = 0;

    // Directories below a run root that discovery must not descend into.
    virtual bool ownsSubdirectory(std::string_view name) const = 0;
};

// Every layout the core knows, CANDLE first.
const std::vector<const Layout*>& builtinLayouts();
const Layout* findLayout(std::string_view name);

} // namespace ckpt
