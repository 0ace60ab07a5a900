#pragma once

#include "config/HyperValue.h"
#include "config/ParamSet.h"

#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// One difference between two parameter sets.
struct ParamChange
{
    enum class Kind
    {
        Added,   // only in the second set
        Removed, // only in the first set
        Changed  // in both, not equivalent
    };
    Kind kind = Kind::Changed;
    std::string section; // the second set's section when the key is there
    std::string key;
    std::optional<HyperValue> before;
    std::optional<HyperValue> after;
    int lineBefore = 0;
    int lineAfter = 0;

    static const char* kindName(Kind kind);
};

// A typed diff: values compare as the trainer would see them
// (HyperValue::equivalent: 1e-3 == 0.001, True == true, (1, 2) == [1, 2]).
class ParamDiff
{
public:
    // Changes grouped by section (sections in the order they first appear in
    // `before`, then in `after`), keys in file order within a section.
    static std::vector<ParamChange> compare(const ParamSet& before, const ParamSet& after);
};

} // namespace ckpt
