#include "hdf5/BlockPipeline.h"

#include "hdf5/BlockPlan.h"
#include "hdf5/DatasetReader.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace ckpt {

namespace {

struct Slot
{
    std::unique_ptr<std::byte[]> a;
    std::unique_ptr<std::byte[]> b;
    std::uint64_t usedA = 0;
    std::uint64_t usedB = 0;
    std::vector<BlockPipeline::Segment> segments;

    void clear()
    {
        usedA = usedB = 0;
        segments.clear();
    }
};

// Free and filled slots, handed between the reader and the consumer thread.
class SlotQueue
{
public:
    Slot* takeFree()
    {
        std::unique_lock lock(m_mutex);
        m_cond.wait(lock, [this] { return !m_free.empty(); });
        Slot* s = m_free.front();
        m_free.pop_front();
        return s;
    }
    void giveFree(Slot* s)
    {
        {
            std::lock_guard lock(m_mutex);
            m_free.push_back(s);
        }
        m_cond.notify_all();
    }
    void push(Slot* s) // nullptr: end of work
    {
        {
            std::lock_guard lock(m_mutex);
            m_filled.push_back(s);
        }
        m_cond.notify_all();
    }
    Slot* pop()
    {
        std::unique_lock lock(m_mutex);
        m_cond.wait(lock, [this] { return !m_filled.empty(); });
        Slot* s = m_filled.front();
        m_filled.pop_front();
        return s;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cond;
    std::deque<Slot*> m_free;
    std::deque<Slot*> m_filled;
};

} // namespace

Status BlockPipeline::run(const H5File& a, const H5File* b, const std::vector<Job>& jobs,
                          const Consumer& consume, const Progress& progress, const Options& options)
{
    // Buffers no larger than the data: a small file costs small buffers.
    std::uint64_t need = 64;
    {
        std::uint64_t sumA = 0;
        std::uint64_t sumB = 0;
        for (const Job& job : jobs) {
            sumA += job.infoA.bytes + 8;
            sumB += job.infoB.bytes + 8;
        }
        need = std::max({need, sumA, sumB});
    }
    const std::uint64_t slotBytes = std::min(std::max<std::uint64_t>(options.slotBytes, 64), need);
    std::vector<Slot> slots(static_cast<std::size_t>(std::max(options.slots, 2)));
    SlotQueue queue;
    for (Slot& s : slots) {
        // Not value-initialised: every byte is written by H5Dread before use.
        s.a.reset(new std::byte[slotBytes]);
        if (b)
            s.b.reset(new std::byte[slotBytes]);
        queue.giveFree(&s);
    }

    std::thread worker([&] {
        while (Slot* s = queue.pop()) {
            for (const Segment& seg : s->segments)
                consume(seg);
            s->clear();
            queue.giveFree(s);
        }
    });

    std::uint64_t total = 0;
    for (const Job& job : jobs)
        total += job.infoA.bytes + (b ? job.infoB.bytes : 0);
    std::uint64_t done = 0;
    std::uint64_t reported = 0;
    const std::uint64_t reportStep = std::max<std::uint64_t>(total / 200, 1);

    Status status;
    Slot* current = queue.takeFree();
    // A job's error: the run's, or the job's alone when the caller takes those.
    const auto fail = [&](std::size_t job, Error error) {
        if (options.jobFailed)
            options.jobFailed(job, std::move(error));
        else
            status = std::move(error);
    };
    for (std::size_t j = 0; j < jobs.size() && status.ok(); ++j) {
        const Job& job = jobs[j];
        auto readerA = DatasetReader::open(a, job.pathA, job.infoA, job.handleA.get());
        if (!readerA) {
            fail(j, readerA.error());
            continue;
        }
        std::optional<DatasetReader> readerB;
        if (b) {
            auto rb = DatasetReader::open(*b, job.pathB, job.infoB, job.handleB.get());
            if (!rb) {
                fail(j, rb.error());
                continue;
            }
            readerB.emplace(std::move(rb.value()));
        }
        const std::uint64_t sizeA = static_cast<std::uint64_t>(readerA->elementSize());
        const std::uint64_t sizeB =
            readerB ? static_cast<std::uint64_t>(readerB->elementSize()) : 0;
        BlockPlan plan(job.infoA.shape, job.infoA.chunk, slotBytes / std::max(sizeA, sizeB));
        BlockPlan::Block block;
        bool jobOk = true;
        while (jobOk && plan.next(block)) {
            if (progress.cancelled()) {
                status = Error::at(a.path(), "cancelled");
                break;
            }
            const std::uint64_t needA = block.elements * sizeA;
            const std::uint64_t needB = block.elements * sizeB;
            if (current->usedA + needA > slotBytes || current->usedB + needB > slotBytes) {
                queue.push(current);
                current = queue.takeFree();
            }
            Segment seg;
            seg.job = j;
            seg.kindA = readerA->kind();
            seg.elements = block.elements;
            seg.offset = block.offset;
            std::byte* outA = current->a.get() + current->usedA;
            if (Status st = readerA->read(block, outA); !st) {
                fail(j, st.error());
                jobOk = false;
                break;
            }
            seg.a = outA;
            if (readerB) {
                std::byte* outB = current->b.get() + current->usedB;
                if (Status st = readerB->read(block, outB); !st) {
                    fail(j, st.error());
                    jobOk = false;
                    break;
                }
                seg.b = outB;
                seg.kindB = readerB->kind();
            }
            // Keep each segment 8-byte aligned for the decoder's sake.
            current->usedA += (needA + 7) & ~std::uint64_t(7);
            current->usedB += (needB + 7) & ~std::uint64_t(7);
            current->segments.push_back(seg);
            done += needA + needB;
            if (done - reported >= reportStep) {
                reported = done;
                progress.report(ProgressUpdate{done, total, "bytes", job.pathA});
            }
        }
    }
    if (status.ok())
        queue.push(current);
    else {
        current->clear(); // its partial blocks are dropped with the result
        queue.giveFree(current);
    }
    queue.push(nullptr);
    worker.join();
    if (status.ok())
        progress.report(ProgressUpdate{total, total, "bytes", {}});
    return status;
}

} // namespace ckpt
