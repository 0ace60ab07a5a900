#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ckpt {

// One JSON value as compact text, non-finite numbers as Python's json writes
// them (Infinity, -Infinity, NaN) so that LenientJson reads back what was read.
std::string jsonText(const nlohmann::ordered_json& value);

// True when `text` can stand between JSON quotes as it is: ASCII, no control
// character, no '"' or '\\'. Eight bytes at a time.
bool isPlainJsonText(std::string_view text);

} // namespace ckpt
