#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace ckpt::test {

// Builds PyTorch Lightning runs by hand: `<root>/checkpoints/*.ckpt` (torch
// zips from TorchZipWriter) beside hparams.yaml and metrics.csv, as a logger
// version folder has them; or a bare folder of .ckpt files.
class LightningFixture
{
public:
    // `versionFolder`: files go to <root>/checkpoints and hparams.yaml is written.
    explicit LightningFixture(std::filesystem::path root, bool versionFolder = true);

    const std::filesystem::path& root() const { return m_root; }
    std::filesystem::path checkpointsDir() const;

    // "epoch=<epoch>-step=<step>.ckpt" (written with the state of that epoch).
    std::filesystem::path addCheckpoint(int epoch, std::int64_t step);
    // Any name, e.g. "epoch=2-val_loss=0.12-v1.ckpt".
    std::filesystem::path addNamed(const std::string& name, int epoch, std::int64_t step);
    // last.ckpt as a relative symlink to `target` (a file name in checkpoints/).
    void linkLast(const std::string& target);
    // last.ckpt as a regular copy of `source`.
    void copyLast(const std::string& source);
    void writeMetrics(const std::string& text);
    void writeHparams(const std::string& text);

    static std::string ckptName(int epoch, std::int64_t step);

private:
    std::filesystem::path m_root;
    bool m_version = true;
};

} // namespace ckpt::test
