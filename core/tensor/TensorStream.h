#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/DType.h"
#include "tensor/TensorSource.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ckpt {

// Streams the elements of tensors of one TensorSource (or of matching pairs
// from two) through two workers taking turns: while one computes on the block
// it read, the other reads the next, so on two cores the math overlaps the
// reading. Reads happen one at a time and in file order (a TensorSource is read
// from one thread at a time). Batch k always goes to worker k % 2, so per-worker
// results merged in worker order come out the same on every run. Small tensors
// are packed several to a batch. Memory: 2 workers x 2 sides x blockBytes.
class TensorStream
{
public:
    static constexpr int kWorkers = 2;

    struct Job
    {
        std::size_t a = 0; // index into a.tensors()
        std::size_t b = 0; // index into b->tensors(); unused with one source
    };
    // Elements [offset, offset + elements) of one job, raw in native byte order.
    struct Segment
    {
        std::size_t job = 0;
        DTypeKind kindA = DTypeKind::Other;
        DTypeKind kindB = DTypeKind::Other;
        const void* a = nullptr;
        const void* b = nullptr; // nullptr with one source
        std::uint64_t elements = 0;
        std::uint64_t offset = 0;
    };
    // Called with the worker (0 .. kWorkers-1) that read the segment; a worker's
    // segments arrive in file order, and never two calls for one worker at once.
    using Consumer = std::function<void(int worker, const Segment&)>;

    // A job whose tensor could not be read (the file cut under the reader, an
    // I/O error): when set, it is reported here and the run goes on with the
    // next job (the consumer may have seen some of that job's segments);
    // unset, the first such error ends the run.
    using JobFailed = std::function<void(std::size_t job, Error error)>;

    // Progress is reported in "bytes" (bytes read from both sources).
    static Status run(const TensorSource& a, const TensorSource* b, const std::vector<Job>& jobs,
                      const Consumer& consume, const Progress& progress,
                      std::uint64_t blockBytes = 1ull << 20, const JobFailed& jobFailed = {});
};

} // namespace ckpt
