// Keras ModelCheckpoint / Synalinks file-name templates recovered from a
// folder's listing: the input is the listing, one file name per line, tried
// as both flavours.
#include "keras/KerasTemplate.h"

#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::vector<std::string> names;
    std::string name;
    for (std::size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n') {
            names.push_back(name);
            name.clear();
        } else {
            name += c;
        }
    }
    if (!name.empty())
        names.push_back(name);
    for (auto flavor : {ckpt::KerasFlavor::Keras, ckpt::KerasFlavor::Synalinks}) {
        for (const auto& n : names)
            (void)ckpt::KerasTemplates::extensionOf(n, flavor);
        (void)ckpt::KerasTemplates::recover(names, flavor);
    }
    return 0;
}
