#include "model/Epoch.h"

namespace ckpt {

std::string_view toString(ChecksumAlgo algo)
{
    switch (algo) {
    case ChecksumAlgo::None:
        return "none";
    case ChecksumAlgo::Disabled:
        return "disabled";
    case ChecksumAlgo::Crc32:
        return "crc32";
    }
    return "none";
}

const EpochFile* Epoch::modelFile() const
{
    for (const auto& f : files)
        if (f.model)
            return &f;
    return nullptr;
}

std::optional<std::uint64_t> Epoch::modelBytes() const
{
    const EpochFile* f = modelFile();
    return f && f->present ? std::optional<std::uint64_t>(f->bytes) : std::nullopt;
}

std::optional<double> Epoch::metric(std::string_view name) const
{
    for (const auto& m : metrics)
        if (m.name == name)
            return m.value;
    return std::nullopt;
}

void Epoch::setMetric(std::string_view name, double value)
{
    for (auto& m : metrics)
        if (m.name == name) {
            m.value = value;
            return;
        }
    metrics.push_back(EpochMetric{std::string(name), value});
}

const EpochFile* Epoch::checksummedFile() const
{
    for (const auto& f : files)
        if (f.algo != ChecksumAlgo::None)
            return &f;
    return nullptr;
}

void Epoch::clear()
{
    // Every member: a member added to Epoch is added here (tst_Epoch checks a
    // cleared epoch against a new one member by member).
    number = 0;
    firstSave = false;
    recorded = false;
    step.reset();
    elapsed.reset();
    dir.clear();
    savedAt.clear();
    monitored.clear();
    files.clear();
    metrics.clear();
    metadata.clearKeepingRoom();
    problems.clear();
}

} // namespace ckpt
