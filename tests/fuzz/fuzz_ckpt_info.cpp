// ckpt-info.json: LenientJson + CkptInfoReader + CandleEpochInfo. Whatever
// parses must also serialise (nlohmann throws on invalid UTF-8: LenientJson
// promises valid text) and become an epoch's record.
#include "candle/CandleEpochInfo.h"
#include "candle/CkptInfoReader.h"
#include "json/LenientJson.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto info = ckpt::CkptInfoReader::parse(text, "fuzz/ckpt-info.json");
    if (info) {
        (void)info->raw.dump();
        if (info->modelFile)
            (void)ckpt::CkptInfoReader::modelFileProblem(*info->modelFile);
        ckpt::Epoch epoch;
        ckpt::CandleEpochInfo::apply(*info, epoch);
    } else if (info.error().message.empty()) {
        std::abort(); // every refusal must say why
    }
    auto json = ckpt::LenientJson::parse(text, {});
    if (json)
        (void)json->dump();
    (void)ckpt::LenientJson::validUtf8(text);
    return 0;
}
