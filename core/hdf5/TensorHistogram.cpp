#include "hdf5/TensorHistogram.h"

#include "hdf5/BlockPipeline.h"
#include "hdf5/ElementDecoder.h"
#include "hdf5/H5File.h"
#include "hdf5/StatsAccumulator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

namespace ckpt {

namespace {

struct OpenDataset
{
    std::optional<H5File> file;
    BlockPipeline::Job job;
};

Result<OpenDataset> openDataset(const std::string& file, const std::string& datasetPath)
{
    auto h5 = H5File::open(file, H5Probe::Depth::Tensors);
    if (!h5)
        return h5.error();
    auto datasets = h5->datasets(true);
    if (!datasets)
        return datasets.error();
    const std::string wanted = datasetPath.starts_with('/') ? datasetPath : "/" + datasetPath;
    for (H5File::DatasetEntry& d : datasets.value()) {
        if (d.path != wanted)
            continue;
        if (!d.info.dtype.numeric())
            return Error::at(file,
                             "dataset " + wanted + ": not numeric (" + d.info.dtype.name + ")");
        if (!d.info.unread.empty())
            return Error::at(file, H5File::unreadError(wanted, d.info.unread));
        OpenDataset open;
        open.job = BlockPipeline::Job{d.path, d.info, {}, {}, std::move(d.handle), {}};
        open.file.emplace(std::move(h5.value()));
        return open;
    }
    return Error::at(file, "dataset " + wanted + ": no such dataset");
}

// Streams the values of one dataset into `sink`, decoded to doubles.
Status stream(const OpenDataset& d, const std::function<void(const double*, std::size_t)>& sink,
              const Progress& progress)
{
    constexpr std::size_t kChunk = 8192;
    auto consume = [&](const BlockPipeline::Segment& seg) {
        double buf[kChunk];
        const auto size = static_cast<std::uint64_t>(ElementDecoder::memorySize(seg.kindA));
        const auto* raw = static_cast<const unsigned char*>(seg.a);
        for (std::uint64_t done = 0; done < seg.elements;) {
            const auto n =
                static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, seg.elements - done));
            ElementDecoder::toDouble(seg.kindA, raw + done * size, n, buf);
            sink(buf, n);
            done += n;
        }
    };
    return BlockPipeline::run(*d.file, nullptr, {d.job}, consume, progress);
}

} // namespace

int TensorHistogram::autoBins(std::uint64_t elements)
{
    const double root = std::ceil(std::sqrt(double(elements)));
    return int(std::clamp(root, 8.0, 128.0));
}

Histogram TensorHistogram::empty(double lo, double hi, int bins)
{
    Histogram h;
    if (std::isnan(lo) || std::isnan(hi) || bins <= 0)
        return h;
    if (!(hi > lo)) {
        lo -= 0.5;
        hi = lo + 1.0;
    }
    h.lo = lo;
    h.hi = hi;
    h.counts.assign(static_cast<std::size_t>(bins), 0);
    return h;
}

void TensorHistogram::add(Histogram& h, const double* values, std::size_t n)
{
    const int bins = h.bins();
    const double scale = bins > 0 ? double(bins) / (h.hi - h.lo) : 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double v = values[i];
        if (std::isnan(v)) {
            ++h.nan;
            continue;
        }
        if (std::isinf(v)) {
            ++h.inf;
            continue;
        }
        ++h.finite;
        if (bins == 0 || v < h.lo || v > h.hi)
            continue;
        const auto bin = std::min(static_cast<int>((v - h.lo) * scale), bins - 1);
        ++h.counts[static_cast<std::size_t>(bin)];
    }
}

namespace {

// Bytes one pass over a dataset reads.
std::uint64_t passBytes(const OpenDataset& d)
{
    return d.job.infoA.bytes;
}

Status statsPass(const OpenDataset& d, ValueStats& out, const Progress& progress)
{
    StatsAccumulator acc;
    Status st = stream(
        d, [&acc](const double* v, std::size_t n) { acc.add(v, n); }, progress);
    if (st)
        out = acc.result();
    return st;
}

Status binPass(const OpenDataset& d, Histogram& h, const Progress& progress)
{
    return stream(
        d, [&h](const double* v, std::size_t n) { TensorHistogram::add(h, v, n); }, progress);
}

} // namespace

Result<TensorHistogram::Tensor> TensorHistogram::ofDataset(const std::string& file,
                                                           const std::string& datasetPath, int bins,
                                                           const Progress& progress)
{
    auto d = openDataset(file, datasetPath);
    if (!d)
        return d.error();
    const std::uint64_t total = 2 * passBytes(*d);
    Tensor t{file, d->job.pathA, {}, {}};
    if (Status st = statsPass(*d, t.stats, Progress::relay(progress, 0, total)); !st)
        return st.error();
    if (bins <= 0)
        bins = autoBins(t.stats.finite);
    t.histogram = empty(t.stats.min, t.stats.max, bins);
    if (Status st = binPass(*d, t.histogram, Progress::relay(progress, passBytes(*d), total)); !st)
        return st.error();
    return t;
}

Result<std::pair<TensorHistogram::Tensor, TensorHistogram::Tensor>>
TensorHistogram::ofPair(const std::string& fileA, const std::string& pathA,
                        const std::string& fileB, const std::string& pathB, int bins,
                        const Progress& progress)
{
    auto a = openDataset(fileA, pathA);
    if (!a)
        return a.error();
    auto b = openDataset(fileB, pathB);
    if (!b)
        return b.error();
    const std::uint64_t total = 2 * (passBytes(*a) + passBytes(*b));
    std::uint64_t base = 0;
    Tensor ta{fileA, a->job.pathA, {}, {}};
    Tensor tb{fileB, b->job.pathA, {}, {}};
    const std::pair<OpenDataset*, Tensor*> sides[2] = {{&a.value(), &ta}, {&b.value(), &tb}};
    for (const auto& [d, t] : sides) {
        if (Status st = statsPass(*d, t->stats, Progress::relay(progress, base, total)); !st)
            return st.error();
        base += passBytes(*d);
    }
    auto lowest = [](double x, double y) {
        return std::isnan(x) ? y : std::isnan(y) ? x : std::min(x, y);
    };
    auto highest = [](double x, double y) {
        return std::isnan(x) ? y : std::isnan(y) ? x : std::max(x, y);
    };
    const double lo = lowest(ta.stats.min, tb.stats.min);
    const double hi = highest(ta.stats.max, tb.stats.max);
    if (bins <= 0)
        bins = autoBins(std::max(ta.stats.finite, tb.stats.finite));
    for (const auto& [d, t] : sides) {
        t->histogram = empty(lo, hi, bins);
        if (Status st = binPass(*d, t->histogram, Progress::relay(progress, base, total)); !st)
            return st.error();
        base += passBytes(*d);
    }
    return std::make_pair(std::move(ta), std::move(tb));
}

} // namespace ckpt
