#include "LightningFixture.h"

#include "TorchZipWriter.h"

#include <fstream>

namespace ckpt::test {

namespace fs = std::filesystem;

LightningFixture::LightningFixture(fs::path root, bool versionFolder)
    : m_root(std::move(root)), m_version(versionFolder)
{
    fs::create_directories(checkpointsDir());
    if (m_version && !fs::exists(m_root / "hparams.yaml"))
        writeHparams("lr: 0.001\nbatch_size: 32\nmodel_name: tiny\n");
}

fs::path LightningFixture::checkpointsDir() const
{
    return m_version ? m_root / "checkpoints" : m_root;
}

std::string LightningFixture::ckptName(int epoch, std::int64_t step)
{
    return "epoch=" + std::to_string(epoch) + "-step=" + std::to_string(step) + ".ckpt";
}

fs::path LightningFixture::addCheckpoint(int epoch, std::int64_t step)
{
    return addNamed(ckptName(epoch, step), epoch, step);
}

fs::path LightningFixture::addNamed(const std::string& name, int epoch, std::int64_t step)
{
    const fs::path path = checkpointsDir() / name;
    TorchZipWriter::write(path, TorchZipWriter::lightningCheckpoint(epoch, step));
    return path;
}

void LightningFixture::linkLast(const std::string& target)
{
    fs::remove(checkpointsDir() / "last.ckpt");
    fs::create_symlink(target, checkpointsDir() / "last.ckpt");
}

void LightningFixture::copyLast(const std::string& source)
{
    fs::remove(checkpointsDir() / "last.ckpt");
    fs::copy_file(checkpointsDir() / source, checkpointsDir() / "last.ckpt");
}

void LightningFixture::writeMetrics(const std::string& text)
{
    std::ofstream(m_root / "metrics.csv", std::ios::binary | std::ios::trunc) << text;
}

void LightningFixture::writeHparams(const std::string& text)
{
    std::ofstream(m_root / "hparams.yaml", std::ios::binary | std::ios::trunc) << text;
}

} // namespace ckpt::test
