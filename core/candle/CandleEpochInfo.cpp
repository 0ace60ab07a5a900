#include "candle/CandleEpochInfo.h"

#include "candle/CkptInfoReader.h"
#include "json/JsonText.h"

#include <cmath>

namespace ckpt {

namespace {

template <typename Info> void applyFields(const Info& info, Epoch& epoch)
{
    epoch.recorded = true;
    epoch.elapsed = info.timeElapsed;
    epoch.firstSave = info.firstSave;
    if (info.saveBestMetric)
        epoch.monitored = *info.saveBestMetric;
    else
        epoch.monitored.clear();
    if (info.bestMetricLast)
        epoch.setMetric(kBestSoFar, *info.bestMetricLast);
    if (info.timestamp)
        epoch.savedAt = *info.timestamp;
    else
        epoch.savedAt.clear();
}

} // namespace

void CandleEpochInfo::apply(const CkptInfo& info, Epoch& epoch)
{
    applyFields(info, epoch);
    epoch.metadata.clear();
    for (const auto& [key, value] : info.raw.items())
        epoch.metadata.set(key, jsonText(value));
    epoch.metadata.shrinkToFit();
}

std::optional<CkptInfo> CandleEpochInfo::of(const Epoch& epoch)
{
    if (!epoch.hasRecord())
        return std::nullopt;
    std::string text = "{";
    for (const auto& [key, value] : epoch.metadata) {
        if (text.size() > 1)
            text += ", ";
        text += nlohmann::json(std::string(key)).dump();
        text += ": ";
        text += value;
    }
    text += "}";
    auto info = CkptInfoReader::parse(text, epoch.dir + "/ckpt-info.json");
    if (!info)
        return std::nullopt;
    return std::move(info.value());
}

} // namespace ckpt
