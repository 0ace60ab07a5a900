#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Numbers as Python and Keras write them: "0.5", "1e-05", "nan", "inf", "-inf",
// JSON's "NaN"/"Infinity" and a leading '+'. Surrounding blanks are ignored.
class NumberText
{
public:
    static std::optional<double> toDouble(std::string_view text);
    // Integers; also "12.0" (pandas-written epochs), but not "12.5".
    static std::optional<int> toInt(std::string_view text);
    // Shortest text that reads back to the same double; "nan", "inf", "-inf".
    static std::string format(double value);
    static std::string_view trim(std::string_view text);
};

} // namespace ckpt
