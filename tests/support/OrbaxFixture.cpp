#include "OrbaxFixture.h"

#include "CandleFixture.h"

#include <cstdio>

namespace ckpt::test {

namespace fs = std::filesystem;

OrbaxFixture::OrbaxFixture(fs::path root, std::string prefix)
    : m_root(std::move(root)), m_prefix(std::move(prefix))
{
    fs::create_directories(m_root);
}

fs::path OrbaxFixture::stepDir(int step) const
{
    return m_root / (m_prefix + std::to_string(step));
}

std::string OrbaxFixture::metadataJson(int step, const std::map<std::string, double>& metrics,
                                       std::int64_t commitSecs)
{
    std::string m;
    for (const auto& [name, value] : metrics) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", value);
        m += (m.empty() ? "" : ", ") + ("\"" + name + "\": ") + buf;
    }
    return "{\"item_handlers\": {\"default\": "
           "\"orbax.checkpoint._src.handlers.standard_checkpoint_handler."
           "StandardCheckpointHandler\"}, \"metrics\": {" +
           m + "}, \"performance_metrics\": {}, \"init_timestamp_nsecs\": " +
           std::to_string(commitSecs * 1000000000LL - 5000000LL) +
           ", \"commit_timestamp_nsecs\": " + std::to_string(commitSecs * 1000000000LL) +
           ", \"custom_metadata\": {\"step\": " + std::to_string(step) + "}}";
}

void OrbaxFixture::addStep(int step, const std::map<std::string, double>& metrics,
                           std::int64_t commitSecs)
{
    const fs::path dir = stepDir(step);
    fs::create_directories(dir / "default" / "d");
    CandleFixture::writeText(dir / "default" / "_METADATA", "{\"tree_metadata\": {}}");
    CandleFixture::writeText(dir / "default" / "d" / "0", CandleFixture::modelContent(step, 128));
    writeMetadata(step, metadataJson(step, metrics, commitSecs));
}

fs::path OrbaxFixture::addTmp(int step, bool withTimestamp)
{
    const fs::path dir = m_root / (m_prefix + std::to_string(step) + ".orbax-checkpoint-tmp" +
                                   (withTimestamp ? "-1763800123456" : ""));
    fs::create_directories(dir / "default");
    return dir;
}

void OrbaxFixture::writeMetadata(int step, const std::string& text)
{
    fs::create_directories(stepDir(step));
    CandleFixture::writeText(stepDir(step) / "_CHECKPOINT_METADATA", text);
}

} // namespace ckpt::test
