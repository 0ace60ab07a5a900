#include "orbax/OrbaxStepReader.h"

#include "history/LocalTime.h"
#include "io/AtomicFile.h"
#include "io/RegularFile.h"
#include "json/JsonText.h"
#include "json/LenientJson.h"
#include "layout/DirReader.h"
#include "orbax/OrbaxLayout.h"

#include <cerrno>
#include <cmath>
#include <fcntl.h>
#include <sys/stat.h>

namespace ckpt {

namespace {

using Json = nlohmann::ordered_json;

void readMetrics(const Json& metrics, Epoch& epoch)
{
    if (!metrics.is_object())
        return;
    for (const auto& [name, value] : metrics.items()) {
        if (value.is_number())
            epoch.setMetric(name, value.get<double>());
        else if (value.is_array() && value.size() == 1 && value.front().is_number())
            epoch.setMetric(name, value.front().get<double>()); // a 1-element array
    }
}

} // namespace

std::optional<Epoch> OrbaxStepReader::read(const std::string& root, std::string_view name, int step)
{
    const std::string dirPath = root + "/" + std::string(name);
    struct stat st = {};
    if (::stat(dirPath.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return std::nullopt;
    Epoch epoch;
    epoch.number = step;
    epoch.step = step;
    epoch.dir = std::string(name);
    const std::string metaPath = dirPath + "/" + std::string(OrbaxLayout::kMetadataName);

    std::string text;
    const RegularFile::Outcome read =
        RegularFile::readAt(AT_FDCWD, metaPath.c_str(), RegularFile::kMetadataLimit, text);
    if (read.err == ENOENT) {
        epoch.problems.push_back(Problem{
            ProblemKind::BadInfo,
            metaPath + " is missing: the step was not committed by Orbax (interrupted save, "
                       "or still being finalised); restore it or delete the step.",
            dirPath, step});
        return epoch;
    }
    if (read.err != 0) {
        epoch.problems.push_back(Problem{ProblemKind::Unreadable,
                                         "cannot read " + read.message(metaPath) +
                                             ": check the permissions of the step folder.",
                                         metaPath, step});
        return epoch;
    }
    if (!read.ok()) { // a FIFO, a device, a huge file: refused, not read
        epoch.problems.push_back(Problem{ProblemKind::BadInfo,
                                         read.message(metaPath) +
                                             ": Orbax cannot restore this step's metadata; "
                                             "replace the file or delete the step.",
                                         metaPath, step});
        return epoch;
    }
    auto parsed = LenientJson::parse(text, metaPath);
    if (!parsed || !parsed->is_object()) {
        epoch.problems.push_back(Problem{
            ProblemKind::BadInfo,
            (parsed ? metaPath + ": expected a JSON object" : parsed.error().message) +
                ": Orbax cannot restore this step's metadata; rewrite the file or delete the "
                "step.",
            metaPath, step});
        return epoch;
    }
    epoch.recorded = true;
    for (const auto& [key, value] : parsed->items()) {
        if (key == "metrics")
            readMetrics(value, epoch);
        else if (key == "commit_timestamp_nsecs" && value.is_number_integer())
            epoch.savedAt = LocalTime::formatNanoseconds(value.get<std::int64_t>());
        epoch.metadata.set(key, jsonText(value));
    }
    epoch.metadata.shrinkToFit();
    return epoch;
}

} // namespace ckpt
