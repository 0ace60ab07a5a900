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
// handed to `onRun` and the progress callback under one lock (never concurrently),
// or, with `consume` set, to `consume` outside the lock and then dropped.
class RunLoaderPool
{
public:
    // threads <= 0: one per core.
    RunLoaderPool(int threads, const Progress& progress,
                  const std::function<void(const Run&)>& onRun,
                  const std::function<void(Run&&)>& consume = {});
    ~RunLoaderPool();
    RunLoaderPool(const RunLoaderPool&) = delete;
    RunLoaderPool& operator=(const RunLoaderPool&) = delete;

    void add(DirWalker::Root root);
    // No more roots: waits until every queued run is loaded (or cancelled).
    void finish();
    // Every root added so far, sorted, each once.
    std::vector<std::string> roots() const;
    // The loaded runs sorted by root, with the walk's problems; an Error when cancelled.
    Result<Scanner::Outcome> collect(const Problems& walkProblems);

private:
    void work();
    void load(const DirWalker::Root& root);
    void publish(Run run);
    // Counts a loaded run and reports progress (under m_resultMutex).
    void report(const std::string& root, std::size_t epochs);
    void reportLocked(const std::string& root, std::size_t epochs);

    int m_threadCount;
    const Progress& m_progress;
    const std::function<void(const Run&)>& m_onRun;
    const std::function<void(Run&&)>& m_consume;

    mutable std::mutex m_queueMutex;
    std::condition_variable m_queueCv;
    std::deque<DirWalker::Root> m_queue;
    bool m_closed = false;
    std::size_t m_found = 0;
    std::vector<std::string> m_roots;

    std::mutex m_resultMutex; // also serialises onRun and progress reports
    std::vector<Run> m_runs;
    Problems m_problems;
    std::uint64_t m_epochs = 0;
    std::uint64_t m_loaded = 0;

    std::vector<std::thread> m_threads;
    bool m_inline = false; // no worker thread could be started
};

} // namespace ckpt
