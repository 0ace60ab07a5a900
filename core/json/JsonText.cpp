#include "json/JsonText.h"

#include <cmath>

namespace ckpt {

std::string jsonText(const nlohmann::ordered_json& value)
{
    if (value.is_number_float()) {
        const double d = value.get<double>();
        if (std::isnan(d))
            return "NaN";
        if (std::isinf(d))
            return d > 0 ? "Infinity" : "-Infinity";
    }
    return value.dump();
}

} // namespace ckpt
