#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "launch/LaunchPrep.h"
#include "launch/Launcher.h"

#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// A sweep (fan-out): N forks from one epoch, one per value of a parameter,
// sharing the fork point. Every fork is prepared and checked before any is
// made, and made all or none. Shared by `ckpt launch --sweep` and the dialog.
class LaunchSweep
{
public:
    // One fork of `base` per value (base's own edits kept, the value added),
    // each beside the parent named <run>-fork-eNNN-<key>-<value>. Refused as a
    // whole when any one cannot be planned, or two would share a folder.
    static Result<std::vector<PreparedLaunch>> prepare(const PrepRequest& base,
                                                       const std::vector<ParamEdit>& values,
                                                       const LaunchRegistry& registry,
                                                       const Progress& progress = Progress::none());
    // Applies every fork; on a failure removes the ones made and says which failed.
    static Status apply(std::vector<PreparedLaunch>& runs);
    // Undoes every applied fork (LaunchPrep::undo); the first error is returned.
    static Status undo(const std::vector<PreparedLaunch>& runs);

    // Slurm: one job array for all (at most `parallel` at once, 0: no cap).
    // When sbatch refuses, every fork is undone and the error says so.
    static Result<std::vector<LaunchRecord>> submitArray(std::vector<PreparedLaunch>& runs,
                                                         int parallel, const Launcher& launcher);

    // "learning_rate-0.001": the fork folder's suffix for a value.
    static std::string folderSuffix(const ParamEdit& value);
};

// The local half of a sweep: K trainers at a time, the next started as one
// ends. step() is a plain synchronous call (the CLI loops on it; the app calls
// it from a worker thread): it refreshes the running runs and starts queued
// ones while fewer than K run. A run whose trainer cannot start (a missing
// program) is undone, its fork folder removed, and reported; the queue goes on.
class SweepQueue
{
public:
    struct Item
    {
        PreparedLaunch prepared;
        std::optional<LaunchRecord> record;
        std::string error; // why it did not start
        bool started = false;
        bool finished = false; // ended, or could not start
    };
    SweepQueue(std::vector<PreparedLaunch> runs, int parallel, Launcher launcher = Launcher());

    // True once every run has finished or failed to start.
    bool step();
    // Starts all that are queued at once (nobody stays to feed the queue).
    void startAll();
    bool done() const;
    bool allCompleted() const;
    const std::vector<Item>& items() const { return m_items; }
    // Messages of what happened since the last call ("started ROOT", "ROOT: completed").
    std::vector<std::string> takeMessages();
    // Nobody will feed the queue any more (the app quits): the runs not
    // started are undone, their fork folders removed, so none is left
    // prepared without a trainer. Returns how many.
    int abandonQueued();

private:
    void start(Item& item);

    std::vector<Item> m_items;
    int m_parallel;
    Launcher m_launcher;
    std::vector<std::string> m_messages;
};

} // namespace ckpt
