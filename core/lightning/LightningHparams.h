#pragma once

#include "common/Result.h"
#include "model/KeyValues.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ckpt {

// Lightning's hparams.yaml (save_hyperparameters), read without a YAML
// library: top-level `key: value` lines with scalar values only. Values are
// kept as JSON text (numbers and booleans as such, null for `null`/`~`/empty,
// everything else a string). A nested mapping, a list, a multi-line value or a
// Python-object tag is not read: it becomes a note naming the line.
class LightningHparams
{
public:
    struct Parsed
    {
        KeyValues values;
        std::vector<std::string> notes;                 // "<path>:<line>: ... not read"
        std::vector<std::pair<std::string, int>> lines; // each key's 1-based line

        int lineOf(std::string_view key) const;
    };

    // Error when the file cannot be read (missing, not regular, over 4 MiB).
    static Result<Parsed> read(const std::string& path);
    static Parsed parse(const std::string& text, const std::string& path);
};

} // namespace ckpt
