#pragma once

#include "checksum/VerifyResult.h"
#include "model/Run.h"
#include "models/ChecksumState.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <map>
#include <memory>
#include <vector>

class QThreadPool;

namespace ckpt {

// One background verification (Verifier::verifyRuns) of copies of runs, with
// progress throttled to a few updates a second for the GUI thread and a
// cooperative cancel. Deletes itself after finished().
class VerifyJob final : public QObject
{
    Q_OBJECT
public:
    // What the GUI needs from a verification, computed on the worker so that
    // a report of 100k verdicts is neither copied nor freed on the GUI thread.
    struct Outcome
    {
        std::map<QString, std::map<int, ChecksumState>> states; // by run root
        QString summary;
        QString error; // empty on success, "cancelled" when cancelled
    };

    VerifyJob(std::vector<Run> runs, QThreadPool* pool, QObject* parent);
    ~VerifyJob() override;

    void start();
    void cancel();

    // Just what Verifier reads (paths, sizes, recorded checksums): cheap to
    // make on the GUI thread. `wanted` empty: every epoch.
    static Run slimCopy(const Run& run, const std::vector<int>& wanted);
    static ChecksumState stateOf(VerifyStatus status);
    static std::map<int, ChecksumState> states(const RunVerdict& verdict);
    // One line for the status bar: counts per verdict and the throughput.
    static QString summary(const VerifyReport& report, const QString& error);

signals:
    void progress(quint64 done, quint64 total);
    // `error` is empty on success ("cancelled" when cancelled).
    void finished(std::shared_ptr<ckpt::VerifyJob::Outcome> outcome);

private:
    std::vector<Run> m_runs;
    QThreadPool* m_pool;
    QFutureWatcher<std::shared_ptr<Outcome>> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancel;
};

} // namespace ckpt
