#pragma once

#include "common/Result.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace ckpt {

class Layout;

// Where Ckpt Studio's changes to a run are recorded for people: the place the
// run's layout names (CANDLE: the run's own ckpt.log, so that one file tells the
// whole story of the run), in tagged lines with the tag "CkptStudio".
class AuditLog
{
public:
    static constexpr std::string_view kTag = "CkptStudio";

    AuditLog(const Layout& layout, const std::filesystem::path& runRoot);

    const std::filesystem::path& path() const { return m_path; }

    // Opens the log for appending (creating it when needed) without writing:
    // actions call it before they change anything, so that a change is never
    // made that cannot be recorded.
    Status checkWritable() const;
    Status write(std::string_view message) const;

    // "user@host" of this process, for the "by ..." part of messages.
    static std::string defaultActor();

private:
    std::filesystem::path m_path;
};

} // namespace ckpt
