// CANDLE hyperparameter files: INI sections with Python-literal values. A parsed
// file must render back (renderWith) without trouble.
#include "config/HyperParams.h"
#include "config/IniConfig.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto config = ckpt::IniConfig::parse(text, "fuzz/config.ini");
    if (!config)
        return 0;
    ckpt::HyperParams params;
    params.applyConfig(*config);
    (void)params.getBool("ckpt_checksum", false);
    (void)params.getInt("epochs", 1);
    (void)params.getDouble("learning_rate", 0.1);
    params.set("epochs", ckpt::HyperValue::fromInt(7), ckpt::HyperParams::Source::CommandLine);
    (void)config->renderWith(params);
    return 0;
}
