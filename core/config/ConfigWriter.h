#pragma once

#include "common/Result.h"
#include "config/HyperValue.h"
#include "config/ParamSet.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// One edited parameter.
struct ParamEdit
{
    std::string key;
    HyperValue value;
    // The value was written as a Python literal ('text', 3, [1, 2], True),
    // not a bare word taken as a string.
    bool literal = false;

    // "key=value": the value as a Python literal when it is one, else the word
    // as a string (as a command line hands it to CANDLE).
    static Result<ParamEdit> parse(std::string_view keyEqualsValue);
    // Refuses an edit that changes the value's type by accident (a typo such
    // as `[64, 64` turning a list into a string): numbers stay numbers (int
    // and float mix), a list, bool, None or number becomes a string only when
    // written as a quoted literal; a bool may be given as yes/no/true/false.
    // The error names the key, both values and how to mean it.
    Status checkType(const HyperValue* old) const;
    // "key=v1,v2,..." (commas inside [], (), {} or quotes do not split): one edit per value.
    static Result<std::vector<ParamEdit>> parseSweep(std::string_view keyEqualsValues);
};

// Writes an edited copy of a parameter file. The original is never touched:
// the copy is a NEW file (written aside, then hard-linked into place so that
// an existing file is never replaced). INI copies keep every comment, blank
// line and key order; only edited values are rewritten, new keys go to the end
// of the first section. JSON copies keep the key order.
class ConfigWriter
{
public:
    static Result<std::string> render(const ParamSet& original,
                                      const std::vector<ParamEdit>& edits);

    // Where a run's edited configs go: beside its records, <root>/.ckpt-studio/configs.
    static std::filesystem::path configsDir(const std::filesystem::path& runRoot)
    {
        return runRoot / ".ckpt-studio" / "configs";
    }

    // The name writeNew tries first: <dir>/<stem>-<yyyyMMdd-HHmmss><ext>, the
    // original's own stamp (an edited copy's) replaced.
    static std::filesystem::path firstChoice(const ParamSet& original,
                                             const std::filesystem::path& dir);
    // <dir>/<stem>-<yyyyMMdd-HHmmss>[-N]<ext>, <dir> created when missing.
    // `first` (a name in <dir>, e.g. the one a launch plan showed) is tried
    // before the others; empty: firstChoice(). Returns the new file's path.
    static Result<std::filesystem::path> writeNew(const ParamSet& original,
                                                  const std::vector<ParamEdit>& edits,
                                                  const std::filesystem::path& dir,
                                                  const std::filesystem::path& first = {});
};

} // namespace ckpt
