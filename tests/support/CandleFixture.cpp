#include "CandleFixture.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

namespace ckpt::test {

namespace fs = std::filesystem;

CandleFixture::CandleFixture(fs::path root) : m_root(std::move(root))
{
    fs::create_directories(m_root / "epochs");
}

fs::path CandleFixture::epochDir(int epoch) const
{
    char name[16];
    std::snprintf(name, sizeof name, "%03d", epoch);
    return m_root / "epochs" / name;
}

std::uint32_t CandleFixture::crc32Of(const std::string& bytes)
{
    // Bitwise reference implementation, independent of the core's CRC code.
    std::uint32_t crc = 0xffffffffu;
    for (unsigned char c : bytes) {
        crc ^= c;
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xffffffffu;
}

std::string CandleFixture::modelContent(int epoch, std::size_t bytes)
{
    std::string s(bytes, '\0');
    std::uint32_t x = 2463534242u + static_cast<std::uint32_t>(epoch);
    for (auto& c : s) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        c = static_cast<char>(x & 0xff);
    }
    return s;
}

static std::string pyFloat(double v)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "Infinity" : "-Infinity";
    std::ostringstream os;
    os.precision(17);
    os << v;
    std::string s = os.str();
    if (s.find_first_of(".eE") == std::string::npos)
        s += ".0";
    return s;
}

void CandleFixture::addEpoch(int epoch, double bestMetricLast,
                             std::optional<std::size_t> modelBytes, bool first)
{
    fs::create_directories(epochDir(epoch));
    std::string checksum;
    std::string modelKeys;
    if (modelBytes) {
        const std::string content = modelContent(epoch, *modelBytes);
        writeModel(epoch, content);
        modelKeys = "\"model_file\": \"model.h5\", \"checksum\": \"" +
                    std::to_string(crc32Of(content)) + "\", ";
    }
    char ts[32];
    std::snprintf(ts, sizeof ts, "2026-11-22 13:%02d:%02d", (epoch / 60) % 60, epoch % 60);
    const std::string elapsed = first ? "\"__FIRST__\"" : "0.5";
    writeInfo(epoch, "{\"epoch\": " + std::to_string(epoch) +
                         ", \"save_best_metric\": \"val_loss\", \"best_metric_last\": " +
                         pyFloat(bestMetricLast) + ", " + modelKeys + "\"timestamp\": \"" + ts +
                         "\", \"time_elapsed\": " + elapsed + ", \"metadata\": \"job 4242\"}");
}

void CandleFixture::writeInfo(int epoch, const std::string& text)
{
    fs::create_directories(epochDir(epoch));
    writeText(epochDir(epoch) / "ckpt-info.json", text);
}

void CandleFixture::writeModel(int epoch, const std::string& bytes)
{
    fs::create_directories(epochDir(epoch));
    writeText(epochDir(epoch) / "model.h5", bytes);
}

void CandleFixture::linkAbsolute(const std::string& name, int epoch)
{
    fs::remove(m_root / name);
    fs::create_directory_symlink(fs::absolute(epochDir(epoch)), m_root / name);
}

void CandleFixture::linkRelative(const std::string& name, int epoch)
{
    fs::remove(m_root / name);
    fs::create_directory_symlink(fs::relative(epochDir(epoch), m_root), m_root / name);
}

void CandleFixture::writeText(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
    out << text;
}

std::string CandleFixture::readText(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

void CandleFixture::backdate(const std::filesystem::path& path, int seconds)
{
    struct timespec times[2];
    ::clock_gettime(CLOCK_REALTIME, &times[0]);
    times[0].tv_sec -= seconds;
    times[1] = times[0];
    ::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW);
}

} // namespace ckpt::test
