#pragma once

#include "model/Epoch.h"

#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Reads one Orbax step folder: its _CHECKPOINT_METADATA into the neutral Epoch
// (metrics, commit time as savedAt, the other keys as metadata) and the
// folder's own problems (metadata missing or not JSON).
class OrbaxStepReader
{
public:
    // `root`: the run root; `name`: the step folder's name; `step`: its number.
    // nullopt when the folder does not exist (any more).
    static std::optional<Epoch> read(const std::string& root, std::string_view name, int step);
};

} // namespace ckpt
