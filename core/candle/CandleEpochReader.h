#pragma once

#include "io/RegularFile.h"
#include "model/Run.h"

#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>

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
    // What read() asks of the file system first, asked ahead for a batch of
    // epochs (CandleLayout::loadRun): the system calls of many epochs made in
    // a row, then their texts parsed in a row, keep the kernel's working set
    // and the parser's each in the caches rather than evicting each other
    // once per epoch. The same calls, the same results; a ckpt-info.json that
    // is not a regular file of at most 64 KiB, and a model_file other than
    // model.h5, cost read() a call of its own again.
    struct Ahead
    {
        RegularFile::Outcome info; // reading ckpt-info.json (up to 64 KiB)
        std::string_view text;     // its text when read
        int modelErr = 0;          // fstatat of the default model file (model.h5)
        struct stat model = {};
    };
    static void readAhead(int epochsFd, std::string_view name, Ahead& ahead, std::string& text);

    // The same into `epoch` (a new one), for a caller that keeps it in place:
    // false when the directory does not exist. With `ahead`, what readAhead()
    // found for this directory is used instead of asking again.
    static bool read(int epochsFd, const std::string& epochsPath, std::string_view name, int number,
                     Epoch& epoch, const Ahead* ahead = nullptr);
};

} // namespace ckpt
