#include "candle/CandleResume.h"

#include "candle/CandleConfigFile.h"
#include "candle/CandleRestartCheck.h"
#include "launch/CommandTemplate.h"

#include <charconv>
#include <cmath>

namespace ckpt {

namespace fs = std::filesystem;

namespace {
constexpr const char* kRestartMode = "ckpt_restart_mode";
}

const CandleResume& CandleResume::instance()
{
    static const CandleResume resume;
    return resume;
}

fs::path CandleResume::runFolder(const fs::path& root) const
{
    return CandleConfigFile::runFolderOf(root);
}

Result<std::vector<std::string>> CandleResume::check(const fs::path& epochPath, int epoch,
                                                     const Progress& progress) const
{
    return CandleRestartCheck::check(epochPath, epoch, progress);
}

std::map<std::string, std::string> CandleResume::values(const Run& run, const Epoch& from,
                                                        const fs::path& newRoot,
                                                        const fs::path& runFolder) const
{
    auto out = Resume::values(run, from, newRoot, runFolder);
    out["ckpt_directory"] = newRoot.string();
    out[kRestartMode] = "required";
    return out;
}

std::vector<Resume::Setting> CandleResume::requiredSettings() const
{
    // A command that passes no {ckpt_restart_mode} leaves it to the config: a
    // trainer told "off" there would start over at epoch 1 and, as CANDLE does,
    // delete the kept epochs as it reached them. The edited config says
    // "required" then, so the trainer resumes from `last` or refuses.
    return {{kRestartMode, "required"}};
}

std::vector<std::string> CandleResume::requeueArguments() const
{
    return {"--ckpt_restart_mode", "auto"};
}

std::string CandleResume::exampleCommand() const
{
    return "python3 train.py --config_file {config} --ckpt_directory {ckpt_directory} "
           "--output_dir {output_dir} --epochs {epochs} --ckpt_restart_mode {ckpt_restart_mode}";
}

std::vector<Resume::LinkRule> CandleResume::restartLinks() const
{
    return {{"last", false}, {"best", true}};
}

std::optional<int> CandleResume::linkTargetUpTo(const Run& run, std::string_view link,
                                                int epoch) const
{
    if (link == "best")
        return bestUpTo(run, epoch);
    return epoch;
}

std::optional<std::string> CandleResume::cutSource(const RunSource&, const std::string& text,
                                                   const Epoch& from) const
{
    if (!text.starts_with("epoch,"))
        return std::nullopt; // not a CSVLogger file: the fork starts without it
    return cutTrainingLog(text, from.number);
}

std::string CandleResume::demoTrainerCommand(const std::string& program)
{
    return CommandTemplate::shellQuote(program) +
           " --config_file {config} --output_dir {output_dir}"
           " --ckpt_directory {ckpt_directory} --epochs {epochs}"
           " --ckpt_restart_mode {ckpt_restart_mode}";
}

std::string CandleResume::benchmarkCommand(const std::string& script, const std::string& python)
{
    return CommandTemplate::shellQuote(python) + " " + CommandTemplate::shellQuote(script) +
           " --config_file {config} --output_dir {output_dir}"
           " --ckpt_directory {ckpt_directory} --epochs {epochs}"
           " --ckpt_restart_mode {ckpt_restart_mode}";
}

std::optional<int> CandleResume::bestUpTo(const Run& run, int epoch)
{
    std::optional<int> best;
    std::optional<double> bestValue;
    for (const Epoch& e : run.epochs) {
        if (e.number > epoch)
            break;
        const auto value = e.metric(kBestSoFar);
        if (!value || std::isnan(*value) || std::isinf(*value))
            continue;
        if (!bestValue || *value != *bestValue) {
            bestValue = value;
            best = e.number;
        }
    }
    return best;
}

std::string CandleResume::cutTrainingLog(const std::string& text, int epochs)
{
    std::string out;
    std::size_t pos = 0;
    bool header = true;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line(text.data() + pos, end - pos);
        pos = end;
        if (header) {
            out.append(line);
            header = false;
            continue;
        }
        const std::string_view field = line.substr(0, line.find(','));
        int epoch = -1;
        const auto [stop, ec] = std::from_chars(field.data(), field.data() + field.size(), epoch);
        if (ec == std::errc() && stop != field.data() && epoch >= 0 &&
            epoch < epochs) // 0-based: epoch 0 is epochs/001
            out.append(line);
    }
    return out;
}

} // namespace ckpt
