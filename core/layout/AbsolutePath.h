#pragma once

#include <filesystem>
#include <string>

namespace ckpt {

// The one spelling of a directory that discovery, layouts and the watcher use
// as a key: absolute, lexically normal, no trailing '/'. Symlinks are kept as
// they are (a run reached through a link stays under the path the user gave).
class AbsolutePath
{
public:
    static std::string normal(const std::filesystem::path& path);
};

} // namespace ckpt
