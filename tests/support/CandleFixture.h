#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace ckpt::test {

// Builds CANDLE save directories by hand, byte by byte, so that tests control
// every detail (odd JSON, missing files, absolute links) independently of the
// core's own writer.
class CandleFixture
{
public:
    // `root` is the checkpoint root (the folder that will hold epochs/).
    explicit CandleFixture(std::filesystem::path root);

    const std::filesystem::path& root() const { return m_root; }
    std::filesystem::path epochDir(int epoch) const;

    // Writes epochs/NNN/ckpt-info.json (the exact one-line form Python's json.dump
    // writes) and, unless modelBytes is empty, a model.h5 of that many
    // deterministic bytes with its real CRC-32 as checksum.
    void addEpoch(int epoch, double bestMetricLast, std::optional<std::size_t> modelBytes = 64,
                  bool first = false);
    // Writes an arbitrary ckpt-info.json text for `epoch` (creating the directory).
    void writeInfo(int epoch, const std::string& text);
    void writeModel(int epoch, const std::string& bytes);

    // Links as CANDLE makes them: absolute targets.
    void linkAbsolute(const std::string& name, int epoch);
    void linkRelative(const std::string& name, int epoch);

    static void writeText(const std::filesystem::path& path, const std::string& text);
    // Sets the modification time of `path` (not following a symlink) `seconds` into the past.
    static void backdate(const std::filesystem::path& path, int seconds);
    static std::string readText(const std::filesystem::path& path);
    static std::string modelContent(int epoch, std::size_t bytes);
    static std::uint32_t crc32Of(const std::string& bytes);

private:
    std::filesystem::path m_root;
};

} // namespace ckpt::test
