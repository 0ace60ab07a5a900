#include "candle/CandleRestartCheck.h"

#include "candle/CkptInfoReader.h"
#include "checksum/Crc32.h"
#include "io/AtomicFile.h"
#include "io/RegularFile.h"

#include <cerrno>
#include <charconv>
#include <optional>
#include <sys/stat.h>
#include <system_error>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

std::optional<std::uint32_t> parseCrc(const std::string& text)
{
    std::uint32_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty())
        return std::nullopt;
    return value;
}

} // namespace

Result<std::vector<std::string>> CandleRestartCheck::check(const fs::path& dir, int epoch,
                                                           const Progress& progress)
{
    std::vector<std::string> failures;
    const fs::path infoPath = dir / "ckpt-info.json";
    std::optional<CkptInfo> info;
    std::error_code ec;
    if (!fs::exists(infoPath, ec)) {
        failures.push_back(infoPath.string() + ": missing (a CANDLE restart reads it)");
    } else if (auto read = CkptInfoReader::readFile(infoPath); !read) {
        failures.push_back(read.error().message);
    } else {
        info = std::move(*read);
        if (info->epoch && *info->epoch != epoch)
            failures.push_back(infoPath.string() + ": says epoch " + std::to_string(*info->epoch) +
                               ", not " + std::to_string(epoch) +
                               " (a restart would resume at the wrong epoch)");
    }

    const std::string modelName = info && info->modelFile ? *info->modelFile : "model.h5";
    if (auto why = CkptInfoReader::modelFileProblem(modelName)) {
        failures.push_back(infoPath.string() + ": " + *why);
        return failures;
    }
    const fs::path model = dir / modelName;
    struct stat st
    {};
    if (::stat(model.c_str(), &st) != 0) {
        failures.push_back(errno == ENOENT
                               ? model.string() + ": model file is missing (a restart needs it)"
                               : osError(model, errno));
        return failures;
    }
    if (!S_ISREG(st.st_mode)) {
        failures.push_back(model.string() + " is " + RegularFile::kindOf(st.st_mode) +
                           ", not a regular file");
        return failures;
    }
    if (!info || !info->checksum || info->checksumDisabled())
        return failures;
    const auto expected = parseCrc(*info->checksum);
    if (!expected) {
        failures.push_back(infoPath.string() + ": checksum \"" + *info->checksum +
                           "\" is not a CRC-32 (decimal digits expected)");
        return failures;
    }
    auto actual = Crc32::ofFile(model, progress);
    if (!actual)
        return actual.error();
    if (*actual != *expected)
        failures.push_back(model.string() + ": checksum mismatch: ckpt-info.json says " +
                           Crc32::toDecimal(*expected) + ", the file has " +
                           Crc32::toDecimal(*actual) + " (corrupt or replaced model)");
    return failures;
}

} // namespace ckpt
