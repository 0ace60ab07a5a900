#include "lightning/LightningResume.h"

#include "lightning/LightningEpochReader.h"
#include "lightning/LightningLayout.h"

#include <charconv>
#include <set>
#include <string_view>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kVersionPrefix = "version_";

// N of a logger folder named version_N; nullopt for any other name.
std::optional<int> versionOf(const fs::path& folder)
{
    const std::string name = folder.filename().string();
    if (!name.starts_with(kVersionPrefix) || name.size() == kVersionPrefix.size())
        return std::nullopt;
    int n = 0;
    const char* first = name.data() + kVersionPrefix.size();
    const char* last = name.data() + name.size();
    const auto [stop, ec] = std::from_chars(first, last, n);
    if (ec != std::errc() || stop != last || n < 0)
        return std::nullopt;
    return n;
}

// The fields of one CSV line (Lightning's CSVLogger quotes no numbers; a
// quoted field is kept whole).
std::vector<std::string_view> fields(std::string_view line)
{
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.remove_suffix(1);
    std::vector<std::string_view> out;
    std::size_t start = 0;
    bool quoted = false;
    for (std::size_t i = 0; i <= line.size(); ++i) {
        if (i < line.size() && line[i] == '"')
            quoted = !quoted;
        if (i == line.size() || (line[i] == ',' && !quoted)) {
            out.push_back(line.substr(start, i - start));
            start = i + 1;
        }
    }
    return out;
}

} // namespace

const LightningResume& LightningResume::instance()
{
    static const LightningResume resume;
    return resume;
}

fs::path LightningResume::runFolder(const fs::path& root) const
{
    const fs::path r = plain(root);
    // <run folder>/<logger name>/version_N: the trainer's default_root_dir.
    if (versionOf(r) && r.parent_path().has_parent_path())
        return r.parent_path().parent_path();
    return r;
}

Result<std::vector<std::string>> LightningResume::check(const fs::path& epochPath, int epoch,
                                                        const Progress& progress) const
{
    if (progress.cancelled())
        return Error::at(epochPath.string(), "cancelled");
    std::vector<std::string> failures;
    const auto read = LightningEpochReader::read(epochPath.parent_path().string(), "",
                                                 epochPath.filename().string());
    if (!read) {
        failures.push_back(epochPath.string() +
                           " is gone or not a regular file: no checkpoint to resume from");
        return failures;
    }
    if (read->number != epoch)
        failures.push_back(epochPath.string() + " is named for checkpoint " +
                           std::to_string(read->number) + ", not " + std::to_string(epoch));
    for (const Problem& problem : read->problems)
        failures.push_back(problem.message);
    if (!read->files.empty() && read->files.front().present && read->files.front().bytes == 0)
        failures.push_back(epochPath.string() + " is empty");
    return failures;
}

std::map<std::string, std::string> LightningResume::values(const Run& run, const Epoch& from,
                                                           const fs::path& newRoot,
                                                           const fs::path& runFolder) const
{
    auto out = Resume::values(run, from, newRoot, runFolder);
    // Lightning names epochs 0-based: the checkpoint of epoch E has E + 1 done.
    if (const auto e = from.metadata.get("epoch")) {
        int epoch = 0;
        const auto [stop, ec] = std::from_chars(e->data(), e->data() + e->size(), epoch);
        if (ec == std::errc() && stop == e->data() + e->size()) {
            out["epoch"] = std::to_string(epoch);
            out["initial_epoch"] = std::to_string(epoch + 1);
        }
    }
    if (const auto v = versionOf(plain(newRoot)))
        out["version"] = std::to_string(*v);
    return out;
}

std::vector<std::string> LightningResume::requeueArguments() const
{
    // Lightning (and LightningCLI) resume from the newest checkpoint with "last".
    return {"--ckpt_path", "last"};
}

std::string LightningResume::exampleCommand() const
{
    return "python3 train.py --config {config} --ckpt_path {checkpoint} "
           "--default_root_dir {output_dir} --version {version}";
}

std::vector<std::string> LightningResume::editNotes(const std::vector<std::string>& keys) const
{
    static const std::set<std::string> kOptimizer = {
        "lr", "learning_rate", "weight_decay", "momentum", "betas", "beta1", "beta2", "eps"};
    std::vector<std::string> out;
    for (const std::string& key : keys)
        if (kOptimizer.contains(key))
            out.push_back(key + ": Lightning's resume restores the optimizer state saved in the "
                                "checkpoint, so the trainer goes on with the saved value; the "
                                "edit reaches the config only (and a trainer that sets it again "
                                "after loading)");
    return out;
}

std::optional<fs::path> LightningResume::restartSegment(const fs::path& root) const
{
    const fs::path r = plain(root);
    const auto version = versionOf(r);
    if (!version)
        return std::nullopt; // a bare folder of .ckpt files: in place
    // The logger's next version, as Lightning picks it: one past the newest.
    int newest = *version;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(r.parent_path(), ec))
        if (const auto v = versionOf(entry.path()); v && *v > newest)
            newest = *v;
    return r.parent_path() / (std::string(kVersionPrefix) + std::to_string(newest + 1));
}

std::string LightningResume::epochLabel(const Epoch& epoch) const
{
    // Lightning's epoch (0-based) as its names give it, not the global step.
    if (const auto e = epoch.metadata.get("epoch"))
        return std::string(*e);
    return std::to_string(epoch.number);
}

std::optional<std::string> LightningResume::cutSource(const RunSource& source,
                                                      const std::string& text,
                                                      const Epoch& from) const
{
    if (source.kind != "metrics_csv")
        return std::nullopt;
    const auto e = from.metadata.get("epoch");
    int epoch = 0;
    if (!e || std::from_chars(e->data(), e->data() + e->size(), epoch).ec != std::errc())
        return std::nullopt;
    return cutMetricsCsv(text, epoch);
}

std::string LightningResume::cutMetricsCsv(const std::string& text, int epoch)
{
    std::string out;
    std::optional<std::size_t> column;
    bool header = true;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line(text.data() + pos, end - pos);
        pos = end;
        const auto f = fields(line);
        if (header) {
            header = false;
            for (std::size_t i = 0; i < f.size(); ++i)
                if (f[i] == "epoch")
                    column = i;
            out.append(line);
            if (!column)
                return out; // no epoch column: nothing can be said to come before
            continue;
        }
        if (*column >= f.size() || f[*column].empty()) {
            out.append(line); // a step-only row (a learning-rate monitor's)
            continue;
        }
        double value = 0;
        const std::string_view v = f[*column];
        if (std::from_chars(v.data(), v.data() + v.size(), value).ec != std::errc())
            continue;
        if (value > epoch)
            break; // the rows after the checkpoint's epoch
        out.append(line);
    }
    return out;
}

} // namespace ckpt
