#include "tensor/TensorStream.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace ckpt {

namespace {

std::uint64_t elementSize(const TensorInfo& t)
{
    return static_cast<std::uint64_t>(std::max(1, t.dtype.size));
}

// What the workers share: where reading has got to and whose turn it is.
class Turns
{
public:
    Turns(const TensorSource& a, const TensorSource* b, const std::vector<TensorStream::Job>& jobs,
          const Progress& progress, std::uint64_t total, std::uint64_t bufferBytes,
          const TensorStream::JobFailed& jobFailed)
        : m_a(a), m_b(b), m_jobs(jobs), m_progress(progress), m_jobFailed(jobFailed),
          m_bufferBytes(bufferBytes), m_total(total),
          m_reportStep(std::max<std::uint64_t>(total / 200, 1))
    {}

    Status status() const { return m_status; }

    // Waits for `worker`'s turn, fills its buffers with the next batch and
    // passes the turn on. False when there is nothing more to read (or a read failed).
    bool next(int worker, int workers, std::byte* bufA, std::byte* bufB,
              std::vector<TensorStream::Segment>& out)
    {
        out.clear();
        std::unique_lock lock(m_mutex);
        m_cond.wait(lock, [&] {
            return m_stop || m_turn % static_cast<std::uint64_t>(workers) ==
                                 static_cast<std::uint64_t>(worker);
        });
        if (!m_stop)
            fill(bufA, bufB, out);
        if (out.empty())
            m_stop = true;
        ++m_turn;
        lock.unlock();
        m_cond.notify_all();
        return !out.empty();
    }

    void finish()
    {
        if (m_status.ok())
            m_progress.report(ProgressUpdate{m_total, m_total, "bytes", {}});
    }

private:
    void fill(std::byte* bufA, std::byte* bufB, std::vector<TensorStream::Segment>& out)
    {
        std::uint64_t usedA = 0;
        std::uint64_t usedB = 0;
        while (m_job < m_jobs.size()) {
            if (m_progress.cancelled()) {
                m_status = Error::at(m_a.path(), "cancelled");
                out.clear();
                return;
            }
            const TensorStream::Job& job = m_jobs[m_job];
            const TensorInfo& ta = m_a.tensors()[job.a];
            const TensorInfo* tb = m_b ? &m_b->tensors()[job.b] : nullptr;
            const std::uint64_t sizeA = elementSize(ta);
            const std::uint64_t sizeB = tb ? elementSize(*tb) : 0;
            const std::uint64_t used = std::max(usedA, usedB);
            const std::uint64_t widest = std::max(sizeA, sizeB);
            const std::uint64_t room =
                used + widest > m_bufferBytes ? 0 : (m_bufferBytes - used) / widest;
            const std::uint64_t n = std::min(room, ta.elements - m_offset);
            if (n == 0 && ta.elements > m_offset)
                return; // the batch is full
            TensorStream::Segment seg{
                m_job, ta.dtype.kind, tb ? tb->dtype.kind : DTypeKind::Other, bufA + usedA, nullptr,
                n,     m_offset};
            if (n > 0) {
                Status st = m_a.read(job.a, m_offset, n, bufA + usedA);
                if (st && tb) {
                    seg.b = bufB + usedB;
                    st = m_b->read(job.b, m_offset, n, bufB + usedB);
                }
                if (!st) {
                    if (!m_jobFailed)
                        return fail(st, out);
                    // That tensor only: on with the next (under the lock, in job order).
                    m_jobFailed(m_job, st.error());
                    ++m_job;
                    m_offset = 0;
                    continue;
                }
                // Each segment 8-byte aligned for the accumulators' sake.
                usedA += (n * sizeA + 7) & ~std::uint64_t(7);
                usedB += (n * sizeB + 7) & ~std::uint64_t(7);
                out.push_back(seg);
                m_done += n * (sizeA + sizeB);
                if (m_done - m_reported >= m_reportStep) {
                    m_reported = m_done;
                    m_progress.report(ProgressUpdate{m_done, m_total, "bytes", ta.name});
                }
            }
            m_offset += n;
            if (m_offset >= ta.elements) {
                ++m_job;
                m_offset = 0;
            }
        }
    }

    void fail(const Status& st, std::vector<TensorStream::Segment>& out)
    {
        m_status = st;
        out.clear();
    }

    const TensorSource& m_a;
    const TensorSource* m_b;
    const std::vector<TensorStream::Job>& m_jobs;
    const Progress& m_progress;
    const TensorStream::JobFailed& m_jobFailed;
    const std::uint64_t m_bufferBytes;
    std::mutex m_mutex;
    std::condition_variable m_cond;
    std::uint64_t m_turn = 0;
    bool m_stop = false;
    Status m_status;
    std::size_t m_job = 0;
    std::uint64_t m_offset = 0;
    const std::uint64_t m_total;
    const std::uint64_t m_reportStep;
    std::uint64_t m_done = 0;
    std::uint64_t m_reported = 0;
};

} // namespace

Status TensorStream::run(const TensorSource& a, const TensorSource* b, const std::vector<Job>& jobs,
                         const Consumer& consume, const Progress& progress,
                         std::uint64_t blockBytes, const JobFailed& jobFailed)
{
    // Buffers no larger than the data (a small file costs small buffers), and
    // never smaller than one element of the widest type.
    std::uint64_t widest = 1;
    for (const Job& job : jobs) {
        widest = std::max(widest, elementSize(a.tensors()[job.a]));
        if (b)
            widest = std::max(widest, elementSize(b->tensors()[job.b]));
    }
    std::uint64_t total = 0;
    std::uint64_t need = 0; // buffer bytes on the bigger side
    for (const Job& job : jobs) {
        const TensorInfo& ta = a.tensors()[job.a];
        const std::uint64_t sizeB = b ? elementSize(b->tensors()[job.b]) : 0;
        total += ta.elements * (elementSize(ta) + sizeB);
        need += ta.elements * std::max(elementSize(ta), sizeB) + 8;
    }
    const std::uint64_t bytes = std::max(std::min(blockBytes, need), widest);
    // One batch or less: a second worker would only wait.
    const int workers = need > bytes ? kWorkers : 1;
    Turns turns(a, b, jobs, progress, total, bytes, jobFailed);

    auto work = [&](int worker) {
        // Not value-initialised: every byte used is written by read() first.
        std::unique_ptr<std::byte[]> bufA(new std::byte[bytes]);
        std::unique_ptr<std::byte[]> bufB(b ? new std::byte[bytes] : nullptr);
        std::vector<Segment> batch;
        while (turns.next(worker, workers, bufA.get(), bufB.get(), batch)) {
            for (const Segment& seg : batch)
                consume(worker, seg);
        }
    };
    std::thread second;
    if (workers > 1)
        second = std::thread(work, 1);
    work(0);
    if (second.joinable())
        second.join();
    turns.finish();
    return turns.status();
}

} // namespace ckpt
