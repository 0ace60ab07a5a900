#pragma once

#include "common/Progress.h"
#include "scan/DirWalker.h"
#include "scan/Scanner.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ckpt {

// Loads run roots on worker threads while the walk goes on: the walk feeds
// roots in with add(), workers call Layout::loadRun, and each finished run is
// handed to `onRun` and the progress callback under one lock (never concurrently).
class RunLoaderPool
{
public:
    // threads <= 0: one per core.
    RunLoaderPool(int threads, const Progress& progress,
                  const std::function<void(const Run&)>& onRun);
    ~RunLoaderPool();
    RunLoaderPool(const RunLoaderPool&) = delete;
    RunLoaderPool& operator=(const RunLoaderPool&) = delete;

    void add(DirWalker::Root root);
    // No more roots: waits until every queued run is loaded (or cancelled).
    void finish();
    // The loaded runs sorted by root, with the walk's problems; an Error when cancelled.
    Result<Scanner::Outcome> collect(const Problems& walkProblems);

private:
    void work();
    void publish(Run run);

    int m_threadCount;
    const Progress& m_progress;
    const std::function<void(const Run&)>& m_onRun;

    std::mutex m_queueMutex;
    std::condition_variable m_queueCv;
    std::deque<DirWalker::Root> m_queue;
    bool m_closed = false;
    std::size_t m_found = 0;

    std::mutex m_resultMutex; // also serialises onRun and progress reports
    std::vector<Run> m_runs;
    Problems m_problems;
    std::uint64_t m_epochs = 0;

    std::vector<std::thread> m_threads;
};

} // namespace ckpt
