#pragma once

#include "model/Run.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <vector>

class QThreadPool;

namespace ckpt {

class JobRunner;

// Loads runs in the background through JobRunner: a folder's scan (runs are
// handed over one by one as they load, then all together to `adopt` on the
// worker, for the watcher) and a single run's reload. Closing drops every
// result still on its way.
class ScanController final : public QObject
{
    Q_OBJECT
public:
    // Called on the worker after a scan with every run it loaded (moved in).
    using Adopt = std::function<void(const QString& folder, std::vector<Run> runs)>;

    ScanController(QThreadPool* pool, Adopt adopt, QObject* parent = nullptr);
    ~ScanController() override;

    void scan(const QString& folder);
    void reload(const QString& root, const std::string& layout);
    void cancelAll();
    int scansRunning() const { return m_scans; }
    bool isBusy() const;

signals:
    void scanStarted(const QString& folder);
    void runLoaded(const QString& folder, std::shared_ptr<ckpt::Run> run);
    void runReloaded(const QString& root, std::shared_ptr<ckpt::Run> run);
    void scanFinished(const QString& folder, const QString& error, int runs,
                      const ckpt::Problems& walkProblems);
    void allScansFinished();
    void busyChanged();

private:
    JobRunner* runner(std::map<QString, JobRunner*>& runners, const QString& key);

    QThreadPool* m_pool;
    Adopt m_adopt;
    std::map<QString, JobRunner*> m_scanners;  // by folder
    std::map<QString, JobRunner*> m_reloaders; // by run root
    quint64 m_generation = 1;
    int m_scans = 0;
};

} // namespace ckpt
