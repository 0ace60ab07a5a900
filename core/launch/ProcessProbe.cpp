#include "launch/ProcessProbe.h"

#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>

namespace ckpt {

std::optional<ProcessProbe::Info> ProcessProbe::read(std::int64_t pid)
{
    if (pid <= 0)
        return std::nullopt;
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!in || !std::getline(in, text))
        return std::nullopt;
    // "pid (comm) state ppid pgrp ..." where comm may hold spaces and ')'.
    const auto close = text.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    std::istringstream rest(text.substr(close + 1));
    Info info;
    info.pid = pid;
    rest >> info.state >> info.ppid >> info.pgid;
    std::string skip;
    // Fields 6..21 precede starttime (22); we have read 3..5.
    for (int field = 6; field <= 21 && rest; ++field)
        rest >> skip;
    rest >> info.startTime;
    if (!rest)
        return std::nullopt;
    return info;
}

bool ProcessProbe::alive(std::int64_t pid, std::uint64_t startTime)
{
    const auto info = read(pid);
    if (!info || info->state == 'Z' || info->state == 'X')
        return false;
    return startTime == 0 || info->startTime == startTime;
}

std::vector<std::int64_t> ProcessProbe::groupMembers(std::int64_t pgid)
{
    std::vector<std::int64_t> out;
    DIR* dir = ::opendir("/proc");
    if (!dir)
        return out;
    while (const dirent* e = ::readdir(dir)) {
        char* end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (!end || *end != '\0' || pid <= 0)
            continue;
        const auto info = read(pid);
        if (info && info->pgid == pgid && info->state != 'Z' && info->state != 'X')
            out.push_back(pid);
    }
    ::closedir(dir);
    return out;
}

} // namespace ckpt
