#include "candle/CandleEpochReader.h"

#include "candle/CandleEpochInfo.h"
#include "candle/CkptInfoReader.h"
#include "io/AtomicFile.h"
#include "io/RegularFile.h"
#include "layout/DirReader.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>

namespace ckpt {

namespace {

constexpr std::string_view kInfoName = "ckpt-info.json";
constexpr std::string_view kDefaultModel = "model.h5";

// "dir/name", NUL-terminated, for the *at() calls.
class RelativePath
{
public:
    const char* join(std::string_view dir, std::string_view name)
    {
        m_text.assign(dir).append("/").append(name);
        return m_text.c_str();
    }

private:
    std::string m_text;
};

Problem problem(ProblemKind kind, std::string message, std::string path, int epoch)
{
    return Problem{kind, std::move(message), std::move(path), epoch};
}

// Finds the model file by listing the directory: used only when there is no
// (readable) ckpt-info.json to name it. Prefers model.h5, then any other file.
std::string guessModel(int epochsFd, const std::string& rel)
{
    std::vector<DirEntry> entries;
    if (DirReader::listAt(epochsFd, rel.c_str(), entries) != 0)
        return {};
    std::string other;
    for (const auto& e : entries) {
        if (e.name == kDefaultModel)
            return e.name;
        if (e.name != kInfoName && e.name[0] != '.' && other.empty() &&
            e.type != DirEntry::Type::Directory)
            other = e.name;
    }
    return other;
}

// Stats the model and records it as the epoch's model file (present or not);
// returns errno (0 on success).
int statModel(int epochsFd, std::string_view rel, std::string_view model, Epoch& epoch,
              bool recordMissing, const CandleEpochReader::Ahead* ahead = nullptr)
{
    struct stat st = {};
    int err = 0;
    if (ahead && model == kDefaultModel) {
        st = ahead->model; // asked ahead (readAhead)
        err = ahead->modelErr;
    } else {
        // model_file is relative and stays inside the epoch (CkptInfoReader::modelFileProblem).
        RelativePath at;
        err = ::fstatat(epochsFd, at.join(rel, model), &st, 0) != 0 ? errno : 0;
    }
    if (err != 0 && !recordMissing)
        return err;
    EpochFile& file = epoch.files.emplace_back();
    file.name = model;
    file.model = true;
    file.present = err == 0;
    if (err == 0) {
        file.bytes = static_cast<std::uint64_t>(st.st_size);
        file.mtimeNs =
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        file.inode = static_cast<std::uint64_t>(st.st_ino);
    }
    return err;
}

void setChecksum(const CkptInfo& info, Epoch& epoch)
{
    if (!info.checksum)
        return;
    if (epoch.files.empty()) // checksummed but missing: verify says so
    {
        EpochFile& missing = epoch.files.emplace_back();
        missing.name = kDefaultModel;
        missing.model = true;
    }
    EpochFile& f = epoch.files.front();
    f.algo = info.checksumDisabled() ? ChecksumAlgo::Disabled : ChecksumAlgo::Crc32;
    f.checksum = *info.checksum;
}

} // namespace

std::optional<Epoch> CandleEpochReader::read(int epochsFd, const std::string& epochsPath,
                                             std::string_view name, int number)
{
    std::optional<Epoch> epoch(std::in_place);
    if (!read(epochsFd, epochsPath, name, number, *epoch))
        epoch.reset();
    return epoch;
}

void CandleEpochReader::readAhead(int epochsFd, std::string_view name, Ahead& ahead,
                                  std::string& text)
{
    // A batch keeps every text it read ahead: a file over this (not what
    // trainers write) is refused here and read by read() alone.
    constexpr std::uint64_t kAheadLimit = 64 * 1024;
    RelativePath at;
    ahead.info = RegularFile::readAt(epochsFd, at.join(name, kInfoName), kAheadLimit, text);
    ahead.text = text;
    ahead.modelErr =
        ::fstatat(epochsFd, at.join(name, kDefaultModel), &ahead.model, 0) != 0 ? errno : 0;
}

bool CandleEpochReader::read(int epochsFd, const std::string& epochsPath, std::string_view name,
                             int number, Epoch& epoch, const Ahead* ahead)
{
    epoch.number = number;
    const std::string_view rel = name;
    epoch.dir.assign("epochs/").append(rel);
    // Whole paths are for the messages of problems, which most epochs lack.
    const auto dirPath = [&] { return epochsPath + "/" + std::string(rel); };
    const auto infoPath = [&] { return dirPath() + "/" + std::string(kInfoName); };
    thread_local std::string own;
    // What readAhead() refused (too large for it, or not a regular file) is
    // read again here, to be refused or read under the real limit.
    if (ahead && !ahead->info.refusal.empty())
        ahead = nullptr;
    RegularFile::Outcome readHere;
    if (!ahead) {
        RelativePath infoRel;
        readHere = RegularFile::readAt(epochsFd, infoRel.join(rel, kInfoName),
                                       RegularFile::kMetadataLimit, own);
    }
    const RegularFile::Outcome& read = ahead ? ahead->info : readHere;
    const std::string_view text = ahead ? ahead->text : std::string_view(own);
    if (read.missing()) {
        // Either the directory is gone or it holds no ckpt-info.json.
        struct stat st = {};
        const std::string relText(rel);
        if (::fstatat(epochsFd, relText.c_str(), &st, 0) != 0 || !S_ISDIR(st.st_mode))
            return false;
        const std::string model = guessModel(epochsFd, relText);
        if (!model.empty() && statModel(epochsFd, rel, model, epoch, false, ahead) == 0) {
            epoch.problems.push_back(
                problem(ProblemKind::ModelWithoutInfo,
                        dirPath() + "/" + model +
                            " has no ckpt-info.json beside it (deleted, or the save "
                            "stopped before writing it): CANDLE cannot restart from this "
                            "epoch; restore " +
                            infoPath() + " or delete the epoch.",
                        dirPath(), number));
        } else {
            epoch.problems.push_back(problem(
                ProblemKind::BadInfo,
                dirPath() + " is an empty epoch directory (no ckpt-info.json, no model file): "
                            "delete it.",
                dirPath(), number));
        }
        return true;
    }
    if (read.err != 0) {
        epoch.problems.push_back(problem(ProblemKind::Unreadable,
                                         "cannot read " + read.message(infoPath()) +
                                             ": check the permissions of the epoch directory.",
                                         infoPath(), number));
        return true;
    }
    if (!read.ok()) {
        epoch.problems.push_back(problem(ProblemKind::BadInfo,
                                         read.message(infoPath()) +
                                             ": this epoch cannot be restarted from; replace "
                                             "it with the real ckpt-info.json or delete the epoch.",
                                         infoPath(), number));
        statModel(epochsFd, rel, kDefaultModel, epoch, false, ahead);
        return true;
    }

    auto parsed = CkptInfoReader::parse(text, infoPath());
    if (!parsed) {
        epoch.problems.push_back(problem(ProblemKind::BadInfo,
                                         parsed.error().message +
                                             ": this epoch cannot be restarted from; rewrite "
                                             "the file or delete the epoch.",
                                         infoPath(), number));
        // The model may still be there; show its size.
        statModel(epochsFd, rel, kDefaultModel, epoch, false, ahead);
        return true;
    }
    CandleEpochInfo::apply(parsed.value(), epoch);
    const CkptInfo& ci = parsed.value();

    if (ci.epoch && *ci.epoch != number) {
        epoch.problems.push_back(problem(
            ProblemKind::EpochMismatch,
            infoPath() + " says epoch " + std::to_string(*ci.epoch) + " but lives in " + dirPath() +
                ": a restart from here would resume at epoch " + std::to_string(*ci.epoch) +
                "; rename the directory or fix the \"epoch\" key.",
            infoPath(), number));
    }

    if (ci.modelFile) {
        if (auto why = CkptInfoReader::modelFileProblem(*ci.modelFile)) {
            epoch.problems.push_back(problem(
                ProblemKind::BadInfo,
                infoPath() + ": " + *why + ": this epoch cannot be verified or restarted from; " +
                    "fix the key (CANDLE writes \"model.h5\") or delete the epoch.",
                infoPath(), number));
            return true;
        }
    }
    const std::string_view model = ci.modelFile ? std::string_view(*ci.modelFile) : kDefaultModel;
    const int modelErr = statModel(epochsFd, rel, model, epoch, ci.modelFile.has_value(), ahead);
    setChecksum(ci, epoch);
    if (modelErr != 0 && ci.modelFile) {
        const std::string modelPath = dirPath() + "/" + std::string(model);
        if (modelErr == ENOENT || modelErr == ENOTDIR) {
            epoch.problems.push_back(problem(
                ProblemKind::InfoWithoutModel,
                infoPath() + " names model file \"" + std::string(model) + "\" but " + modelPath +
                    " is missing (deleted by a clean-up?): this epoch cannot be restored; "
                    "delete the epoch or put the model back.",
                modelPath, number));
        } else {
            epoch.problems.push_back(
                problem(ProblemKind::Unreadable,
                        "cannot stat " + osError(modelPath, modelErr) + ": check its permissions.",
                        modelPath, number));
        }
    }
    return true;
}

} // namespace ckpt
