#include "session/VerifyJob.h"

#include "checksum/Verifier.h"

#include <QThreadPool>
#include <QtConcurrent>

#include <algorithm>

namespace ckpt {

VerifyJob::VerifyJob(std::vector<Run> runs, QThreadPool* pool, QObject* parent)
    : QObject(parent), m_runs(std::move(runs)), m_pool(pool),
      m_cancel(std::make_shared<std::atomic_bool>(false))
{
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<Outcome>>::finished, this, [this] {
        emit finished(m_watcher.result());
        deleteLater();
    });
}

VerifyJob::~VerifyJob()
{
    m_cancel->store(true);
    m_watcher.waitForFinished();
}

void VerifyJob::cancel()
{
    m_cancel->store(true);
}

void VerifyJob::start()
{
    auto runs = std::make_shared<std::vector<Run>>(std::move(m_runs));
    m_watcher.setFuture(QtConcurrent::run(m_pool, [this, runs, cancel = m_cancel] {
        // The GUI needs a few updates a second, not one per block.
        auto clock = std::make_shared<QElapsedTimer>();
        clock->start();
        auto lastReport = std::make_shared<qint64>(-1000);
        const Progress tracker(
            [this, clock, lastReport](const ProgressUpdate& u) {
                const qint64 now = clock->elapsed();
                if (now - *lastReport < 100 && u.done < u.total)
                    return;
                *lastReport = now;
                QMetaObject::invokeMethod(
                    this, [this, done = u.done, total = u.total] { emit progress(done, total); },
                    Qt::QueuedConnection);
            },
            cancel.get());
        auto outcome = std::make_shared<Outcome>();
        auto report = Verifier::verifyRuns(*runs, Verifier::Options{}, tracker);
        if (report) {
            for (const auto& run : report->runs)
                outcome->states[QString::fromStdString(run.root)] = states(run);
            outcome->summary = summary(report.value(), {});
        } else {
            outcome->error = QString::fromStdString(report.error().message);
            outcome->summary = summary({}, outcome->error);
        }
        // The copies die here, off the GUI thread.
        runs->clear();
        return outcome;
    }));
}

ChecksumState VerifyJob::stateOf(VerifyStatus status)
{
    switch (status) {
    case VerifyStatus::Ok:
        return ChecksumState::Ok;
    case VerifyStatus::Mismatch:
        return ChecksumState::Mismatch;
    case VerifyStatus::Disabled:
    case VerifyStatus::NoChecksum:
        return ChecksumState::Disabled;
    case VerifyStatus::Missing:
    case VerifyStatus::BadInfo:
        return ChecksumState::Missing;
    case VerifyStatus::Error:
        break;
    }
    return ChecksumState::Error;
}

Run VerifyJob::slimCopy(const Run& run, const std::vector<int>& wanted)
{
    Run slim;
    slim.root = run.root;
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

std::map<int, ChecksumState> VerifyJob::states(const RunVerdict& verdict)
{
    std::map<int, ChecksumState> out;
    for (const auto& e : verdict.epochs)
        out[e.epoch] = stateOf(e.status);
    return out;
}

QString VerifyJob::summary(const VerifyReport& report, const QString& error)
{
    const auto& t = report.totals;
    QString summary;
    if (!error.isEmpty()) {
        summary = tr("Verification stopped: %1").arg(error);
    } else {
        summary = tr("Verified %1 epochs: %2 ok, %3 mismatch, %4 missing, %5 unreadable, %6 "
                     "without checksum (%7 MB/s)")
                      .arg(t.epochs())
                      .arg(t.count(VerifyStatus::Ok))
                      .arg(t.count(VerifyStatus::Mismatch))
                      .arg(t.count(VerifyStatus::Missing) + t.count(VerifyStatus::BadInfo))
                      .arg(t.count(VerifyStatus::Error))
                      .arg(t.count(VerifyStatus::Disabled) + t.count(VerifyStatus::NoChecksum))
                      .arg(t.seconds > 0 ? t.bytes / t.seconds / 1e6 : 0.0, 0, 'f', 1);
    }
    return summary;
}

} // namespace ckpt
