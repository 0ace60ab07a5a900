#include "scan/RunLoaderPool.h"

#include <algorithm>
#include <system_error>

namespace ckpt {

RunLoaderPool::RunLoaderPool(int threads, const Progress& progress,
                             const std::function<void(const Run&)>& onRun,
                             const std::function<void(Run&&)>& consume)
    : m_threadCount(threads > 0
                        ? threads
                        : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))),
      m_progress(progress), m_onRun(onRun), m_consume(consume)
{}

RunLoaderPool::~RunLoaderPool()
{
    finish();
}

void RunLoaderPool::add(DirWalker::Root root)
{
    {
        std::lock_guard lock(m_queueMutex);
        m_roots.push_back(root.path);
        m_queue.push_back(std::move(root));
        ++m_found;
    }
    // Threads start with the first run found: a scan that finds nothing costs none.
    if (!m_inline && m_threads.size() < static_cast<std::size_t>(m_threadCount) &&
        m_threads.size() < m_found) {
        try {
            m_threads.emplace_back([this] { work(); });
        } catch (const std::system_error&) {
            // No thread to be had (limits reached): the walking thread loads.
            m_inline = m_threads.empty();
        }
    }
    if (m_inline) {
        DirWalker::Root next;
        {
            std::lock_guard lock(m_queueMutex);
            next = std::move(m_queue.front());
            m_queue.pop_front();
        }
        if (!m_progress.cancelled())
            load(next);
        return;
    }
    m_queueCv.notify_one();
}

void RunLoaderPool::finish()
{
    {
        std::lock_guard lock(m_queueMutex);
        m_closed = true;
    }
    m_queueCv.notify_all();
    for (auto& t : m_threads)
        if (t.joinable())
            t.join();
}

std::vector<std::string> RunLoaderPool::roots() const
{
    std::vector<std::string> roots;
    {
        std::lock_guard lock(m_queueMutex);
        roots = m_roots;
    }
    std::sort(roots.begin(), roots.end());
    roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
    return roots;
}

void RunLoaderPool::work()
{
    for (;;) {
        DirWalker::Root root;
        {
            std::unique_lock lock(m_queueMutex);
            m_queueCv.wait(lock, [this] { return !m_queue.empty() || m_closed; });
            if (m_queue.empty() || m_progress.cancelled())
                return;
            root = std::move(m_queue.front());
            m_queue.pop_front();
        }
        load(root);
    }
}

void RunLoaderPool::load(const DirWalker::Root& root)
{
    try {
        publish(root.layout->loadRun(root.path));
    } catch (const std::exception& e) {
        // Layouts turn what they meet into problems; this is the last resort
        // (out of memory, an exception from onRun) so one run cannot end the scan.
        std::lock_guard lock(m_resultMutex);
        m_problems.push_back(Problem{ProblemKind::Unreadable,
                                     root.path + ": loading the run failed: " + e.what(), root.path,
                                     std::nullopt});
    }
}

void RunLoaderPool::publish(Run run)
{
    if (m_consume) {
        report(run.root, run.epochs.size());
        m_consume(std::move(run));
        return;
    }
    std::lock_guard lock(m_resultMutex);
    m_runs.push_back(std::move(run));
    if (m_onRun)
        m_onRun(m_runs.back());
    reportLocked(m_runs.back().root, m_runs.back().epochs.size());
}

void RunLoaderPool::report(const std::string& root, std::size_t epochs)
{
    std::lock_guard lock(m_resultMutex);
    reportLocked(root, epochs);
}

void RunLoaderPool::reportLocked(const std::string& root, std::size_t epochs)
{
    ++m_loaded;
    m_epochs += epochs;
    if (m_progress.hasCallback()) {
        std::uint64_t total = 0;
        {
            std::lock_guard queueLock(m_queueMutex);
            total = m_closed ? m_found : 0;
        }
        m_progress.report(ProgressUpdate{m_loaded, total, "runs", root});
        m_progress.report(ProgressUpdate{m_epochs, 0, "epochs", root});
    }
}

Result<Scanner::Outcome> RunLoaderPool::collect(const Problems& walkProblems)
{
    finish();
    if (m_progress.cancelled())
        return Error{"scan cancelled", {}};
    Scanner::Outcome outcome;
    outcome.runs = std::move(m_runs);
    std::sort(outcome.runs.begin(), outcome.runs.end(),
              [](const Run& a, const Run& b) { return a.root < b.root; });
    // Two layouts cannot claim one root, but an enclosing-run drop and a walk could.
    outcome.runs.erase(std::unique(outcome.runs.begin(), outcome.runs.end(),
                                   [](const Run& a, const Run& b) { return a.root == b.root; }),
                       outcome.runs.end());
    outcome.walkProblems = walkProblems;
    outcome.walkProblems.insert(outcome.walkProblems.end(), m_problems.begin(), m_problems.end());
    return outcome;
}

} // namespace ckpt
