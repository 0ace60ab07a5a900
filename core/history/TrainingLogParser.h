#pragma once

#include "common/Result.h"
#include "history/HistoryFragment.h"

#include <filesystem>
#include <string_view>

namespace ckpt {

// Keras CSVLogger's training.log: a header "epoch,<keys sorted>" then one row per
// epoch, epoch 0-based (reported here 1-based, as epochs/NNN), "NA" for a
// missing value, "nan"/"inf" as written.
//
// Segments: every header line starts a new block (a process that rewrote or
// appended with other columns); inside a block an epoch that does not move
// forward starts a new segment (a restarted process appending). A segment
// whose first row is not epoch 0 resumed at that epoch: a restart that
// overwrote the file leaves only its own epochs.
//
// The last line is ignored when it has no '\n': the writer may be mid-line.
// Bad lines become BadLog problems "file:line: ..." and parsing goes on.
class TrainingLogParser
{
public:
    static HistoryFragment parse(std::string_view text, std::string_view origin);
    static Result<HistoryFragment> parseFile(const std::filesystem::path& path);
};

} // namespace ckpt
