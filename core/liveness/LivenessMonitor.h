#pragma once

#include "liveness/Liveness.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <map>
#include <string>

namespace ckpt {

class RunWatcher;

// Keeps the liveness of watched runs current: assesses a run when the watcher
// reports evidence (a new epoch, work/ appearing or going away) and, while a
// run is live or has work/, once a second, because "interrupted" and "idle"
// are what no event announces. Lives on the watcher's thread (it stats files
// and reads /proc) and reports changes with changed().
class LivenessMonitor final : public QObject
{
    Q_OBJECT
public:
    explicit LivenessMonitor(QObject* parent = nullptr);

    // Follows `watcher`'s runs (same thread).
    void follow(RunWatcher* watcher);
    // Starts tracking a run (loaded elsewhere, or announced) and assesses it.
    void track(const Run& run);
    void forget(const QString& root);
    LiveState state(const QString& root) const;
    // Assesses every tracked run that may change state now (the timer's work).
    void reassess();
    void setInterval(int ms) { m_timer.setInterval(ms); }

signals:
    void changed(const QString& root, ckpt::LiveState state);

private:
    struct Tracked
    {
        Liveness::Subject subject;
        LiveState state = LiveState::Idle;
    };

    void assess(const std::string& root, Tracked& tracked, bool announce);
    void onEpoch(const QString& root, const ckpt::Epoch& epoch);
    void onHead(const Run& head);

    std::map<std::string, Tracked> m_runs;
    QTimer m_timer;
};

} // namespace ckpt
