#pragma once

#include "model/Epoch.h"

#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Reads one Lightning .ckpt file into the neutral Epoch: its name's epoch,
// step and metrics, its size and identity, and whether torch.save finished it
// (a zip ends with its end-of-central-directory record; one 22-byte read, more
// only when a zip comment follows it).
class LightningEpochReader
{
public:
    // `root`: the run root; `relDir`: the folder of the file relative to it
    // ("checkpoints", or "" for a bare folder). nullopt when the file is gone,
    // is not named like an epoch, or is not a regular file (behind a symlink too).
    static std::optional<Epoch> read(const std::string& root, const std::string& relDir,
                                     std::string_view name);

    // Does the regular file open at `fd` (of `size` bytes) end like a complete zip?
    static bool hasCentralDirectory(int fd, std::uint64_t size);
};

} // namespace ckpt
