#pragma once

#include "candle/CkptInfo.h"

#include <string>

namespace ckpt {

// Writes ckpt-info.json byte for byte as CANDLE's Python writer does:
// json.dump on one line, keys in CANDLE's order, ", " and ": " separators,
// floats as Python's repr (shortest round trip), bare Infinity/NaN, null for
// absent optional values. Unknown keys from `raw` follow the known ones.
class CkptInfoWriter
{
public:
    static std::string toJson(const CkptInfo& info);
};

} // namespace ckpt
