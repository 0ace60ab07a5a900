#include "tensor/TensorSourceStats.h"

#include "hdf5/ElementDecoder.h"
#include "hdf5/StatsAccumulator.h"

#include <algorithm>

namespace ckpt {

namespace {

Result<ValueStats> statsOf(const TensorSource& source, std::size_t index, std::uint64_t blockBytes,
                           const Progress& progress, std::uint64_t& bytesDone,
                           std::uint64_t bytesTotal)
{
    const TensorInfo& t = source.tensors()[index];
    const auto size = static_cast<std::uint64_t>(std::max(1, t.dtype.size));
    const std::uint64_t perBlock = std::max<std::uint64_t>(1, blockBytes / size);
    std::vector<unsigned char> raw(static_cast<std::size_t>(std::min(perBlock, t.elements) * size));
    std::vector<double> values(static_cast<std::size_t>(std::min(perBlock, t.elements)));
    StatsAccumulator acc;
    for (std::uint64_t first = 0; first < t.elements; first += perBlock) {
        if (progress.cancelled())
            return Error::at(source.path(), "cancelled");
        const std::uint64_t n = std::min(perBlock, t.elements - first);
        if (Status st = source.read(index, first, n, raw.data()); !st)
            return st.error();
        ElementDecoder::toDouble(t.dtype.kind, raw.data(), static_cast<std::size_t>(n),
                                 values.data());
        acc.add(values.data(), static_cast<std::size_t>(n));
        bytesDone += n * size;
        progress.report(ProgressUpdate{bytesDone, bytesTotal, "bytes", t.name});
    }
    return acc.result();
}

} // namespace

Result<std::vector<TensorSourceStats::Entry>> TensorSourceStats::of(const TensorSource& source,
                                                                    const Progress& progress,
                                                                    std::uint64_t blockBytes)
{
    std::uint64_t total = 0;
    for (const TensorInfo& t : source.tensors())
        total += t.dtype.numeric() ? t.elements * static_cast<std::uint64_t>(t.dtype.size) : 0;
    std::uint64_t done = 0;
    std::vector<Entry> out;
    for (std::size_t i = 0; i < source.tensors().size(); ++i) {
        const TensorInfo& t = source.tensors()[i];
        if (!t.dtype.numeric())
            continue;
        auto stats = statsOf(source, i, blockBytes, progress, done, total);
        if (!stats)
            return stats.error();
        out.push_back(Entry{t, stats.value()});
    }
    return out;
}

Result<TensorSourceStats::Entry> TensorSourceStats::ofTensor(const TensorSource& source,
                                                             const std::string& name)
{
    for (std::size_t i = 0; i < source.tensors().size(); ++i) {
        const TensorInfo& t = source.tensors()[i];
        if (t.name != name)
            continue;
        if (!t.dtype.numeric())
            return Error::at(source.path(),
                             "tensor " + name + ": not numeric (" + t.dtype.name + ")");
        std::uint64_t done = 0;
        auto stats = statsOf(source, i, 1ull << 20, Progress::none(), done, 0);
        if (!stats)
            return stats.error();
        return Entry{t, stats.value()};
    }
    return Error::at(source.path(), "tensor " + name + ": no such tensor");
}

} // namespace ckpt
