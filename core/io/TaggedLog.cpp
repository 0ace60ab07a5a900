#include "io/TaggedLog.h"

#include "io/AtomicFile.h"

#include <ctime>

namespace ckpt {

TaggedLog::TaggedLog(std::filesystem::path path, std::string tag)
    : m_path(std::move(path)), m_tag(std::move(tag))
{}

Status TaggedLog::write(std::string_view message) const
{
    return appendLine(m_path, formatLine(std::chrono::system_clock::now(), m_tag, message));
}

std::string TaggedLog::localTimestamp(std::chrono::system_clock::time_point when)
{
    const std::time_t t = std::chrono::system_clock::to_time_t(when);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

std::string TaggedLog::formatLine(std::chrono::system_clock::time_point when, std::string_view tag,
                                  std::string_view message)
{
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count() %
        1000;
    char msbuf[8];
    std::snprintf(msbuf, sizeof msbuf, ",%03d", static_cast<int>(ms));
    std::string line = localTimestamp(when);
    line += msbuf;
    line += ' ';
    line += tag;
    line += ": ";
    line += message;
    return line;
}

} // namespace ckpt
