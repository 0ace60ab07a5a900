#include "layout/Resume.h"

namespace ckpt {

std::filesystem::path Resume::plain(const std::filesystem::path& root)
{
    std::filesystem::path r = root.lexically_normal();
    if (!r.has_filename() && r.has_parent_path())
        r = r.parent_path();
    return r;
}

std::map<std::string, std::string> Resume::values(const Run& run, const Epoch& from,
                                                  const std::filesystem::path&,
                                                  const std::filesystem::path&) const
{
    (void)run;
    std::map<std::string, std::string> out{{"epoch", std::to_string(from.number)},
                                           {"initial_epoch", std::to_string(from.number)}};
    if (from.step)
        out["step"] = std::to_string(*from.step);
    return out;
}

std::optional<int> Resume::linkTargetUpTo(const Run&, std::string_view, int epoch) const
{
    return epoch;
}

std::string Resume::epochLabel(const Epoch& epoch) const
{
    return std::filesystem::path(epoch.dir).filename().string();
}

std::optional<std::string> Resume::cutSource(const RunSource&, const std::string&,
                                             const Epoch&) const
{
    return std::nullopt;
}

} // namespace ckpt
