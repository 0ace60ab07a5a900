#include "candle/CkptInfoWriter.h"

#include "json/PythonRepr.h"

#include <array>
#include <string_view>

namespace ckpt {

namespace {

constexpr std::array<std::string_view, 8> kKnownKeys = {
    "epoch",    "save_best_metric", "best_metric_last", "model_file",
    "checksum", "timestamp",        "time_elapsed",     "metadata"};

std::string optionalString(const std::optional<std::string>& s)
{
    return s ? PythonRepr::jsonString(*s) : std::string("null");
}

// The Python text of one known key, or nullopt when the key is to be left out:
// a key is written when its field is set, or when nothing says the original
// file lacked it (a fresh info, or a read one that had the key).
std::optional<std::string> knownValue(const CkptInfo& info, std::string_view key)
{
    const bool fresh = info.raw.empty();
    const bool hadKey = info.raw.contains(std::string(key));
    auto unlessMissing = [&](bool isSet, std::string text) -> std::optional<std::string> {
        if (isSet || fresh || hadKey)
            return text;
        return std::nullopt;
    };
    if (key == "epoch")
        return unlessMissing(info.epoch.has_value(),
                             info.epoch ? std::to_string(*info.epoch) : "null");
    if (key == "save_best_metric")
        return unlessMissing(info.saveBestMetric.has_value(), optionalString(info.saveBestMetric));
    if (key == "best_metric_last")
        return unlessMissing(info.bestMetricLast.has_value(),
                             info.bestMetricLast ? PythonRepr::jsonFloat(*info.bestMetricLast)
                                                 : "null");
    if (key == "model_file")
        return unlessMissing(info.modelFile.has_value(), optionalString(info.modelFile));
    if (key == "checksum")
        return unlessMissing(info.checksum.has_value(), optionalString(info.checksum));
    if (key == "timestamp")
        return unlessMissing(info.timestamp.has_value(), optionalString(info.timestamp));
    if (key == "time_elapsed") {
        if (info.firstSave)
            return PythonRepr::jsonString("__FIRST__");
        return unlessMissing(info.timeElapsed.has_value(),
                             info.timeElapsed ? PythonRepr::jsonFloat(*info.timeElapsed) : "null");
    }
    // metadata: CANDLE always writes it, null when unset.
    return unlessMissing(info.metadata.has_value(), optionalString(info.metadata));
}

} // namespace

std::string CkptInfoWriter::toJson(const CkptInfo& info)
{
    std::string out = "{";
    bool first = true;
    auto append = [&](std::string_view key, const std::string& valueText) {
        if (!first)
            out += ", ";
        first = false;
        out += PythonRepr::jsonString(key);
        out += ": ";
        out += valueText;
    };
    for (std::string_view key : kKnownKeys)
        if (auto text = knownValue(info, key))
            append(key, *text);
    if (info.raw.is_object()) {
        for (const auto& [key, value] : info.raw.items()) {
            bool known = false;
            for (std::string_view k : kKnownKeys)
                known = known || k == key;
            if (!known)
                append(key, PythonRepr::dumpJson(value));
        }
    }
    out += '}';
    return out;
}

} // namespace ckpt
