#include "tensor/TensorSourceStats.h"

#include "hdf5/ElementDecoder.h"
#include "hdf5/StatsAccumulator.h"
#include "tensor/TensorStream.h"

#include <algorithm>
#include <array>

namespace ckpt {

namespace {

constexpr std::uint64_t kBlockBytes = 1ull << 20;

// Statistics of tensors()[i] for each i in `indices`, streamed on two workers.
// With `errors`, a tensor that cannot be read gets its message there (and
// empty statistics) instead of failing the call.
Result<std::vector<ValueStats>> statsOf(const TensorSource& source,
                                        const std::vector<std::size_t>& indices,
                                        const Progress& progress, std::uint64_t blockBytes,
                                        std::vector<std::string>* errors = nullptr)
{
    std::vector<TensorStream::Job> jobs;
    for (std::size_t i : indices)
        jobs.push_back(TensorStream::Job{i, 0});
    std::array<std::vector<StatsAccumulator>, TensorStream::kWorkers> acc;
    for (auto& perWorker : acc)
        perWorker.resize(jobs.size());
    auto consume = [&acc](int worker, const TensorStream::Segment& seg) {
        acc[static_cast<std::size_t>(worker)][seg.job].addRaw(
            seg.kindA, seg.a, static_cast<std::size_t>(seg.elements));
    };
    TensorStream::JobFailed failed;
    if (errors) {
        errors->assign(jobs.size(), {});
        failed = [errors](std::size_t job, Error error) {
            (*errors)[job] = std::move(error.message);
        };
    }
    if (Status st = TensorStream::run(source, nullptr, jobs, consume, progress, blockBytes, failed);
        !st)
        return st.error();
    std::vector<ValueStats> out;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (errors && !(*errors)[j].empty()) {
            out.emplace_back();
            continue;
        }
        for (std::size_t w = 1; w < acc.size(); ++w)
            acc[0][j].merge(acc[w][j]);
        out.push_back(acc[0][j].result());
    }
    return out;
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

// Bins raw elements of `kind`, decoded to doubles a sub-block at a time.
void binRaw(Histogram& h, DTypeKind kind, const void* raw, std::uint64_t elements)
{
    if (kind == DTypeKind::Float64) {
        TensorHistogram::add(h, static_cast<const double*>(raw),
                             static_cast<std::size_t>(elements));
        return;
    }
    constexpr std::size_t kChunk = 4096;
    double buf[kChunk];
    const auto size = static_cast<std::uint64_t>(ElementDecoder::memorySize(kind));
    const auto* bytes = static_cast<const unsigned char*>(raw);
    for (std::uint64_t done = 0; done < elements;) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, elements - done));
        ElementDecoder::toDouble(kind, bytes + done * size, n, buf);
        TensorHistogram::add(h, buf, n);
        done += n;
    }
}

} // namespace

Result<std::vector<TensorSourceStats::Entry>> TensorSourceStats::of(const TensorSource& source,
                                                                    const Progress& progress,
                                                                    std::uint64_t blockBytes)
{
    std::vector<std::size_t> numeric;
    for (std::size_t i = 0; i < source.tensors().size(); ++i) {
        if (source.tensors()[i].dtype.numeric())
            numeric.push_back(i);
    }
    std::vector<std::string> errors;
    auto stats = statsOf(source, numeric, progress, blockBytes, &errors);
    if (!stats)
        return stats.error();
    std::vector<Entry> out;
    for (std::size_t j = 0; j < numeric.size(); ++j)
        out.push_back(Entry{source.tensors()[numeric[j]], stats.value()[j], errors[j]});
    return out;
}

Result<TensorSourceStats::Entry> TensorSourceStats::ofTensor(const TensorSource& source,
                                                             const std::string& name)
{
    auto index = numericIndex(source, name);
    if (!index)
        return index.error();
    auto stats = statsOf(source, {*index}, Progress::none(), kBlockBytes);
    if (!stats)
        return stats.error();
    return Entry{source.tensors()[*index], stats->front(), {}};
}

Result<TensorHistogram::Tensor> TensorSourceStats::histogram(const TensorSource& source,
                                                             const std::string& name, int bins,
                                                             const Progress& progress)
{
    auto index = numericIndex(source, name);
    if (!index)
        return index.error();
    const TensorInfo& t = source.tensors()[*index];
    const std::uint64_t pass = t.elements * static_cast<std::uint64_t>(std::max(1, t.dtype.size));
    auto stats = statsOf(source, {*index}, Progress::relay(progress, 0, 2 * pass), kBlockBytes);
    if (!stats)
        return stats.error();
    TensorHistogram::Tensor out;
    out.file = source.path();
    out.path = name;
    out.stats = stats->front();
    const int binCount = bins == TensorHistogram::kAutoBins ? TensorHistogram::autoBins(t.elements)
                                                            : std::max(1, bins);
    std::array<Histogram, TensorStream::kWorkers> parts;
    parts.fill(TensorHistogram::empty(out.stats.min, out.stats.max, binCount));
    auto consume = [&parts](int worker, const TensorStream::Segment& seg) {
        binRaw(parts[static_cast<std::size_t>(worker)], seg.kindA, seg.a, seg.elements);
    };
    if (Status st = TensorStream::run(source, nullptr, {TensorStream::Job{*index, 0}}, consume,
                                      Progress::relay(progress, pass, 2 * pass));
        !st)
        return st.error();
    out.histogram = parts[0];
    for (std::size_t w = 1; w < parts.size(); ++w) {
        const Histogram& h = parts[w];
        for (std::size_t i = 0; i < h.counts.size(); ++i)
            out.histogram.counts[i] += h.counts[i];
        out.histogram.finite += h.finite;
        out.histogram.nan += h.nan;
        out.histogram.inf += h.inf;
    }
    return out;
}

} // namespace ckpt
