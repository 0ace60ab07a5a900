#include "launch/SlurmOptions.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace ckpt {

namespace {

bool allDigits(const std::string& s)
{
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const auto at = s.find(sep, start);
        parts.push_back(s.substr(start, at - start));
        if (at == std::string::npos)
            return parts;
        start = at + 1;
    }
}

bool hasSpace(const std::string& s)
{
    return std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

} // namespace

bool SlurmOptions::isValidTime(const std::string& time)
{
    std::string clock = time;
    bool days = false;
    if (const auto dash = time.find('-'); dash != std::string::npos) {
        if (!allDigits(time.substr(0, dash)))
            return false;
        clock = time.substr(dash + 1);
        days = true;
    }
    const auto parts = split(clock, ':');
    if (parts.size() > 3 || !std::all_of(parts.begin(), parts.end(), allDigits))
        return false;
    // Without days: M, M:S, H:M:S. With days: D-H, D-H:M, D-H:M:S.
    if (parts.size() == 3 || (days && parts.size() >= 2))
        for (std::size_t i = 1; i < parts.size(); ++i)
            if (std::strtol(parts[i].c_str(), nullptr, 10) > 59)
                return false;
    if (!days && parts.size() == 2 && std::strtol(parts[1].c_str(), nullptr, 10) > 59)
        return false;
    return true;
}

bool SlurmOptions::isValidMemory(const std::string& memory)
{
    if (memory.empty())
        return false;
    std::string digits = memory;
    if (const char last =
            static_cast<char>(std::toupper(static_cast<unsigned char>(memory.back())));
        last == 'K' || last == 'M' || last == 'G' || last == 'T')
        digits.pop_back();
    return allDigits(digits);
}

std::vector<std::string> SlurmOptions::problems() const
{
    std::vector<std::string> out;
    if (!time.empty() && !isValidTime(time))
        out.push_back("time limit '" + time +
                      "': use minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS");
    if (!memory.empty() && !isValidMemory(memory))
        out.push_back("memory '" + memory + "': a number with K, M, G or T (4G, 500M)");
    if (hasSpace(partition))
        out.push_back("partition '" + partition + "': no spaces (several: debug,gpu)");
    if (hasSpace(account))
        out.push_back("account '" + account + "': no spaces");
    if (nodes < 1)
        out.push_back("nodes: at least 1");
    if (cpusPerTask < 0 || gpus < 0)
        out.push_back("CPUs and GPUs: 0 (the cluster's default) or more");
    if (signalGraceSeconds < 0)
        out.push_back("preemption grace: 0 seconds or more");
    for (const std::string& line : extraLines) {
        std::string option = line;
        if (option.rfind("#SBATCH", 0) == 0)
            option.erase(0, option.find_first_not_of(' ', 7));
        if (option.rfind("-", 0) != 0)
            out.push_back("extra line '" + line + "': an sbatch option (--qos=low)");
    }
    return out;
}

} // namespace ckpt
