#include "json/DoubleText.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

namespace ckpt {

namespace {

// Direct-mapped by a hash of the value's bits. A slot is empty while its
// length is 0 (no double is written as nothing).
struct Memo
{
    static constexpr std::size_t kSlots = 4096;
    static constexpr std::size_t kText = 25; // "-2.2250738585072014e-308" and its end
    std::array<std::uint64_t, kSlots> bits{};
    std::array<std::uint8_t, kSlots> size{};
    std::array<std::array<char, kText>, kSlots> text;

    static std::size_t slot(std::uint64_t bits)
    {
        return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ULL) >> 52); // 12 bits
    }
};
static_assert(Memo::kSlots == std::size_t{1} << 12);

} // namespace

char* DoubleText::write(char* out, double value)
{
    // Made on first use: only the threads that write doubles pay its 130 KiB.
    thread_local std::unique_ptr<Memo> memo;
    if (!memo) [[unlikely]]
        memo = std::make_unique<Memo>();
    const auto bits = std::bit_cast<std::uint64_t>(value);
    const std::size_t at = Memo::slot(bits);
    if (memo->size[at] != 0 && memo->bits[at] == bits) {
        std::memcpy(out, memo->text[at].data(), Memo::kText);
        return out + memo->size[at];
    }
    char* end = nlohmann::detail::to_chars(out, out + kMaxChars, value);
    const auto size = static_cast<std::size_t>(end - out);
    if (size < Memo::kText) {
        std::memcpy(memo->text[at].data(), out, size);
        memo->bits[at] = bits;
        memo->size[at] = static_cast<std::uint8_t>(size);
    }
    return end;
}

} // namespace ckpt
