#pragma once

#include "candle/CkptInfo.h"
#include "common/Result.h"
#include "model/KeyValues.h"

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
    // What parse() gives for the files trainers write, without a JSON document:
    // a flat object of plain values (ASCII strings without escapes, numbers,
    // true/false/null, NaN/Infinity), no key twice. Fills `info` (views into
    // `text`, or into this thread's room for a value written anew: a checksum
    // written as a number, metadata that is not text; valid until the thread's
    // next readFlat) and `record` with every key and its value as
    // jsonText(raw[key]) writes it. False for any other text, or one parse()
    // would refuse: parse() reads and explains those. `record` is written only
    // on success (its buffer reused when it is its own and large enough).
    static bool readFlat(std::string_view text, CkptInfoView& info, KeyValues& record);
    // A number as writers spell it, bare or quoted: Python's Infinity/inf/NaN too.
    static std::optional<double> numberFromText(std::string_view text);

    // Why a "model_file" value must not be followed, or nullopt when it names a
    // file inside its epoch directory. Absolute paths and ".." components point
    // elsewhere (a hostile or hand-edited file): scan, verify, inspect and diff
    // report them and never open what they name.
    static std::optional<std::string> modelFileProblem(std::string_view modelFile);
};

} // namespace ckpt
