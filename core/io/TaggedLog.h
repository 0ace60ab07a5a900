#pragma once

#include "common/Result.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// A log of timestamped, tagged lines: "YYYY-MM-DD HH:MM:SS,mmm <tag>: <message>"
// (CANDLE's ckpt.log format, whose writer uses the tag "CandleCheckpoint").
// Used by the writer and by the core's own audited actions (relink, prune).
class TaggedLog
{
public:
    explicit TaggedLog(std::filesystem::path path, std::string tag);

    const std::filesystem::path& path() const { return m_path; }

    // Appends one line now (local time). Multi-line messages are written as is:
    // CANDLE writes JSON dumps with unprefixed continuation lines.
    Status write(std::string_view message) const;

    static std::string formatLine(std::chrono::system_clock::time_point when, std::string_view tag,
                                  std::string_view message);

    // Local time as "%Y-%m-%d %H:%M:%S" (ckpt-info.json "timestamp").
    static std::string localTimestamp(std::chrono::system_clock::time_point when);

private:
    std::filesystem::path m_path;
    std::string m_tag;
};

} // namespace ckpt
