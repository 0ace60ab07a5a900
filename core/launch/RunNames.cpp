#include "launch/RunNames.h"

#include "launch/LaunchPrep.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

// The names of the folders above a run's folder, nearest first ("/" last).
std::vector<std::string> ancestors(const std::string& root)
{
    std::vector<std::string> out;
    fs::path p = LaunchPrep::runFolderOf(fs::path(root)).parent_path();
    for (;;) {
        const fs::path up = p.parent_path();
        if (p.empty() || up == p) {
            out.push_back(p.empty() ? std::string() : p.string());
            return out;
        }
        out.push_back(p.filename().string());
        p = up;
    }
}

// The k-th ancestor's name, "" past the top (which tells a shallow path from a deep one).
const std::string& at(const std::vector<std::string>& names, std::size_t k)
{
    static const std::string none;
    return k < names.size() ? names[k] : none;
}

// Labels for runs sharing `name`: each takes the nearest ancestor level at
// which its folder's name is unlike every other's; when that still leaves two
// labels alike (different levels, one name), all show their parent path.
void label(const std::string& name, const std::vector<std::string>& roots,
           std::map<std::string, std::string>& out)
{
    std::vector<std::vector<std::string>> up;
    std::size_t depth = 0;
    for (const auto& r : roots) {
        up.push_back(ancestors(r));
        depth = std::max(depth, up.back().size());
    }
    std::vector<std::string> labels(roots.size());
    std::set<std::string> seen;
    bool clash = false;
    for (std::size_t i = 0; i < roots.size(); ++i) {
        for (std::size_t k = 0; k < depth && labels[i].empty(); ++k) {
            bool unlike = true;
            for (std::size_t j = 0; j < roots.size() && unlike; ++j)
                unlike = j == i || at(up[j], k) != at(up[i], k);
            if (unlike)
                labels[i] = at(up[i], k).empty() ? "/" : at(up[i], k);
        }
        clash = clash || labels[i].empty() || !seen.insert(labels[i]).second;
    }
    for (std::size_t i = 0; i < roots.size(); ++i) {
        const std::string& shown =
            clash ? LaunchPrep::runFolderOf(fs::path(roots[i])).parent_path().string() : labels[i];
        out[roots[i]] = name + " (" + shown + ")";
    }
}

} // namespace

std::map<std::string, std::string>
RunNames::distinct(const std::vector<std::pair<std::string, std::string>>& runs)
{
    std::map<std::string, std::string> out;
    std::map<std::string, std::vector<std::string>> byName;
    for (const auto& [root, name] : runs)
        if (out.emplace(root, name).second)
            byName[name].push_back(root);
    for (const auto& [name, roots] : byName)
        if (roots.size() > 1)
            label(name, roots, out);
    return out;
}

} // namespace ckpt
