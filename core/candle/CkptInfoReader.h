#pragma once

#include "candle/CkptInfo.h"
#include "common/Result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Reads ckpt-info.json leniently: Python's bare Infinity/-Infinity/NaN,
// "__FIRST__", "__DISABLED__", null metadata, missing keys, the oldest writer's
// key names (save_best_stat, checksum_model, ...); unknown keys kept in `raw`.
// An empty, truncated or garbage file is an Error naming the file and the
// position (line:column) where parsing stopped.
class CkptInfoReader
{
public:
    static Result<CkptInfo> readFile(const std::filesystem::path& path);
    // `origin` names the text's file in error messages.
    static Result<CkptInfo> parse(std::string_view text, std::string_view origin);
    // A number as writers spell it, bare or quoted: Python's Infinity/inf/NaN too.
    static std::optional<double> numberFromText(std::string_view text);

    // Why a "model_file" value must not be followed, or nullopt when it names a
    // file inside its epoch directory. Absolute paths and ".." components point
    // elsewhere (a hostile or hand-edited file): scan, verify, inspect and diff
    // report them and never open what they name.
    static std::optional<std::string> modelFileProblem(std::string_view modelFile);
};

} // namespace ckpt
