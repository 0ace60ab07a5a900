#pragma once

#include "model/Run.h"

#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Reads one epochs/NNN directory: ckpt-info.json, the model file's size and the
// epoch's own problems. Works relative to an open epochs/ descriptor so a run
// of thousands of epochs costs one open+read and one fstatat per epoch; the
// directory itself is listed only when ckpt-info.json is missing.
class CandleEpochReader
{
public:
    // `epochsFd`: open descriptor of <root>/epochs; `epochsPath`: its path for
    // messages; `name`: the directory name ("012"); `number`: its value.
    // nullopt when the directory does not exist (any more).
    static std::optional<Epoch> read(int epochsFd, const std::string& epochsPath,
                                     std::string_view name, int number);
    // The same into `epoch` (a new one), for a caller that keeps it in place:
    // false when the directory does not exist.
    static bool read(int epochsFd, const std::string& epochsPath, std::string_view name, int number,
                     Epoch& epoch);
};

} // namespace ckpt
