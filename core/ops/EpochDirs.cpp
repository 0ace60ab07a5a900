#include "ops/EpochDirs.h"

#include "candle/CandleLayout.h"

#include <system_error>

namespace ckpt {

namespace fs = std::filesystem;

Result<std::map<int, std::vector<std::string>>> EpochDirs::list(const fs::path& root)
{
    const fs::path epochs = root / "epochs";
    std::map<int, std::vector<std::string>> out;
    std::error_code ec;
    fs::directory_iterator it(epochs, ec);
    if (ec)
        return Error::at(epochs.string(), "cannot list the epochs: " + ec.message());
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec)
            return Error::at(epochs.string(), "cannot list the epochs: " + ec.message());
        const std::string name = it->path().filename().string();
        const auto number = CandleLayout::parseEpochDirName(name);
        std::error_code typeEc;
        if (number && it->is_directory(typeEc))
            out[*number].push_back(name);
    }
    if (ec)
        return Error::at(epochs.string(), "cannot list the epochs: " + ec.message());
    return out;
}

Result<std::string> EpochDirs::find(const fs::path& root, int epoch)
{
    auto all = list(root);
    if (!all)
        return all.error();
    auto it = all->find(epoch);
    const fs::path wanted = CandleLayout::epochDir(root, epoch);
    if (it == all->end())
        return Error::at(wanted.string(), "epoch " + std::to_string(epoch) +
                                              " does not exist in this run (no directory for it "
                                              "under " +
                                              (root / "epochs").string() + ")");
    if (it->second.size() > 1) {
        std::string names;
        for (const auto& n : it->second)
            names += (names.empty() ? "" : ", ") + n;
        return Error::at((root / "epochs").string(),
                         "epoch " + std::to_string(epoch) + " has more than one directory (" +
                             names + "): remove the one that is not meant before relinking");
    }
    return "epochs/" + it->second.front();
}

} // namespace ckpt
