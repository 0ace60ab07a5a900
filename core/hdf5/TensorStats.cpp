#include "hdf5/TensorStats.h"

#include "hdf5/BlockPipeline.h"
#include "hdf5/H5File.h"
#include "hdf5/StatsAccumulator.h"

#include <algorithm>

namespace ckpt {

namespace {

Result<std::vector<TensorStats::Entry>>
run(const H5File& file, std::vector<H5File::DatasetEntry> datasets, const Progress& progress)
{
    std::vector<TensorStats::Entry> entries;
    std::vector<BlockPipeline::Job> jobs;
    for (H5File::DatasetEntry& d : datasets) {
        // Values refused are not read (the listing says why).
        if (!d.info.dtype.numeric() || !d.info.unread.empty())
            continue;
        jobs.push_back(BlockPipeline::Job{d.path, d.info, {}, {}, std::move(d.handle), {}});
        entries.push_back(TensorStats::Entry{std::move(d.path), std::move(d.info), {}, {}});
    }
    std::vector<StatsAccumulator> acc(jobs.size());
    auto consume = [&](const BlockPipeline::Segment& seg) {
        acc[seg.job].addRaw(seg.kindA, seg.a, static_cast<std::size_t>(seg.elements));
    };
    BlockPipeline::Options options;
    options.jobFailed = [&](std::size_t job, Error error) {
        entries[job].error = std::move(error.message);
    };
    if (Status st = BlockPipeline::run(file, nullptr, jobs, consume, progress, options); !st)
        return st.error();
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (entries[i].error.empty())
            entries[i].stats = acc[i].result();
    return entries;
}

} // namespace

Result<std::vector<TensorStats::Entry>> TensorStats::ofFile(const std::string& file,
                                                            const Progress& progress)
{
    auto h5 = H5File::open(file, H5Probe::Depth::Tensors);
    if (!h5)
        return h5.error();
    auto datasets = h5->datasets(true);
    if (!datasets)
        return datasets.error();
    return run(*h5, std::move(datasets.value()), progress);
}

Result<TensorStats::Entry> TensorStats::ofDataset(const std::string& file,
                                                  const std::string& datasetPath)
{
    auto h5 = H5File::open(file, H5Probe::Depth::Tensors);
    if (!h5)
        return h5.error();
    auto datasets = h5->datasets(true);
    if (!datasets)
        return datasets.error();
    const std::string wanted = datasetPath.starts_with('/') ? datasetPath : "/" + datasetPath;
    std::vector<H5File::DatasetEntry> one;
    for (H5File::DatasetEntry& d : datasets.value()) {
        if (d.path == wanted)
            one.push_back(std::move(d));
    }
    if (one.empty())
        return Error::at(file, "dataset " + wanted + ": no such dataset");
    if (!one.front().info.dtype.numeric())
        return Error::at(file, "dataset " + wanted + ": not numeric (" +
                                   one.front().info.dtype.name + ")");
    if (!one.front().info.unread.empty())
        return Error::at(file, H5File::unreadError(wanted, one.front().info.unread));
    auto entries = run(*h5, std::move(one), Progress::none());
    if (!entries)
        return entries.error();
    if (!entries->front().error.empty())
        return Error{entries->front().error, file};
    return std::move(entries.value().front());
}

} // namespace ckpt
