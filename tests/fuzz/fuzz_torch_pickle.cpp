// torch.save's data.pkl programs: the restricted pickle VM that lists tensors
// (persistent ids, _rebuild_tensor_v2, nested dicts) and scalars.
#include "torch/TorchPickle.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = ckpt::TorchPickle::parse(text, "fuzz.ckpt");
    if (parsed) {
        for (const auto& t : parsed->tensors)
            (void)ckpt::TorchPickle::dtypeOfStorage(t.storageType);
    }
    return 0;
}
