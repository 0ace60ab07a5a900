#pragma once

#include "common/Result.h"
#include "history/HistoryFragment.h"

#include <filesystem>
#include <string_view>

namespace ckpt {

// history.txt: Keras' History.history dumped as a dict of lists,
// {"loss": [...], "val_loss": [...]}. Index i is epoch i+1 of the process that
// wrote it (the builder shifts it when that process resumed later).
//
// Read with LenientJson: JSON plus Python's bare NaN/Infinity/-Infinity.
// null entries are skipped (their index still counts); keys whose value is not
// a list are ignored. A file that does not parse is one BadLog problem naming
// the file and line:column.
class HistoryTxtParser
{
public:
    static HistoryFragment parse(std::string_view text, std::string_view origin);
    static Result<HistoryFragment> parseFile(const std::filesystem::path& path);
};

} // namespace ckpt
