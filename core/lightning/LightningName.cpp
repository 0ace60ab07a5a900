#include "lightning/LightningName.h"

#include "layout/DirReader.h"

#include <cctype>
#include <charconv>
#include <cstdint>

namespace ckpt {

namespace {

bool startsIdentifier(std::string_view part)
{
    return !part.empty() &&
           (std::isalpha(static_cast<unsigned char>(part.front())) || part.front() == '_');
}

std::optional<std::int64_t> integer(std::string_view text)
{
    if (!DirReader::isDigits(text) || text.size() > 15)
        return std::nullopt;
    std::int64_t v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

std::optional<double> decimal(std::string_view text)
{
    double v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

} // namespace

std::optional<int> LightningName::number() const
{
    std::int64_t base = 0;
    if (step)
        base = *step;
    else if (epoch)
        base = *epoch;
    else
        return std::nullopt;
    if (base < 0 || base >= kVersionStride || version < 0 || version > kMaxVersion)
        return std::nullopt;
    return static_cast<int>(base + std::int64_t(version) * kVersionStride);
}

std::optional<LightningName> LightningName::parse(std::string_view fileName)
{
    constexpr std::string_view kExt = ".ckpt";
    if (fileName.size() <= kExt.size() || !fileName.ends_with(kExt) || fileName.front() == '.')
        return std::nullopt;
    std::string_view stem = fileName.substr(0, fileName.size() - kExt.size());

    // Split at '-', then glue back the pieces that do not start a new part: a
    // negative value ("val_loss=-0.5") or a dash inside a value.
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= stem.size(); ++i) {
        if (i != stem.size() && stem[i] != '-')
            continue;
        std::string_view piece = stem.substr(start, i - start);
        const bool newPart = startsIdentifier(piece) || parts.empty();
        if (newPart)
            parts.push_back(piece);
        else
            parts.back() =
                std::string_view(parts.back().data(), parts.back().size() + 1 + piece.size());
        start = i + 1;
    }

    LightningName out;
    if (parts.size() > 1 && parts.back().size() > 1 && parts.back().front() == 'v') {
        if (auto v = integer(parts.back().substr(1)); v && *v <= kMaxVersion) {
            out.version = static_cast<int>(*v);
            parts.pop_back();
        }
    }
    for (std::string_view part : parts) {
        const auto eq = part.find('=');
        if (eq == std::string_view::npos || eq == 0)
            continue; // a prefix such as "model"
        const std::string_view key = part.substr(0, eq);
        const std::string_view value = part.substr(eq + 1);
        if (key == "epoch") {
            auto v = integer(value);
            if (!v || *v > INT32_MAX)
                return std::nullopt;
            out.epoch = static_cast<int>(*v);
        } else if (key == "step") {
            auto v = integer(value);
            if (!v)
                return std::nullopt;
            out.step = *v;
        } else if (auto v = decimal(value)) {
            out.metrics.emplace_back(std::string(key), *v);
        }
    }
    if (!out.epoch && !out.step)
        return std::nullopt;
    return out;
}

} // namespace ckpt
