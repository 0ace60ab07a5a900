#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/H5File.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ckpt {

// Streams datasets (one file, or matching pairs from two files) through a fixed
// set of buffers: this thread reads under the H5Lock while a second thread runs
// the consumer on the blocks read before, so the math overlaps the I/O. Small
// tensors are packed several to a buffer. Memory stays below
// slots * 2 * slotBytes whatever the file sizes.
class BlockPipeline
{
public:
    struct Job
    {
        std::string pathA;
        H5DatasetInfo infoA;
        std::string pathB; // empty in single-file mode
        H5DatasetInfo infoB;
        std::shared_ptr<H5Handle> handleA; // already open datasets, if any
        std::shared_ptr<H5Handle> handleB;
    };

    // A run of consecutive elements of one job (flat indices offset..offset+elements).
    struct Segment
    {
        std::size_t job = 0;
        DTypeKind kindA = DTypeKind::Other;
        DTypeKind kindB = DTypeKind::Other;
        const void* a = nullptr;
        const void* b = nullptr; // nullptr in single-file mode
        std::uint64_t elements = 0;
        std::uint64_t offset = 0;
    };
    using Consumer = std::function<void(const Segment&)>;

    struct Options
    {
        std::uint64_t slotBytes = 1ull << 20;
        int slots = 4;
        // When set, a job whose dataset cannot be opened or read (a corrupt
        // chunk, a filter missing) is reported here and the run goes on with
        // the next job; the consumer may have seen some of that job's segments.
        // Unset, the first such error ends the run.
        std::function<void(std::size_t job, Error error)> jobFailed;
    };

    // Runs every job; the consumer sees each job's segments in order, on one
    // thread. Progress is reported in "bytes" (bytes read from both files).
    static Status run(const H5File& a, const H5File* b, const std::vector<Job>& jobs,
                      const Consumer& consume, const Progress& progress, const Options& options);
    static Status run(const H5File& a, const H5File* b, const std::vector<Job>& jobs,
                      const Consumer& consume, const Progress& progress)
    {
        return run(a, b, jobs, consume, progress, Options{});
    }
};

} // namespace ckpt
