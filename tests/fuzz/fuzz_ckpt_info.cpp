// ckpt-info.json: LenientJson + CkptInfoReader. Whatever parses must also
// serialise (nlohmann throws on invalid UTF-8: LenientJson promises valid text).
// The fast flat reader is checked against parse(): where it answers, every
// field and the epoch's record must be what parse() + CandleEpochInfo give.
#include "candle/CandleEpochInfo.h"
#include "candle/CkptInfoReader.h"
#include "json/LenientJson.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace {

bool same(const std::optional<double>& a, const std::optional<double>& b)
{
    if (a.has_value() != b.has_value())
        return false;
    return !a || *a == *b || (std::isnan(*a) && std::isnan(*b));
}

void checkFlatAgainstParse(std::string_view text)
{
    ckpt::CkptInfoView flat;
    ckpt::KeyValues record;
    if (!ckpt::CkptInfoReader::readFlat(text, flat, record))
        return;
    auto full = ckpt::CkptInfoReader::parse(text, "fuzz/ckpt-info.json");
    if (!full || flat.epoch != full->epoch || flat.saveBestMetric != full->saveBestMetric ||
        !same(flat.bestMetricLast, full->bestMetricLast) || flat.modelFile != full->modelFile ||
        flat.checksum != full->checksum || flat.timestamp != full->timestamp ||
        !same(flat.timeElapsed, full->timeElapsed) || flat.firstSave != full->firstSave ||
        flat.metadata != full->metadata)
        std::abort();
    ckpt::Epoch viaParse;
    ckpt::CandleEpochInfo::apply(*full, viaParse);
    ckpt::Epoch viaFlat;
    ckpt::CandleEpochInfo::apply(flat, record, viaFlat);
    if (!(viaFlat.metadata == viaParse.metadata) || viaFlat.savedAt != viaParse.savedAt ||
        viaFlat.monitored != viaParse.monitored)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto info = ckpt::CkptInfoReader::parse(text, "fuzz/ckpt-info.json");
    if (info) {
        (void)info->raw.dump();
        if (info->modelFile)
            (void)ckpt::CkptInfoReader::modelFileProblem(*info->modelFile);
    } else if (info.error().message.empty()) {
        std::abort(); // every refusal must say why
    }
    checkFlatAgainstParse(text);
    auto json = ckpt::LenientJson::parse(text, {});
    if (json)
        (void)json->dump();
    (void)ckpt::LenientJson::validUtf8(text);
    return 0;
}
