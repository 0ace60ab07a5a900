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
// Read leniently, as Python writes it: JSON with bare NaN/Infinity/-Infinity,
// or repr() text with single quotes, nan/inf, None, True/False and numpy
// wrappers such as np.float64(0.5). null/None entries are skipped (their index
// still counts); keys whose value is not a list are ignored. A syntax error is a
// BadLog problem "file:line:column: ..."; lists completed before it are kept.
class HistoryTxtParser
{
public:
    static HistoryFragment parse(std::string_view text, std::string_view origin);
    static Result<HistoryFragment> parseFile(const std::filesystem::path& path);
};

} // namespace ckpt
