// Python literals as INI values and command-line words: 'str', [1, 2.5], True, None, 1e-3.
#include "config/HyperValue.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto value = ckpt::HyperValue::parseLiteral(text);
    if (value)
        (void)value->pythonLiteral();
    const auto word = ckpt::HyperValue::fromWord(text);
    (void)word.pythonLiteral();
    (void)word.toString();
    return 0;
}
