#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ckpt {

// One JSON value as compact text, non-finite numbers as Python's json writes
// them (Infinity, -Infinity, NaN) so that LenientJson reads back what was read.
std::string jsonText(const nlohmann::ordered_json& value);

} // namespace ckpt
