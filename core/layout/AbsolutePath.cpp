#include "layout/AbsolutePath.h"

namespace ckpt {

std::string AbsolutePath::normal(const std::filesystem::path& path)
{
    std::error_code ec;
    const std::filesystem::path p = path.is_absolute() ? path : std::filesystem::absolute(path, ec);
    std::string s = p.lexically_normal().string();
    while (s.size() > 1 && s.back() == '/')
        s.pop_back();
    return s;
}

} // namespace ckpt
