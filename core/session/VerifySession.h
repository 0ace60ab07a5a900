#pragma once

#include "checksum/VerifyResult.h"
#include "checksum/VerifyStore.h"
#include "model/Run.h"
#include "models/ChecksumState.h"

#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <vector>

class QThreadPool;

namespace ckpt {

class JobRunner;

// One verification at a time (Verifier::verifyRuns on copies of the runs,
// through JobRunner), with its verdicts remembered in a VerifyStore that
// persists across sessions (written atomically on the worker after each
// verification) and is consulted when runs load: a verdict comes back only
// while the model file is the one verified (size, mtime, inode).
class VerifySession final : public QObject
{
    Q_OBJECT
public:
    using Lookup = std::function<const Run*(const QString& root)>;
    using Verdicts = std::map<int, ChecksumVerdict>;

    VerifySession(QThreadPool* pool, Lookup lookup, QObject* parent = nullptr);
    ~VerifySession() override;

    // Loads the remembered verdicts from `path` in the background (storeLoaded
    // follows); later verifications are saved there. Empty: remember nothing.
    void setStorePath(const QString& path);
    QString storePath() const { return m_storePath; }
    // The remembered verdicts for the run's epochs whose files did not change.
    Verdicts remembered(const Run& run) const;

    // `epochs` per run root, an empty list meaning every epoch.
    void verify(const std::map<QString, std::vector<int>>& epochs);
    void cancel();
    bool isVerifying() const { return m_phase != Phase::Idle; }

    // Just what Verifier reads (paths, sizes, identity, recorded checksums):
    // cheap to make on the GUI thread. `wanted` empty: every epoch.
    static Run slimCopy(const Run& run, const std::vector<int>& wanted);
    static ChecksumState stateOf(VerifyStatus status);
    // One line for the status bar: counts per verdict and the throughput.
    static QString summary(const VerifyReport& report, const QString& error);

signals:
    void verdicts(const QString& root, const ckpt::VerifySession::Verdicts& verdicts);
    void started(int epochs);
    void progress(quint64 done, quint64 total);
    void finished(const QString& summary);
    void storeLoaded(const QString& error);
    void busyChanged();

private:
    struct Outcome
    {
        std::map<QString, Verdicts> verdicts; // by run root
        QString summary;
    };
    enum class Phase
    {
        Idle,
        Preparing,
        Running,
        Applying
    };
    static constexpr int Batch = 4; // runs per event-loop pass

    void prepareBatch();
    void run();
    void apply(std::shared_ptr<Outcome> outcome);
    void setVerdicts(const QString& root, const Verdicts& verdicts);

    QThreadPool* m_pool;
    Lookup m_lookup;
    JobRunner* m_runner;
    JobRunner* m_storeRunner;
    std::shared_ptr<VerifyStore> m_store;
    QString m_storePath;
    Phase m_phase = Phase::Idle;
    std::vector<std::pair<QString, std::vector<int>>> m_queue;
    std::vector<Run> m_runs;
    int m_count = 0;
    std::map<QString, std::vector<int>> m_verifying;
};

} // namespace ckpt
