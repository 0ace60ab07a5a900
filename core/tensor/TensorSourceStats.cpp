#include "tensor/TensorSourceStats.h"

#include "hdf5/ElementDecoder.h"
#include "hdf5/StatsAccumulator.h"

#include <algorithm>
#include <functional>

namespace ckpt {

namespace {

constexpr std::uint64_t kBlockBytes = 1ull << 20;

// Reads tensors()[index] block by block, decoded to doubles, into `consume`.
// `done` counts the bytes read for progress over `total`.
Status forEachBlock(const TensorSource& source, std::size_t index, std::uint64_t blockBytes,
                    const Progress& progress, std::uint64_t& done, std::uint64_t total,
                    const std::function<void(const double*, std::size_t)>& consume)
{
    const TensorInfo& t = source.tensors()[index];
    const auto size = static_cast<std::uint64_t>(std::max(1, t.dtype.size));
    const std::uint64_t perBlock = std::max<std::uint64_t>(1, blockBytes / size);
    const auto cap = static_cast<std::size_t>(std::min(perBlock, t.elements));
    std::vector<unsigned char> raw(cap * size);
    std::vector<double> values(cap);
    for (std::uint64_t first = 0; first < t.elements; first += perBlock) {
        if (progress.cancelled())
            return Error::at(source.path(), "cancelled");
        const std::uint64_t n = std::min(perBlock, t.elements - first);
        if (Status st = source.read(index, first, n, raw.data()); !st)
            return st;
        ElementDecoder::toDouble(t.dtype.kind, raw.data(), static_cast<std::size_t>(n),
                                 values.data());
        consume(values.data(), static_cast<std::size_t>(n));
        done += n * size;
        progress.report(ProgressUpdate{done, total, "bytes", t.name});
    }
    return {};
}

Result<std::size_t> numericIndex(const TensorSource& source, const std::string& name)
{
    for (std::size_t i = 0; i < source.tensors().size(); ++i) {
        const TensorInfo& t = source.tensors()[i];
        if (t.name != name)
            continue;
        if (!t.dtype.numeric())
            return Error::at(source.path(),
                             "tensor " + name + ": not numeric (" + t.dtype.name + ")");
        return i;
    }
    return Error::at(source.path(), "tensor " + name + ": no such tensor");
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
        StatsAccumulator acc;
        if (Status st = forEachBlock(source, i, blockBytes, progress, done, total,
                                     [&acc](const double* v, std::size_t n) { acc.add(v, n); });
            !st)
            return st.error();
        out.push_back(Entry{t, acc.result()});
    }
    return out;
}

Result<TensorSourceStats::Entry> TensorSourceStats::ofTensor(const TensorSource& source,
                                                             const std::string& name)
{
    auto index = numericIndex(source, name);
    if (!index)
        return index.error();
    StatsAccumulator acc;
    std::uint64_t done = 0;
    if (Status st = forEachBlock(source, *index, kBlockBytes, Progress::none(), done, 0,
                                 [&acc](const double* v, std::size_t n) { acc.add(v, n); });
        !st)
        return st.error();
    return Entry{source.tensors()[*index], acc.result()};
}

Result<TensorHistogram::Tensor> TensorSourceStats::histogram(const TensorSource& source,
                                                             const std::string& name, int bins,
                                                             const Progress& progress)
{
    auto index = numericIndex(source, name);
    if (!index)
        return index.error();
    const TensorInfo& t = source.tensors()[*index];
    const std::uint64_t total = 2 * t.elements * static_cast<std::uint64_t>(t.dtype.size);
    std::uint64_t done = 0;
    StatsAccumulator acc;
    if (Status st = forEachBlock(source, *index, kBlockBytes, progress, done, total,
                                 [&acc](const double* v, std::size_t n) { acc.add(v, n); });
        !st)
        return st.error();
    TensorHistogram::Tensor out;
    out.file = source.path();
    out.path = name;
    out.stats = acc.result();
    const int binCount = bins == TensorHistogram::kAutoBins ? TensorHistogram::autoBins(t.elements)
                                                            : std::max(1, bins);
    out.histogram = TensorHistogram::empty(out.stats.min, out.stats.max, binCount);
    if (Status st = forEachBlock(
            source, *index, kBlockBytes, progress, done, total,
            [&out](const double* v, std::size_t n) { TensorHistogram::add(out.histogram, v, n); });
        !st)
        return st.error();
    return out;
}

} // namespace ckpt
