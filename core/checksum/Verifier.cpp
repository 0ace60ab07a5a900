#include "checksum/Verifier.h"

#include "checksum/Crc32.h"
#include "io/AtomicFile.h"
#include "io/RegularFile.h"
#include "layout/Layout.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// One file to read: its verdict and the parts still being checked.
struct FileJob
{
    EpochVerdict verdict;
    std::vector<std::uint32_t> partCrc;
    std::vector<std::uint64_t> partBytes;
    std::mutex mutex;
    int remaining = 0;
    bool failed = false;
    Clock::time_point start = Clock::time_point::max();
    Clock::time_point end = Clock::time_point::min();
};

struct Part
{
    FileJob* file = nullptr;
    int index = 0;
    std::uint64_t offset = 0;
    std::uint64_t length = 0; // CrcReader::kToEnd for the last part
};

// Shared state of one verification: the work list and the serialised progress.
class Job
{
public:
    Job(const Verifier::Options& options, const Progress& progress)
        : m_options(options), m_progress(progress)
    {}

    // `bounded`: only the first `size` bytes are checked (a checksum trailer follows).
    void add(FileJob& file, std::uint64_t size, bool bounded = false)
    {
        const std::uint64_t split = m_options.splitBytes;
        const int parts =
            split == 0 || size <= split ? 1 : static_cast<int>((size + split - 1) / split);
        file.partCrc.assign(static_cast<std::size_t>(parts), 0);
        file.partBytes.assign(static_cast<std::size_t>(parts), 0);
        file.remaining = parts;
        for (int i = 0; i < parts; ++i) {
            const std::uint64_t offset = static_cast<std::uint64_t>(i) * split;
            // The last part reads to the end, so a file that grew is checked whole.
            const std::uint64_t length =
                i + 1 == parts ? (bounded ? size - offset : CrcReader::kToEnd) : split;
            m_parts.push_back({&file, i, offset, length});
        }
        m_total += size;
    }

    bool run()
    {
        report(m_progress.hasCallback(), "");
        int threads = m_options.threads > 0 ? m_options.threads
                                            : static_cast<int>(std::thread::hardware_concurrency());
        threads = std::clamp(threads, 1, std::max(1, static_cast<int>(m_parts.size())));
        if (threads == 1) {
            work();
        } else {
            std::vector<std::jthread> pool;
            for (int i = 0; i < threads; ++i)
                pool.emplace_back([this] { work(); });
        }
        if (m_cancelled.load())
            return false;
        const std::uint64_t done = m_done.load();
        if (m_progress.hasCallback())
            m_progress.report({done, std::max(done, m_total), "bytes", ""});
        return true;
    }

private:
    void work()
    {
        CrcReader reader(m_options.reader);
        for (;;) {
            if (m_progress.cancelled())
                m_cancelled = true;
            if (m_cancelled.load())
                return;
            const std::size_t i = m_next.fetch_add(1);
            if (i >= m_parts.size())
                return;
            runPart(reader, m_parts[i]);
        }
    }

    void runPart(CrcReader& reader, const Part& part)
    {
        FileJob& file = *part.file;
        {
            std::lock_guard lock(file.mutex);
            if (file.failed) {
                finishPart(file, part, Clock::now());
                return;
            }
            file.start = std::min(file.start, Clock::now());
        }
        const fs::path path = file.verdict.path;
        const std::string current = path.string();
        // Never blocks: the file may have been replaced by a FIFO since planning.
        UniqueFd opened;
        const RegularFile::Outcome open = RegularFile::openAt(AT_FDCWD, path.c_str(), opened);
        if (!open.ok()) {
            std::lock_guard lock(file.mutex);
            // A file deleted between planning and reading is missing, not broken.
            fail(file, open.err == ENOENT ? VerifyStatus::Missing : VerifyStatus::Error,
                 open.err == ENOENT ? current + ": model file is missing" : open.message(current));
            finishPart(file, part, Clock::now());
            return;
        }
        const int fd = opened.release();
        const off_t adviseLen =
            part.length == CrcReader::kToEnd ? 0 : static_cast<off_t>(part.length);
        ::posix_fadvise(fd, static_cast<off_t>(part.offset), adviseLen, POSIX_FADV_SEQUENTIAL);
        auto outcome =
            reader.crcRange(fd, path, part.offset, part.length,
                            [&](std::uint64_t bytes) { return onBlock(bytes, current); });
        ::close(fd);
        std::lock_guard lock(file.mutex);
        if (outcome) {
            file.partCrc[static_cast<std::size_t>(part.index)] = outcome->crc;
            file.partBytes[static_cast<std::size_t>(part.index)] = outcome->bytes;
        } else {
            fail(file, VerifyStatus::Error, outcome.error().message);
        }
        finishPart(file, part, Clock::now());
    }

    // Called with file.mutex held; the first failure of a file is the one kept.
    static void fail(FileJob& file, VerifyStatus status, std::string message)
    {
        if (file.failed)
            return;
        file.failed = true;
        file.verdict.status = status;
        file.verdict.message = std::move(message);
    }

    // Called with file.mutex held. The last part to finish joins the CRCs.
    static void finishPart(FileJob& file, const Part&, Clock::time_point now)
    {
        file.end = std::max(file.end, now);
        if (--file.remaining > 0)
            return;
        EpochVerdict& v = file.verdict;
        if (file.start != Clock::time_point::max())
            v.seconds = std::chrono::duration<double>(file.end - file.start).count();
        std::uint64_t bytes = 0;
        std::uint32_t crc = 0;
        for (std::size_t i = 0; i < file.partCrc.size(); ++i) {
            crc =
                i == 0 ? file.partCrc[i] : Crc32::combine(crc, file.partCrc[i], file.partBytes[i]);
            bytes += file.partBytes[i];
        }
        v.bytes = bytes;
        if (!file.failed)
            Verifier::judge(v, crc);
    }

    bool onBlock(std::uint64_t bytes, const std::string& current)
    {
        if (m_progress.cancelled() || m_cancelled.load()) {
            m_cancelled = true;
            return false;
        }
        m_done.fetch_add(bytes);
        report(false, current);
        return true;
    }

    // Serialises the callback: a worker that finds it busy skips its update.
    void report(bool force, const std::string& current)
    {
        if (!m_progress.hasCallback())
            return;
        std::unique_lock lock(m_reportMutex, std::try_to_lock);
        if (!lock.owns_lock())
            return;
        // Read under the lock so reported values never go backwards.
        const std::uint64_t done = m_done.load();
        const auto now = Clock::now();
        // At most one update per percent or per 20 ms: a fast disk must not flood
        // a GUI with queued signals, a slow one must still show movement.
        if (!force && now - m_lastReport < std::chrono::milliseconds(20) &&
            done - m_lastDone < m_total / 100)
            return;
        m_lastReport = now;
        m_lastDone = done;
        m_progress.report({done, std::max(done, m_total), "bytes", current});
    }

    const Verifier::Options& m_options;
    const Progress& m_progress;
    std::vector<Part> m_parts;
    std::uint64_t m_total = 0;
    std::atomic<std::size_t> m_next{0};
    std::atomic<std::uint64_t> m_done{0};
    std::atomic_bool m_cancelled{false};
    std::mutex m_reportMutex;
    Clock::time_point m_lastReport{};
    std::uint64_t m_lastDone = 0;
};

struct Item
{
    std::size_t run = 0;
    const Run* runPtr = nullptr;
    const Epoch* epoch = nullptr;
};

Result<VerifyReport> verifyItems(const std::vector<const Run*>& runs,
                                 const std::vector<Item>& items, const Verifier::Options& options,
                                 const Progress& progress)
{
    const auto started = Clock::now();
    Job job(options, progress);
    std::vector<std::unique_ptr<FileJob>> files;
    files.reserve(items.size());
    for (const Item& item : items) {
        auto file = std::make_unique<FileJob>();
        if (auto known = Verifier::precheck(*item.runPtr, *item.epoch)) {
            file->verdict = std::move(*known);
        } else {
            const EpochFile& checked = *item.epoch->checksummedFile();
            file->verdict.epoch = item.epoch->number;
            file->verdict.root = item.runPtr->root;
            file->verdict.path = item.runPtr->pathOf(*item.epoch, checked);
            file->verdict.expected = checked.checksum;
            struct stat st
            {};
            const fs::path path = file->verdict.path;
            if (::stat(path.c_str(), &st) != 0) {
                const int err = errno;
                file->verdict.status = err == ENOENT ? VerifyStatus::Missing : VerifyStatus::Error;
                file->verdict.message =
                    err == ENOENT ? path.string() + ": model file is missing" : osError(path, err);
            } else if (!S_ISREG(st.st_mode)) {
                file->verdict.status = VerifyStatus::Error;
                file->verdict.message = path.string() + " is " + RegularFile::kindOf(st.st_mode) +
                                        ", not a regular file: not read";
            } else if (checked.checkedBytes > static_cast<std::uint64_t>(st.st_size)) {
                file->verdict.status = VerifyStatus::Error;
                file->verdict.message = path.string() + " is " + std::to_string(st.st_size) +
                                        " bytes, shorter than the " +
                                        std::to_string(checked.checkedBytes) +
                                        " its checksum covers: it changed since it was listed";
            } else if (checked.checkedBytes > 0) {
                job.add(*file, checked.checkedBytes, true);
            } else {
                job.add(*file, static_cast<std::uint64_t>(st.st_size));
            }
        }
        files.push_back(std::move(file));
    }
    if (!job.run())
        return Error{"cancelled", ""};

    VerifyReport report;
    report.runs.resize(runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r)
        report.runs[r].root = runs[r]->root;
    for (std::size_t i = 0; i < items.size(); ++i) {
        EpochVerdict& v = files[i]->verdict;
        report.totals.bytes += v.bytes;
        ++report.totals.counts[static_cast<std::size_t>(v.status)];
        report.runs[items[i].run].epochs.push_back(std::move(v));
    }
    report.totals.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    return report;
}

} // namespace

std::optional<EpochVerdict> Verifier::precheck(const Run& run, const Epoch& epoch)
{
    EpochVerdict v;
    v.epoch = epoch.number;
    v.root = run.root;
    const fs::path dir = run.pathOf(epoch);
    const Layout* layout = layoutOf(run);
    const EpochFile* file = epoch.checksummedFile();
    if (!file)
        file = epoch.modelFile();
    v.path = file ? run.pathOf(epoch, *file) : dir.string();
    if (!layout || !layout->recordsChecksums()) {
        v.status = VerifyStatus::NoChecksum;
        v.message = dir.string() + ": no checksum (" + run.layout +
                    " checkpoints record none; nothing to compare with)";
        return v;
    }
    const fs::path record = dir / std::string(layout->recordName());
    if (!epoch.hasRecord()) {
        v.status = VerifyStatus::BadInfo;
        auto bad = std::find_if(epoch.problems.begin(), epoch.problems.end(),
                                [](const Problem& p) { return p.kind == ProblemKind::BadInfo; });
        v.message = bad != epoch.problems.end() ? bad->message
                                                : record.string() + ": missing or unreadable";
        return v;
    }
    // A record the layout refused (CANDLE: a model_file outside the epoch) names no file to trust.
    if (auto bad = std::find_if(epoch.problems.begin(), epoch.problems.end(),
                                [](const Problem& p) { return p.kind == ProblemKind::BadInfo; });
        bad != epoch.problems.end()) {
        v.status = VerifyStatus::BadInfo;
        v.path = bad->path.empty() ? record.string() : bad->path;
        v.message = bad->message;
        return v;
    }
    if (file && file->algo == ChecksumAlgo::Disabled) {
        v.status = VerifyStatus::Disabled;
        v.expected = file->checksum;
        v.message = record.string() +
                    ": checksum was disabled when this epoch was saved (ckpt_checksum off)";
        return v;
    }
    if (!file || file->algo == ChecksumAlgo::None) {
        v.status = VerifyStatus::NoChecksum;
        v.message = v.path + ": no checksum recorded (its " + std::string(layout->recordName()) +
                    " is absent or holds none): nothing to verify against";
        return v;
    }
    v.expected = file->checksum;
    // The loader records a named but absent file as not present: confirm on disk.
    struct stat st
    {};
    if (!file->present && ::stat(v.path.c_str(), &st) != 0) {
        v.status = VerifyStatus::Missing;
        v.message = v.path + ": model file is missing";
        return v;
    }
    return std::nullopt;
}

bool Verifier::recordsNoChecksum(const Run& run, const Epoch& epoch)
{
    const Layout* layout = layoutOf(run);
    if (!layout || !layout->recordsChecksums())
        return true;
    if (!epoch.hasRecord() ||
        std::any_of(epoch.problems.begin(), epoch.problems.end(),
                    [](const Problem& p) { return p.kind == ProblemKind::BadInfo; }))
        return false;
    const EpochFile* file = epoch.checksummedFile();
    if (!file)
        file = epoch.modelFile();
    return !file || file->algo == ChecksumAlgo::None;
}

void Verifier::judge(EpochVerdict& verdict, std::uint32_t actual)
{
    verdict.actual = Crc32::toDecimal(actual);
    std::string_view text = verdict.expected;
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    std::uint64_t recorded = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), recorded);
    const bool numeric = !text.empty() && ec == std::errc{} && end == text.data() + text.size() &&
                         recorded <= 0xffffffffu;
    if (numeric && recorded == actual) {
        verdict.status = VerifyStatus::Ok;
        verdict.message.clear();
        return;
    }
    verdict.status = VerifyStatus::Mismatch;
    verdict.message = numeric ? verdict.path + ": CRC-32 is " + verdict.actual +
                                    " but ckpt-info.json records " + verdict.expected
                              : verdict.path + ": recorded checksum \"" + verdict.expected +
                                    "\" is not a decimal CRC-32 (computed " + verdict.actual + ")";
}

Result<EpochVerdict> Verifier::verifyEpoch(const Run& run, const Epoch& epoch,
                                           const Options& options, const Progress& progress)
{
    auto report = verifyItems({&run}, {Item{0, &run, &epoch}}, options, progress);
    if (!report)
        return report.error();
    return std::move(report->runs.front().epochs.front());
}

Result<VerifyReport> Verifier::verifyRun(const Run& run, const Options& options,
                                         const Progress& progress)
{
    std::vector<Item> items;
    for (const Epoch& e : run.epochs)
        items.push_back({0, &run, &e});
    return verifyItems({&run}, items, options, progress);
}

Result<VerifyReport> Verifier::verifyRuns(const std::vector<Run>& runs, const Options& options,
                                          const Progress& progress)
{
    std::vector<const Run*> runPtrs;
    std::vector<Item> items;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        runPtrs.push_back(&runs[r]);
        for (const Epoch& e : runs[r].epochs)
            items.push_back({r, &runs[r], &e});
    }
    return verifyItems(runPtrs, items, options, progress);
}

} // namespace ckpt
