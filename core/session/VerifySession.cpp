#include "session/VerifySession.h"

#include "checksum/Verifier.h"
#include "jobs/JobRunner.h"

#include <QTimer>

#include <algorithm>

namespace ckpt {

VerifySession::VerifySession(QThreadPool* pool, Lookup lookup, QObject* parent)
    : QObject(parent), m_pool(pool), m_lookup(std::move(lookup)),
      m_runner(new JobRunner(this, pool)), m_storeRunner(new JobRunner(this, pool)),
      m_store(std::make_shared<VerifyStore>())
{
    connect(m_runner, &JobRunner::progress, this,
            [this](quint64 done, quint64 total, const QString&) { emit progress(done, total); });
    connect(m_storeRunner, &JobRunner::runningChanged, this, &VerifySession::busyChanged);
}

VerifySession::~VerifySession() = default;

void VerifySession::setStorePath(const QString& path)
{
    m_storePath = path;
    if (path.isEmpty())
        return;
    m_storeRunner->start<QString>(
        [store = m_store, file = path.toStdString()](const Progress&) {
            const Status st = store->load(file);
            return st ? QString() : QString::fromStdString(st.error().message);
        },
        [this](QString error) { emit storeLoaded(error); });
}

VerifySession::Verdicts VerifySession::remembered(const Run& run) const
{
    Verdicts out;
    if (m_store->size() == 0)
        return out;
    for (const Epoch& e : run.epochs) {
        if (auto entry = m_store->lookup(run, e))
            out[e.number] =
                ChecksumVerdict{stateOf(entry->status), QString::fromStdString(entry->expected),
                                QString::fromStdString(entry->actual)};
    }
    return out;
}

void VerifySession::verify(const std::map<QString, std::vector<int>>& epochs)
{
    if (isVerifying())
        return;
    m_queue.assign(epochs.begin(), epochs.end());
    m_runs.clear();
    m_count = 0;
    m_phase = Phase::Preparing;
    emit busyChanged();
    prepareBatch();
}

void VerifySession::prepareBatch()
{
    if (m_phase != Phase::Preparing)
        return;
    // A few runs per pass of the event loop: copying 100k epochs at once
    // would stall the GUI thread.
    for (int n = 0; n < Batch && !m_queue.empty(); ++n) {
        auto [root, wanted] = std::move(m_queue.back());
        m_queue.pop_back();
        const Run* source = m_lookup(root);
        if (!source)
            continue;
        Run copy = slimCopy(*source, wanted);
        Verdicts verifying;
        std::vector<int> numbers;
        for (const auto& e : copy.epochs) {
            verifying[e.number].state = ChecksumState::Verifying;
            numbers.push_back(e.number);
        }
        m_count += static_cast<int>(numbers.size());
        m_verifying[root] = std::move(numbers);
        emit verdicts(root, verifying);
        m_runs.push_back(std::move(copy));
    }
    if (!m_queue.empty()) {
        QTimer::singleShot(0, this, &VerifySession::prepareBatch);
        return;
    }
    if (m_runs.empty()) {
        m_phase = Phase::Idle;
        emit busyChanged();
        return;
    }
    run();
}

void VerifySession::run()
{
    m_phase = Phase::Running;
    auto runs = std::make_shared<std::vector<Run>>(std::move(m_runs));
    m_runs.clear();
    emit started(m_count);
    m_runner->start<std::shared_ptr<Outcome>>(
        [runs, store = m_store, file = m_storePath.toStdString()](const Progress& progress) {
            auto outcome = std::make_shared<Outcome>();
            auto report = Verifier::verifyRuns(*runs, Verifier::Options{}, progress);
            if (!report) {
                outcome->summary = summary({}, QString::fromStdString(report.error().message));
                runs->clear(); // the copies die here, off the GUI thread
                return outcome;
            }
            for (const RunVerdict& rv : report->runs) {
                auto match = std::find_if(runs->begin(), runs->end(),
                                          [&](const Run& r) { return r.root == rv.root; });
                const Run* slim = match != runs->end() ? &*match : nullptr;
                Verdicts& out = outcome->verdicts[QString::fromStdString(rv.root)];
                for (const EpochVerdict& v : rv.epochs) {
                    out[v.epoch] =
                        ChecksumVerdict{stateOf(v.status), QString::fromStdString(v.expected),
                                        QString::fromStdString(v.actual)};
                    if (const Epoch* e = slim ? slim->findEpoch(v.epoch) : nullptr)
                        store->record(*slim, *e, v);
                }
            }
            outcome->summary = summary(report.value(), {});
            if (!file.empty()) {
                if (const Status st = store->save(file); !st)
                    outcome->summary += QStringLiteral(" (not remembered: %1)")
                                            .arg(QString::fromStdString(st.error().message));
            }
            runs->clear();
            return outcome;
        },
        [this](std::shared_ptr<Outcome> outcome) { apply(std::move(outcome)); });
}

void VerifySession::cancel()
{
    if (m_phase == Phase::Running) {
        m_runner->cancel();
    } else if (m_phase != Phase::Preparing) {
        return;
    }
    m_queue.clear();
    m_runs.clear();
    auto outcome = std::make_shared<Outcome>();
    outcome->summary = tr("Verification cancelled");
    apply(outcome);
}

void VerifySession::apply(std::shared_ptr<Outcome> outcome)
{
    m_phase = Phase::Applying;
    // In batches too: 100k verdicts would stall the GUI thread.
    for (int n = 0; n < Batch && !outcome->verdicts.empty(); ++n) {
        auto node = outcome->verdicts.extract(outcome->verdicts.begin());
        m_verifying.erase(node.key());
        emit verdicts(node.key(), node.mapped());
    }
    if (!outcome->verdicts.empty()) {
        QTimer::singleShot(0, this, [this, outcome] { apply(outcome); });
        return;
    }
    // What was not reached (cancelled) goes back to "not verified".
    for (const auto& [root, numbers] : m_verifying) {
        Verdicts reset;
        for (int n : numbers)
            reset[n] = ChecksumVerdict{};
        emit verdicts(root, reset);
    }
    m_verifying.clear();
    m_phase = Phase::Idle;
    emit finished(outcome->summary);
    emit busyChanged();
}

ChecksumState VerifySession::stateOf(VerifyStatus status)
{
    switch (status) {
    case VerifyStatus::Ok:
        return ChecksumState::Ok;
    case VerifyStatus::Mismatch:
        return ChecksumState::Mismatch;
    case VerifyStatus::Disabled:
        return ChecksumState::Disabled;
    case VerifyStatus::NoChecksum:
        return ChecksumState::NoChecksum;
    case VerifyStatus::Missing:
        return ChecksumState::Missing;
    case VerifyStatus::BadInfo:
        return ChecksumState::BadInfo;
    case VerifyStatus::Error:
        break;
    }
    return ChecksumState::Error;
}

Run VerifySession::slimCopy(const Run& run, const std::vector<int>& wanted)
{
    Run slim;
    slim.root = run.root;
    slim.dir = run.dir;
    slim.layout = run.layout;
    slim.epochs.reserve(run.epochs.size());
    for (const auto& e : run.epochs) {
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), e.number) == wanted.end())
            continue;
        Epoch c;
        c.number = e.number;
        c.dir = e.dir;
        c.recorded = e.recorded;
        c.files = e.files;
        c.problems = e.problems;
        slim.epochs.push_back(std::move(c));
    }
    return slim;
}

QString VerifySession::summary(const VerifyReport& report, const QString& error)
{
    const auto& t = report.totals;
    if (!error.isEmpty())
        return tr("Verification stopped: %1").arg(error);
    return tr("Verified %1 epochs: %2 ok, %3 mismatch, %4 missing, %5 bad info, %6 unreadable, "
              "%7 without checksum (%8 MB/s)")
        .arg(t.epochs())
        .arg(t.count(VerifyStatus::Ok))
        .arg(t.count(VerifyStatus::Mismatch))
        .arg(t.count(VerifyStatus::Missing))
        .arg(t.count(VerifyStatus::BadInfo))
        .arg(t.count(VerifyStatus::Error))
        .arg(t.count(VerifyStatus::Disabled) + t.count(VerifyStatus::NoChecksum))
        .arg(t.seconds > 0 ? t.bytes / t.seconds / 1e6 : 0.0, 0, 'f', 1);
}

} // namespace ckpt
