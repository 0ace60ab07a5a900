#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace ckpt::test {

// Builds Orbax CheckpointManager directories by hand: step folders
// `<root>/<prefix><step>` with `_CHECKPOINT_METADATA` as Orbax writes it and a
// small array payload, in-progress `*.orbax-checkpoint-tmp*` folders.
class OrbaxFixture
{
public:
    // `prefix`: "" for `<root>/<step>`, "ckpt_" for `<root>/ckpt_<step>`.
    explicit OrbaxFixture(std::filesystem::path root, std::string prefix = {});

    const std::filesystem::path& root() const { return m_root; }
    std::filesystem::path stepDir(int step) const;

    // A finished step: default/ with a payload, _CHECKPOINT_METADATA with the
    // metrics and a commit time of `commitSecs` (Unix seconds).
    void addStep(int step, const std::map<std::string, double>& metrics,
                 std::int64_t commitSecs = 1763800000);
    // An in-progress folder "<prefix><step>.orbax-checkpoint-tmp[-<ts>]".
    std::filesystem::path addTmp(int step, bool withTimestamp = true);
    // Arbitrary metadata text for a step (creating its folder).
    void writeMetadata(int step, const std::string& text);

    static std::string metadataJson(int step, const std::map<std::string, double>& metrics,
                                    std::int64_t commitSecs);

private:
    std::filesystem::path m_root;
    std::string m_prefix;
};

} // namespace ckpt::test
