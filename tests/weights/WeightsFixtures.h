#pragma once

#include <string>

namespace ckpt::test {

// Two weights files that differ in known ways, for the comparison widgets:
// big/kernel moved by twice its size (rel. change 2), small/kernel by 1e-4,
// same/w not at all, nanlayer/bias gained a NaN in B, onlyA/w and onlyB/w exist
// on one side only. Six tensors in all.
class WeightsFixtures
{
public:
    static void write(const std::string& fileA, const std::string& fileB);
    static constexpr int kTensors = 6;
};

} // namespace ckpt::test
