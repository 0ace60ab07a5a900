#include "session/HistoryService.h"

#include "jobs/JobRunner.h"
#include "launch/RunBranches.h"
#include "layout/Layout.h"

namespace ckpt {

HistoryService::HistoryService(QThreadPool* pool, QObject* parent) : QObject(parent), m_pool(pool)
{}

HistoryService::~HistoryService()
{
    clear();
}

void HistoryService::request(const QString& root, std::shared_ptr<const Run> snapshot)
{
    Slot& slot = m_slots[root];
    if (!slot.runner) {
        slot.runner = new JobRunner(this, m_pool);
        connect(slot.runner, &JobRunner::runningChanged, this, &HistoryService::busyChanged);
    }
    if (slot.runner->isRunning()) {
        slot.next = std::move(snapshot);
        return;
    }
    launch(root, slot, std::move(snapshot));
}

void HistoryService::launch(const QString& root, Slot& slot, std::shared_ptr<const Run> snapshot)
{
    slot.runner->start<std::shared_ptr<MetricHistory>>(
        [snapshot](const Progress&) {
            // Restarted and forked runs come with what the plot draws beside
            // their own epochs, and the epochs their logs lost put back.
            return std::make_shared<MetricHistory>(RunBranches::completeHistory(*snapshot));
        },
        [this, root](std::shared_ptr<MetricHistory> history) {
            emit ready(root, std::move(history));
            auto it = m_slots.find(root);
            if (it != m_slots.end() && it->second.next)
                launch(root, it->second, std::exchange(it->second.next, nullptr));
        });
}

// Deleted once its job is done: the runner's destructor would wait for it.
void HistoryService::retire(JobRunner* runner)
{
    const bool running = runner->isRunning();
    runner->cancel();
    runner->disconnect(this);
    if (running)
        connect(runner, &JobRunner::finished, runner, &QObject::deleteLater);
    else
        runner->deleteLater();
}

void HistoryService::forget(const QString& root)
{
    auto it = m_slots.find(root);
    if (it == m_slots.end())
        return;
    retire(it->second.runner);
    m_slots.erase(it);
}

void HistoryService::clear()
{
    for (auto& [root, slot] : m_slots)
        retire(slot.runner);
    m_slots.clear();
}

bool HistoryService::isBusy() const
{
    for (const auto& [root, slot] : m_slots)
        if (slot.runner->isRunning())
            return true;
    return false;
}

} // namespace ckpt
