#include "writer/CandleCheckpoint.h"

#include "candle/CandleLayout.h"
#include "candle/CkptInfoReader.h"
#include "candle/CkptInfoWriter.h"
#include "checksum/Crc32.h"
#include "io/AtomicFile.h"
#include "json/PythonRepr.h"
#include "ops/KeepPolicy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <set>

namespace ckpt {

namespace fs = std::filesystem;
using Clock = std::chrono::system_clock;

namespace {

std::string format(const char* fmt, auto... args)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

// Python's "%f": like C's, but a NaN is "nan" whatever its sign bit.
std::string percentF(double v)
{
    return std::isnan(v) ? std::string("nan") : format("%f", v);
}

std::optional<Clock::time_point> parseLocalTimestamp(const std::string& text)
{
    std::tm tm{};
    const char* end = strptime(text.c_str(), "%Y-%m-%d %H:%M:%S", &tm);
    if (!end)
        return std::nullopt;
    tm.tm_isdst = -1;
    const std::time_t t = std::mktime(&tm);
    if (t == static_cast<std::time_t>(-1))
        return std::nullopt;
    return Clock::from_time_t(t);
}

} // namespace

CandleCheckpoint::CandleCheckpoint(CandleCheckpointOptions options)
    : m_options(std::move(options)), m_log(m_options.logPath, m_options.logTag),
      m_bestMetricLast(m_options.bestMetricLast.value_or(std::numeric_limits<double>::infinity()))
{
    std::error_code ec;
    m_cwd = fs::current_path(ec);
    const fs::path root = fs::absolute(m_options.root, ec);
    m_options.root = fs::weakly_canonical(root, ec);
    if (ec)
        m_options.root = root;
    if (m_options.timestampLast)
        m_timestampLast = parseLocalTimestamp(*m_options.timestampLast);
}

bool CandleCheckpoint::shouldSave(int epoch, int epochMax, int skipEpochs, int saveInterval,
                                  bool improved)
{
    if (saveInterval == 0 || epoch < skipEpochs)
        return false;
    if (improved || epoch == epochMax)
        return true;
    return epoch % saveInterval == 0;
}

std::optional<CandleCheckpoint::Direction> CandleCheckpoint::direction(std::string_view metric)
{
    if (metric == "loss" || metric == "val_loss" || metric == "lr")
        return Direction::Lower;
    if (metric == "accuracy" || metric == "val_accuracy")
        return Direction::Higher;
    return std::nullopt;
}

void CandleCheckpoint::log(const std::string& message) const
{
    // ckpt.log is a diary: a failure to append must not stop the training.
    (void)m_log.write(message);
}

std::string CandleCheckpoint::rel(const fs::path& p) const
{
    const fs::path r = p.lexically_relative(m_cwd);
    if (m_cwd.empty() || r.empty() || *r.begin() == "..")
        return p.string();
    return r.string();
}

Status CandleCheckpoint::initialize()
{
    std::error_code ec;
    fs::create_directories(m_options.logPath.parent_path(), ec);
    if (ec)
        return Error::at(m_options.logPath.parent_path().string(),
                         "cannot create directory: " + ec.message());
    if (Status st = m_log.write("Callback initialized."); !st)
        return st;
    if (m_options.metadata)
        log("metadata='" + *m_options.metadata + "'");
    if (m_options.saveBest)
        log("save_best_metric='" + m_options.saveBestMetric + "'");
    log("PWD: " + m_cwd.string());
    log("ckpt_directory: " + m_options.root.string());
    return {};
}

Result<std::optional<CandleCheckpoint::Restart>> CandleCheckpoint::restart()
{
    if (m_options.restartMode == RestartMode::Off)
        return std::optional<Restart>();
    const TaggedLog rlog(m_options.logPath, m_options.restartLogTag);
    const fs::path dirLast = m_options.root / "last";
    const fs::path model = dirLast / "model.h5";
    std::error_code ec;
    fs::create_directories(m_options.logPath.parent_path(), ec);
    if (!fs::exists(model, ec)) {
        if (m_options.restartMode == RestartMode::Required) {
            const std::string msg = "ckpt_restart_mode is 'required' but no checkpoint could be "
                                    "found (no " +
                                    model.string() + ")";
            (void)rlog.write(msg);
            return Error::at(model.string(), msg);
        }
        return std::optional<Restart>();
    }
    (void)rlog.write("restarting: " + rel(model));

    const fs::path jsonFile = dirLast / "ckpt-info.json";
    auto text = readFile(jsonFile);
    if (!text) {
        const std::string msg =
            "restart_json(): in: " + dirLast.string() + " model exists but not json!";
        (void)rlog.write(msg);
        return Error::at(jsonFile.string(), "model.h5 exists but ckpt-info.json cannot be read: " +
                                                text.error().message);
    }
    auto info = CkptInfoReader::parse(text.value(), jsonFile.string());
    if (!info)
        return info.error();
    (void)rlog.write("ckpt-info.json contains:");
    (void)rlog.write(PythonRepr::dumpJson(info->raw, 2));
    if (!info->epoch)
        return Error::at(jsonFile.string(), "no integer 'epoch' key: cannot restart from it");

    if (m_options.checksum) {
        const auto start = Clock::now();
        auto crc = Crc32::ofFile(model);
        if (!crc)
            return crc.error();
        const double secs = std::chrono::duration<double>(Clock::now() - start).count();
        const double mb = static_cast<double>(fs::file_size(model, ec)) / (1024.0 * 1024.0);
        (void)rlog.write(format("checksummed: %0.3f MB in %.3f seconds (%.2f MB/s).", mb, secs,
                                secs > 0 ? mb / secs : 0.0));
        const std::string computed = Crc32::toDecimal(crc.value());
        const std::string stored = info->checksum.value_or("(none)");
        if (computed != stored) {
            const std::string msg = "checksum mismatch! directory: " + dirLast.string() +
                                    ": ckpt-info.json says " + stored + ", model.h5 has " +
                                    computed;
            (void)rlog.write(msg);
            return Error::at(model.string(), msg);
        }
    }

    if (info->bestMetricLast)
        m_bestMetricLast = *info->bestMetricLast;
    Restart r;
    r.epoch = *info->epoch;
    r.modelFile = fs::canonical(model, ec);
    r.epochDir = fs::canonical(dirLast, ec);
    r.info = std::move(info.value());
    (void)rlog.write("restarting from epoch: " + std::to_string(r.epoch));
    return std::optional<Restart>(std::move(r));
}

Result<bool> CandleCheckpoint::improvedThisEpoch(int epoch, const Metrics& logs)
{
    if (!m_options.saveBest)
        return false;
    const std::string& metric = m_options.saveBestMetric;
    const auto it = logs.find(metric);
    if (it == logs.end()) {
        std::string keys;
        for (const auto& [k, v] : logs)
            keys += (keys.empty() ? "" : ", ") + k;
        return Error::at({},
                         "save_best_metric='" + metric + "' not in list of model metrics: " + keys);
    }
    const auto dir = direction(metric);
    if (!dir)
        return Error::at({}, "save_best_metric='" + metric +
                                 "' not in list of known metrics: loss, accuracy, val_loss, "
                                 "val_accuracy, lr");
    const double current = it->second;
    const char* symbol = current < m_bestMetricLast ? "<" : current > m_bestMetricLast ? ">" : "=";
    log("metrics: " + metric + ": current=" + percentF(current) + " " + symbol +
        " last=" + percentF(m_bestMetricLast));
    // +inf start value: a maximised metric never beats it (CANDLE's quirk).
    const bool improved =
        *dir == Direction::Lower ? current < m_bestMetricLast : current > m_bestMetricLast;
    if (improved) {
        m_bestMetricLast = current;
        m_epochBest = epoch;
    }
    return improved;
}

Result<bool> CandleCheckpoint::onEpochEnd(int epoch, const Metrics& logs, const ModelSaver& saver)
{
    if (m_options.saveInterval == 0)
        return false;
    if (epoch < m_options.skipEpochs) {
        log(format("model saving disabled until epoch %d", m_options.skipEpochs));
        return false;
    }
    auto improved = improvedThisEpoch(epoch, logs);
    if (!improved)
        return improved.error();
    if (!shouldSave(epoch, m_options.epochs, m_options.skipEpochs, m_options.saveInterval,
                    improved.value())) {
        log("not writing this epoch.");
        return false;
    }
    if (!improved.value() && epoch == m_options.epochs)
        log(format("writing final epoch %i ...", epoch));
    if (Status st = save(epoch, saver); !st)
        return st.error();
    return true;
}

Status CandleCheckpoint::save(int epoch, const ModelSaver& saver)
{
    const fs::path dirEpochs = m_options.root / "epochs";
    const fs::path dirThis = CandleLayout::epochDir(m_options.root, epoch);
    const fs::path dirWork = m_options.root / "work";
    std::error_code ec;
    if (fs::exists(dirThis, ec)) {
        log("remove:  '" + rel(dirThis) + "'");
        fs::remove_all(dirThis, ec);
        if (ec)
            return Error::at(dirThis.string(), "cannot remove the old epoch: " + ec.message());
    }
    fs::create_directories(dirEpochs, ec);
    if (!ec)
        fs::create_directories(dirWork, ec);
    if (ec)
        return Error::at(dirWork.string(), "cannot create directory: " + ec.message());

    const fs::path model = dirWork / "model.h5";
    log("writing model to: '" + rel(model) + "'");
    const auto start = Clock::now();
    if (Status st = saver(model); !st)
        return st;
    const double secs = std::chrono::duration<double>(Clock::now() - start).count();
    const auto bytes = fs::file_size(model, ec);
    if (ec)
        return Error::at(model.string(), "the model file was not written: " + ec.message());
    const double mb = static_cast<double>(bytes) / (1024.0 * 1024.0);
    log(format("model wrote: %0.3f MB in %0.3f seconds (%0.2f MB/s).", mb, secs,
               secs > 0 ? mb / secs : 0.0));

    if (m_options.checksum) {
        const auto cstart = Clock::now();
        auto crc = Crc32::ofFile(model);
        if (!crc)
            return crc.error();
        const double csecs = std::chrono::duration<double>(Clock::now() - cstart).count();
        log(format("checksummed: %0.3f MB in %.3f seconds (%.2f MB/s).", mb, csecs,
                   csecs > 0 ? mb / csecs : 0.0));
        m_checksum = Crc32::toDecimal(crc.value());
    } else {
        m_checksum = "__DISABLED__";
    }
    if (Status st = writeInfo(dirWork / "ckpt-info.json", epoch); !st)
        return st;

    log("rename:  '" + rel(dirWork) + "' -> '" + rel(dirThis) + "'");
    fs::rename(dirWork, dirThis, ec);
    if (ec)
        return Error::at(dirThis.string(),
                         "cannot rename " + dirWork.string() + ": " + ec.message());
    std::erase(m_epochs, epoch);
    m_epochs.push_back(epoch);
    std::sort(m_epochs.begin(), m_epochs.end());
    if (m_epochBest == epoch)
        if (Status st = relink(dirThis, m_options.root / "best"); !st)
            return st;
    if (Status st = relink(dirThis, m_options.root / "last"); !st)
        return st;
    return prune(epoch);
}

Status CandleCheckpoint::writeInfo(const fs::path& file, int epoch)
{
    const auto now = Clock::now();
    CkptInfo info;
    info.epoch = epoch;
    if (m_options.saveBest)
        info.saveBestMetric = m_options.saveBestMetric;
    info.bestMetricLast = m_bestMetricLast;
    info.modelFile = "model.h5";
    info.checksum = m_checksum;
    info.timestamp = TaggedLog::localTimestamp(now);
    if (m_timestampLast) {
        // timedelta.total_seconds(): whole microseconds / 1e6
        const auto us =
            std::chrono::duration_cast<std::chrono::microseconds>(now - *m_timestampLast);
        info.timeElapsed = static_cast<double>(us.count()) / 1e6;
    } else {
        info.firstSave = true;
    }
    m_timestampLast = now;
    info.metadata = m_options.metadata;
    return writeFileAtomically(file, CkptInfoWriter::toJson(info) + "\n");
}

Status CandleCheckpoint::relink(const fs::path& target, const fs::path& link)
{
    log("linking: '" + rel(link) + "' -> '" + rel(target) + "'");
    return replaceSymlink(link, target);
}

Status CandleCheckpoint::prune(int epochNow)
{
    const KeepPolicy policy{m_options.keepMode, m_options.keepLimit};
    std::set<int> protectedEpochs{epochNow};
    if (m_epochBest > 0)
        protectedEpochs.insert(m_epochBest);
    for (int epoch : policy.toDelete(m_epochs, protectedEpochs)) {
        const fs::path dir = CandleLayout::epochDir(m_options.root, epoch);
        std::error_code ec;
        if (fs::exists(dir, ec)) {
            log("removing: '" + rel(dir) + "'");
            fs::remove_all(dir, ec);
            if (ec)
                return Error::at(dir.string(), "cannot remove: " + ec.message());
        } else {
            log(format("checkpoint for epoch=%i disappeared!", epoch));
        }
        std::erase(m_epochs, epoch);
    }
    return {};
}

Status CandleCheckpoint::reportFinal()
{
    std::string list = "[";
    for (std::size_t i = 0; i < m_epochs.size(); ++i)
        list += (i ? ", " : "") + std::to_string(m_epochs[i]);
    list += "]";
    log("checkpoints kept: " + std::to_string(m_epochs.size()));
    log("checkpoints list: " + list);
    return {};
}

} // namespace ckpt
