#include "layout/Resume.h"

namespace ckpt {

std::map<std::string, std::string> Resume::values(const Run& run, const Epoch& from,
                                                  const std::filesystem::path&,
                                                  const std::filesystem::path&) const
{
    return {{"checkpoint", run.pathOf(from)},
            {"epoch", std::to_string(from.number)},
            {"initial_epoch", std::to_string(from.number)}};
}

std::optional<int> Resume::linkTargetUpTo(const Run&, std::string_view, int epoch) const
{
    return epoch;
}

std::optional<std::string> Resume::cutSource(const RunSource&, const std::string&,
                                             const Epoch&) const
{
    return std::nullopt;
}

} // namespace ckpt
