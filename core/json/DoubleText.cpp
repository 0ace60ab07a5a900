#include "json/DoubleText.h"

#include <nlohmann/json.hpp>

namespace ckpt {

char* DoubleText::write(char* out, double value)
{
    return nlohmann::detail::to_chars(out, out + kMaxChars, value);
}

} // namespace ckpt
