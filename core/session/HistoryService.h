#pragma once

#include "model/MetricHistory.h"
#include "model/Run.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>

class QThreadPool;

namespace ckpt {

class JobRunner;

// Merges each run's metric history (HistoryBuilder) in the background through
// JobRunner, one merge per run at a time: a request while one runs asks for
// one more afterwards (a live run's new epochs coalesce), so results arrive
// in order and none is lost.
class HistoryService final : public QObject
{
    Q_OBJECT
public:
    explicit HistoryService(QThreadPool* pool, QObject* parent = nullptr);
    ~HistoryService() override;

    // `snapshot` is the run as it is now (a copy, read on the worker).
    void request(const QString& root, std::shared_ptr<const Run> snapshot);
    void forget(const QString& root);
    void clear();
    bool isBusy() const;

signals:
    void ready(const QString& root, std::shared_ptr<ckpt::MetricHistory> history);
    void busyChanged();

private:
    struct Slot
    {
        JobRunner* runner = nullptr;
        std::shared_ptr<const Run> next; // asked for while a merge ran
    };

    void launch(const QString& root, Slot& slot, std::shared_ptr<const Run> snapshot);
    void retire(JobRunner* runner);

    QThreadPool* m_pool;
    std::map<QString, Slot> m_slots;
};

} // namespace ckpt
