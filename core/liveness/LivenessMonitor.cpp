#include "liveness/LivenessMonitor.h"

#include "watch/RunWatcher.h"

namespace ckpt {

LivenessMonitor::LivenessMonitor(QObject* parent) : QObject(parent)
{
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &LivenessMonitor::reassess);
    m_timer.start();
}

void LivenessMonitor::follow(RunWatcher* watcher)
{
    connect(watcher, &RunWatcher::runAdded, this, &LivenessMonitor::track);
    connect(watcher, &RunWatcher::runRemoved, this, &LivenessMonitor::forget);
    connect(watcher, &RunWatcher::epochAdded, this, &LivenessMonitor::onEpoch);
    connect(watcher, &RunWatcher::epochChanged, this, &LivenessMonitor::onEpoch);
    connect(watcher, &RunWatcher::runHeadChanged, this, &LivenessMonitor::onHead);
}

void LivenessMonitor::track(const Run& run)
{
    Tracked& t = m_runs[run.root];
    t.subject = Liveness::subjectOf(run);
    // The first verdict is announced only when it is news (not idle).
    t.state = LiveState::Idle;
    assess(run.root, t, true);
}

void LivenessMonitor::forget(const QString& root)
{
    m_runs.erase(root.toStdString());
}

LiveState LivenessMonitor::state(const QString& root) const
{
    auto it = m_runs.find(root.toStdString());
    return it == m_runs.end() ? LiveState::Idle : it->second.state;
}

void LivenessMonitor::reassess()
{
    for (auto& [root, t] : m_runs) {
        if (t.state != LiveState::Idle || !t.subject.workDir.empty())
            assess(root, t, true);
    }
}

void LivenessMonitor::assess(const std::string& root, Tracked& t, bool announce)
{
    const LiveState now = Liveness::assess(t.subject);
    if (now == t.state)
        return;
    t.state = now;
    if (announce)
        emit changed(QString::fromStdString(root), now);
}

void LivenessMonitor::onEpoch(const QString& root, const Epoch& epoch)
{
    auto it = m_runs.find(root.toStdString());
    if (it == m_runs.end())
        return;
    Liveness::noteEpoch(it->second.subject, Liveness::savedPathOf(it->second.subject.dir, epoch));
    assess(it->first, it->second, true);
}

void LivenessMonitor::onHead(const Run& head)
{
    auto it = m_runs.find(head.root);
    const std::string work = Liveness::workDirOf(head);
    if (it == m_runs.end() || it->second.subject.workDir == work)
        return;
    it->second.subject.workDir = work;
    assess(it->first, it->second, true);
}

} // namespace ckpt
