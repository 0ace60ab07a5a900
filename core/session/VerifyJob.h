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
    VerifyJob(std::vector<Run> runs, QThreadPool* pool, QObject* parent);
    ~VerifyJob() override;

    void start();
    void cancel();

    static ChecksumState stateOf(VerifyStatus status);
    static std::map<int, ChecksumState> states(const RunVerdict& verdict);
    // One line for the status bar: counts per verdict and the throughput.
    static QString summary(const VerifyReport& report, const QString& error);

signals:
    void progress(quint64 done, quint64 total);
    // `error` is empty on success ("cancelled" when cancelled).
    void finished(const ckpt::VerifyReport& report, const QString& error);

private:
    struct Outcome
    {
        VerifyReport report;
        QString error;
    };

    std::vector<Run> m_runs;
    QThreadPool* m_pool;
    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancel;
};

} // namespace ckpt
