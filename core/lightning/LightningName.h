#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ckpt {

// What a Lightning ModelCheckpoint file name tells: the `name=value` parts of
// its template ("epoch=3-step=100", "epoch=2-val_loss=0.12", an optional
// prefix "model-epoch=3"), and the "-vN" Lightning appends when the name was
// taken already.
struct LightningName
{
    std::optional<int> epoch;                            // 0-based, as Lightning names it
    std::optional<std::int64_t> step;                    // the global step, when named
    int version = 0;                                     // N of a "-vN" suffix; 0 without one
    std::vector<std::pair<std::string, double>> metrics; // the other numeric parts

    // Epoch::number of the file: the step when named (unique and growing within
    // a run even with several saves per epoch), else the epoch; a "-vN" file
    // gets N * kVersionStride added so that it stays distinct from the file it
    // collided with. nullopt when it would not fit.
    std::optional<int> number() const;

    static constexpr int kVersionStride = 100'000'000;
    static constexpr int kMaxVersion = 20;

    // Parses "<stem>.ckpt"; nullopt for a name that is no epoch checkpoint
    // (last.ckpt, a name without epoch= or step=, another extension).
    static std::optional<LightningName> parse(std::string_view fileName);
};

} // namespace ckpt
