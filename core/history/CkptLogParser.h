#pragma once

#include "common/Result.h"
#include "history/HistoryFragment.h"

#include <filesystem>
#include <string_view>

namespace ckpt {

// CANDLE's ckpt.log: "<YYYY-MM-DD HH:MM:SS[,mmm]> <Tag>: <message>" with tags
// CandleCheckpoint, CandleCkpt, CkptStudio and "CANDLE restart()" (the oldest
// writer's restart function, which logs before the callback of its process
// exists); continuation lines of indented JSON dumps carry no prefix and are
// skipped.
//
// Segments: "Callback initialized." starts a process; restart lines give where
// it resumed ("restarting from epoch: N", "restarting: epoch=N ..."). Epochs are
// counted per process: one epoch per "metrics:" line, per "model saving disabled
// until epoch" line (ckpt_skip_epochs), and, when save_best is off and no
// metrics line is written, per save ("writing model to:") or "not writing this
// epoch.". Epoch = resumed-from epoch + position in the process (fresh process:
// the first epoch is 1). Where the log names the epoch itself ("rename: ... ->
// .../epochs/NNN", "writing final epoch N"), that wins.
//
// Samples: "metrics: <name>: current=<v> ..." gives <name>; "model wrote: X MB in
// Y seconds (Z MB/s)." gives "write_mb_s". Timestamps become wall times.
// The last line is ignored when it has no '\n'. Lines that are neither prefixed
// nor continuation lines are BadLog problems "file:line: ...".
class CkptLogParser
{
public:
    static HistoryFragment parse(std::string_view text, std::string_view origin);
    static Result<HistoryFragment> parseFile(const std::filesystem::path& path);
};

} // namespace ckpt
