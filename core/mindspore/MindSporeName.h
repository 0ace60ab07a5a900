#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// A file name MindSpore's ModelCheckpoint writes in its folder:
// `<prefix>-<epoch>_<step>.ckpt`, `<prefix>-<epoch>_<step>_breakpoint.ckpt`
// (saved on an exception), those names with `.tmp` (being written), and
// `<prefix>-graph.meta` (once per run).
struct MindSporeName
{
    enum class Kind
    {
        Checkpoint,
        Breakpoint,
        Tmp,
        GraphMeta
    };
    Kind kind = Kind::Checkpoint;
    std::string prefix;
    int epoch = 0;                 // not for GraphMeta
    std::int64_t step = 0;         // step within the epoch, as in the name
    Kind tmpOf = Kind::Checkpoint; // for Tmp: what it will become

    static std::optional<MindSporeName> parse(std::string_view name);
    // "net_2" -> {"net", 2}; "net" -> {"net", 0}: a second run in the same
    // folder gets the prefix "<prefix>_1", a third "<prefix>_2", ...
    static std::pair<std::string, int> runOf(const std::string& prefix);
};

} // namespace ckpt
