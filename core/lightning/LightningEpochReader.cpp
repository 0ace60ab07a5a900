#include "lightning/LightningEpochReader.h"

#include "history/LocalTime.h"
#include "io/RegularFile.h"
#include "lightning/LightningName.h"

#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ckpt {

namespace {

constexpr std::size_t kEocdSize = 22;
constexpr char kEocdSig[] = "PK\x05\x06";

std::string numberText(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

} // namespace

bool LightningEpochReader::hasCentralDirectory(int fd, std::uint64_t size)
{
    if (size < kEocdSize)
        return false;
    char tail[kEocdSize];
    if (::pread(fd, tail, kEocdSize, static_cast<off_t>(size - kEocdSize)) !=
        static_cast<ssize_t>(kEocdSize))
        return false;
    if (std::memcmp(tail, kEocdSig, 4) == 0)
        return true;
    // A zip comment (at most 65535 bytes) may follow the record: look further back.
    const std::uint64_t span = std::min<std::uint64_t>(size, kEocdSize + 65535);
    std::vector<char> buf(span);
    if (::pread(fd, buf.data(), span, static_cast<off_t>(size - span)) !=
        static_cast<ssize_t>(span))
        return false;
    for (std::size_t i = span - kEocdSize + 1; i-- > 0;) {
        if (std::memcmp(buf.data() + i, kEocdSig, 4) != 0)
            continue;
        const std::size_t commentLen = static_cast<unsigned char>(buf[i + 20]) |
                                       (static_cast<unsigned char>(buf[i + 21]) << 8);
        return i + kEocdSize + commentLen == span;
    }
    return false;
}

std::optional<Epoch> LightningEpochReader::read(const std::string& root, const std::string& relDir,
                                                std::string_view name)
{
    const auto parsed = LightningName::parse(name);
    if (!parsed || !parsed->number())
        return std::nullopt;
    const std::string dirPath = relDir.empty() ? root : root + "/" + relDir;
    const std::string path = dirPath + "/" + std::string(name);
    UniqueFd fd;
    std::uint64_t size = 0;
    struct stat st = {}; // what opening found: no second fstat
    const RegularFile::Outcome opened = RegularFile::openAt(AT_FDCWD, path.c_str(), fd, &size, &st);
    if (opened.missing() || (opened.err == 0 && !opened.refusal.empty()))
        return std::nullopt;

    Epoch epoch;
    epoch.number = *parsed->number();
    epoch.step = parsed->step;
    epoch.dir = relDir.empty() ? std::string(name) : relDir + "/" + std::string(name);
    for (const auto& [metric, value] : parsed->metrics)
        epoch.setMetric(metric, value);
    if (parsed->epoch)
        epoch.metadata.set("epoch", std::to_string(*parsed->epoch));
    if (parsed->step)
        epoch.metadata.set("step", std::to_string(*parsed->step));
    if (parsed->version)
        epoch.metadata.set("version", std::to_string(parsed->version));
    for (const auto& [metric, value] : parsed->metrics)
        epoch.metadata.set(metric, numberText(value));

    EpochFile file;
    file.name = path;
    file.model = true;
    if (opened.err != 0) {
        epoch.files.push_back(std::move(file));
        epoch.problems.push_back(Problem{ProblemKind::Unreadable,
                                         "cannot read " + opened.message(path) +
                                             ": check the permissions of the checkpoint file.",
                                         path, epoch.number});
        return epoch;
    }
    file.present = true;
    file.bytes = size;
    file.inode = st.st_ino;
    file.mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    epoch.savedAt = LocalTime::formatSeconds(st.st_mtim.tv_sec);
    epoch.files.push_back(std::move(file));
    if (hasCentralDirectory(fd.get(), size)) {
        epoch.recorded = true;
    } else {
        epoch.problems.push_back(Problem{
            ProblemKind::InterruptedSave,
            path + " is not a complete torch zip (no central directory at its end): it is being "
                   "written, or its save was interrupted; it is not a finished checkpoint. If no "
                   "training is running, delete it.",
            path, epoch.number});
    }
    epoch.metadata.shrinkToFit();
    return epoch;
}

} // namespace ckpt
