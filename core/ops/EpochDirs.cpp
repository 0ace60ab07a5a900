#include "ops/EpochDirs.h"

#include "layout/Layout.h"

#include <system_error>

namespace ckpt {

namespace fs = std::filesystem;

fs::path EpochDirs::folder(const fs::path& root, const Layout& layout)
{
    const std::string sub = layout.watchHints().epochsDir;
    return sub.empty() ? root : root / sub;
}

Result<std::map<int, std::vector<std::string>>> EpochDirs::list(const fs::path& root,
                                                                const Layout& layout)
{
    const fs::path epochs = folder(root, layout);
    std::map<int, std::vector<std::string>> out;
    std::error_code ec;
    fs::directory_iterator it(epochs, ec);
    if (ec)
        return Error::at(epochs.string(), "cannot list the epochs: " + ec.message());
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec)
            return Error::at(epochs.string(), "cannot list the epochs: " + ec.message());
        const std::string name = it->path().filename().string();
        const auto number = layout.epochNumberOf(name);
        std::error_code typeEc;
        if (number && it->is_directory(typeEc))
            out[*number].push_back(name);
    }
    if (ec)
        return Error::at(epochs.string(), "cannot list the epochs: " + ec.message());
    return out;
}

Result<std::string> EpochDirs::find(const fs::path& root, const Layout& layout, int epoch)
{
    auto all = list(root, layout);
    if (!all)
        return all.error();
    auto it = all->find(epoch);
    const fs::path epochs = folder(root, layout);
    if (it == all->end())
        return Error::at(epochs.string(), "epoch " + std::to_string(epoch) +
                                              " does not exist in this run (no directory for it "
                                              "under " +
                                              epochs.string() + ")");
    if (it->second.size() > 1) {
        std::string names;
        for (const auto& n : it->second)
            names += (names.empty() ? "" : ", ") + n;
        return Error::at(epochs.string(),
                         "epoch " + std::to_string(epoch) + " has more than one directory (" +
                             names + "): remove the one that is not meant before relinking");
    }
    const std::string sub = layout.watchHints().epochsDir;
    return sub.empty() ? it->second.front() : sub + "/" + it->second.front();
}

} // namespace ckpt
