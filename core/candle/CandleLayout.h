#pragma once

#include "layout/Layout.h"

#include <string>

namespace ckpt {

// CANDLE's layout: <root>/epochs/NNN/{model.h5,ckpt-info.json}, <root>/last and
// <root>/best (absolute symlinks as CANDLE writes them), <root>/work/ while a
// save is in progress, ckpt.log and training.log at the root or above it.
class CandleLayout final : public Layout
{
public:
    std::string_view name() const override { return "candle"; }
    bool isRunRoot(const DirListing& listing) const override;
    Run loadRun(const std::filesystem::path& root) const override;
    std::optional<Epoch> loadEpoch(const Run& run, int number) const override;
    void reloadLinks(Run& run) const override;
    bool ownsSubdirectory(std::string_view name) const override;

    // "001", "012", "1000": CANDLE's "%03i".
    static std::string epochDirName(int epoch);
    static std::filesystem::path epochDir(const std::filesystem::path& root, int epoch);
    // Parses a directory name of digits; nullopt otherwise.
    static std::optional<int> parseEpochDirName(std::string_view name);

    static const CandleLayout& instance();
};

} // namespace ckpt
