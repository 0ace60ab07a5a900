#include "hdf5/TensorDiff.h"

#include "hdf5/BlockPipeline.h"
#include "hdf5/DatasetReader.h"
#include "hdf5/DiffAccumulator.h"
#include "hdf5/H5File.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <map>
#include <system_error>

namespace ckpt {

namespace {

double relative(double diff, double base)
{
    if (base > 0.0)
        return diff / base;
    return diff == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
}

double cosineOf(double dot, double normA, double normB)
{
    if (normA > 0.0 && normB > 0.0)
        return std::clamp(dot / (normA * normB), -1.0, 1.0);
    if (normA == 0.0 && normB == 0.0)
        return 1.0;
    return TensorDiffEntry::kNaN;
}

void finish(TensorDiffEntry& e, const DiffAccumulator::Sums& s)
{
    e.compared = true;
    e.elements = s.count;
    e.l2Diff = std::sqrt(s.diffSq);
    e.normA = std::sqrt(s.aSq);
    e.normB = std::sqrt(s.bSq);
    e.dot = s.ab;
    e.relChange = relative(e.l2Diff, e.normA);
    e.maxAbsDiff = s.maxAbsDiff;
    e.cosine = cosineOf(s.ab, e.normA, e.normB);
    e.changedElements = s.changed;
    e.nanA = s.nanA;
    e.nanB = s.nanB;
    e.infA = s.infA;
    e.infB = s.infB;
    e.nonFiniteAppeared = s.nanB > s.nanA || s.infB > s.infA;
    if (e.status != TensorDiffEntry::Status::DtypeMismatch)
        e.status =
            s.changed == 0 ? TensorDiffEntry::Status::Same : TensorDiffEntry::Status::Changed;
}

// Orders layers by relative change, largest first; NaN last.
bool moreChanged(const LayerDiff& x, const LayerDiff& y)
{
    const bool nx = std::isnan(x.relChange);
    const bool ny = std::isnan(y.relChange);
    if (nx != ny)
        return ny;
    if (!nx && x.relChange != y.relChange)
        return x.relChange > y.relChange;
    return x.name < y.name;
}

std::vector<LayerDiff> summariseLayers(const std::vector<TensorDiffEntry>& tensors)
{
    std::map<std::string, LayerDiff> layers;
    std::map<std::string, double> dots;
    for (const TensorDiffEntry& t : tensors) {
        LayerDiff& l = layers[t.layer];
        l.name = t.layer;
        ++l.tensors;
        using S = TensorDiffEntry::Status;
        switch (t.status) {
        case S::Same:
            ++l.same;
            break;
        case S::Changed:
        case S::DtypeMismatch:
            ++l.changed;
            break;
        case S::OnlyA:
            ++l.onlyA;
            break;
        case S::OnlyB:
            ++l.onlyB;
            break;
        case S::ShapeMismatch:
        case S::NotNumeric:
            ++l.mismatched;
            break;
        case S::Unreadable:
            ++l.unreadable;
            break;
        }
        if (!t.compared)
            continue;
        l.elements += t.elements;
        l.l2Diff += t.l2Diff * t.l2Diff; // squared until the end
        l.normA += t.normA * t.normA;
        l.normB += t.normB * t.normB;
        dots[t.layer] += t.dot;
        l.maxAbsDiff = std::max(l.maxAbsDiff, t.maxAbsDiff);
        l.nonFiniteAppeared = l.nonFiniteAppeared || t.nonFiniteAppeared;
    }
    std::vector<LayerDiff> out;
    for (auto& [name, l] : layers) {
        l.l2Diff = std::sqrt(l.l2Diff);
        l.normA = std::sqrt(l.normA);
        l.normB = std::sqrt(l.normB);
        if (l.elements > 0 || l.same + l.changed > 0) {
            l.relChange = relative(l.l2Diff, l.normA);
            l.cosine = cosineOf(dots[name], l.normA, l.normB);
        } else {
            l.relChange = TensorDiffEntry::kNaN;
        }
        out.push_back(l);
    }
    std::sort(out.begin(), out.end(), moreChanged);
    return out;
}

} // namespace

void TensorDiff::finishEntry(TensorDiffEntry& entry, const DiffAccumulator::Sums& sums)
{
    finish(entry, sums);
}

// The diff goes on with the other tensors and this one says why.
void TensorDiff::markUnreadable(TensorDiffEntry& entry, const Error& error)
{
    entry.status = TensorDiffEntry::Status::Unreadable;
    entry.error = error.message;
    entry.compared = false;
}

std::vector<LayerDiff> TensorDiff::summarise(const std::vector<TensorDiffEntry>& tensors)
{
    return summariseLayers(tensors);
}

std::string TensorDiff::statusName(TensorDiffEntry::Status status)
{
    using S = TensorDiffEntry::Status;
    switch (status) {
    case S::Same:
        return "same";
    case S::Changed:
        return "changed";
    case S::OnlyA:
        return "only_a";
    case S::OnlyB:
        return "only_b";
    case S::ShapeMismatch:
        return "shape_mismatch";
    case S::DtypeMismatch:
        return "dtype_mismatch";
    case S::NotNumeric:
        return "not_numeric";
    case S::Unreadable:
        return "unreadable";
    }
    return "unknown";
}

std::string TensorDiff::matchKey(const std::string& datasetPath)
{
    std::string key = datasetPath;
    while (key.starts_with('/'))
        key.erase(0, 1);
    // A full Keras 2 model keeps the weights under model_weights/; a weights-only
    // file has the same content at the root: match one against the other.
    const std::string prefix = "model_weights/";
    if (key.starts_with(prefix))
        key.erase(0, prefix.size());
    return key;
}

std::string TensorDiff::layerOf(const std::string& key)
{
    const std::size_t vars = key.rfind("/vars/");
    if (vars != std::string::npos) {
        std::string layer = key.substr(0, vars);
        if (layer.starts_with("layers/"))
            layer.erase(0, 7);
        return layer.empty() ? "/" : layer;
    }
    const std::size_t slash = key.find('/');
    if (key.find(':') != std::string::npos && slash != std::string::npos)
        return key.substr(0, slash); // Keras 2: <layer>/<layer>/kernel:0
    const std::size_t last = key.rfind('/');
    return last == std::string::npos ? "/" : key.substr(0, last);
}

bool TensorDiff::isOptimizerKey(const std::string& key)
{
    if (key.starts_with("optimizer_weights/") || key.starts_with("optimizer/"))
        return true;
    // Step counters kept next to the weights (Keras `iterations`, `global_step`).
    std::string last = key.substr(key.rfind('/') == std::string::npos ? 0 : key.rfind('/') + 1);
    last = last.substr(0, last.find(':'));
    return last == "iterations" || last == "iteration" || last == "global_step" || last == "step";
}

namespace {

// Datasets by matching key, sorted; of several paths with one key the last
// listed wins.
struct Keyed
{
    std::string key;
    std::size_t index = 0;
};

std::vector<Keyed> keyed(const std::vector<H5File::DatasetLink>& links, bool includeOptimizer)
{
    std::vector<Keyed> out;
    out.reserve(links.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
        std::string key = TensorDiff::matchKey(links[i].path);
        if (!includeOptimizer && TensorDiff::isOptimizerKey(key))
            continue;
        out.push_back(Keyed{std::move(key), i});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Keyed& x, const Keyed& y) { return x.key < y.key; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (i + 1 < out.size() && out[i + 1].key == out[i].key)
            continue;
        if (kept != i)
            out[kept] = std::move(out[i]);
        ++kept;
    }
    out.resize(kept);
    return out;
}

// One side of a pair: the dataset open and described.
struct Side
{
    H5Handle handle;
    H5DatasetInfo info;
};

Result<Side> openSide(const H5File& file, const H5File::DatasetLink& link)
{
    auto handle = file.openDataset(link);
    if (!handle)
        return handle.error();
    auto info = file.datasetInfo(handle->get(), link.path, true);
    if (!info)
        return info.error();
    return Side{std::move(handle.value()), std::move(info.value())};
}

// Reads a whole small tensor into `buffer` (8-byte words, reused across tensors).
Status readWhole(const H5File& file, const std::string& path, Side& side,
                 std::vector<std::uint64_t>& buffer, DTypeKind& kind)
{
    auto reader = DatasetReader::open(file, path, side.info, &side.handle);
    if (!reader)
        return reader.error();
    kind = reader->kind();
    const std::uint64_t bytes =
        side.info.elements * static_cast<std::uint64_t>(reader->elementSize());
    if (buffer.size() * 8 < bytes)
        buffer.resize(static_cast<std::size_t>((bytes + 7) / 8));
    BlockPlan::Block whole;
    whole.elements = side.info.elements;
    whole.whole = true;
    return reader->read(whole, buffer.data());
}

} // namespace

Result<ModelDiff> TensorDiff::diff(const std::string& fileA, const std::string& fileB,
                                   const Options& options, const Progress& progress)
{
    // Both files are checked in forked copies (H5Probe) at once, on two cores;
    // the open of B then finds its verdict.
    std::future<Status> checkB;
    try {
        checkB = std::async(std::launch::async,
                            [&] { return H5Probe::check(fileB, H5Probe::Depth::Tensors); });
    } catch (const std::system_error&) {
        // No thread to be had: B is checked when it is opened.
    }
    auto a = H5File::open(fileA, H5Probe::Depth::Tensors);
    if (checkB.valid()) {
        if (Status checked = checkB.get(); !checked && a)
            return checked.error();
    }
    if (!a)
        return a.error();
    auto b = H5File::open(fileB, H5Probe::Depth::Tensors);
    if (!b)
        return b.error();
    auto linksA = a->datasetLinks();
    if (!linksA)
        return linksA.error();
    auto linksB = b->datasetLinks();
    if (!linksB)
        return linksB.error();
    const std::vector<Keyed> keysA = keyed(linksA.value(), options.includeOptimizer);
    const std::vector<Keyed> keysB = keyed(linksB.value(), options.includeOptimizer);

    // One walk over both listings in key order. Each dataset is opened, described
    // and closed in turn (thousands kept open slow every HDF5 call down); a small
    // tensor pair is read and compared right here, one read per side (a pread
    // when stored plainly, see DatasetReader), with reused buffers: for a file of
    // thousands of small tensors the per-tensor cost is what the diff costs. The
    // larger ones go through the pipeline afterwards (math overlapping reads).
    const std::uint64_t inlineBytes = std::min<std::uint64_t>(options.blockBytes, 64 * 1024);
    ModelDiff result;
    result.fileA = fileA;
    result.fileB = fileB;
    result.tensors.reserve(keysA.size() + keysB.size());
    std::vector<BlockPipeline::Job> jobs;
    std::vector<std::size_t> jobEntry;
    std::vector<std::uint64_t> bufferA;
    std::vector<std::uint64_t> bufferB;
    std::uint64_t inlineDone = 0;
    const std::size_t reportEvery =
        std::max<std::size_t>(std::max(keysA.size(), keysB.size()) / 100, 1);
    using S = TensorDiffEntry::Status;
    for (std::size_t i = 0, j = 0; i < keysA.size() || j < keysB.size();) {
        const bool hasA = i < keysA.size() && (j >= keysB.size() || keysA[i].key <= keysB[j].key);
        const bool hasB = j < keysB.size() && (i >= keysA.size() || keysB[j].key <= keysA[i].key);
        const std::string& key = hasA ? keysA[i].key : keysB[j].key;
        if (progress.cancelled())
            return Error::at(fileA, "cancelled");
        TensorDiffEntry e;
        e.key = key;
        e.layer = layerOf(key);
        e.optimizerState = isOptimizerKey(key);
        Side sideA;
        Side sideB;
        if (hasA) {
            const H5File::DatasetLink& link = linksA.value()[keysA[i].index];
            auto side = openSide(*a, link);
            if (!side)
                return side.error();
            sideA = std::move(side.value());
            e.pathA = link.path;
            e.shapeA = sideA.info.shape;
            e.dtypeA = sideA.info.dtype;
        }
        if (hasB) {
            const H5File::DatasetLink& link = linksB.value()[keysB[j].index];
            auto side = openSide(*b, link);
            if (!side)
                return side.error();
            sideB = std::move(side.value());
            e.pathB = link.path;
            e.shapeB = sideB.info.shape;
            e.dtypeB = sideB.info.dtype;
        }
        i += hasA ? 1 : 0;
        j += hasB ? 1 : 0;
        if (!hasB) {
            e.status = S::OnlyA;
        } else if (!hasA) {
            e.status = S::OnlyB;
        } else if (e.shapeA != e.shapeB) {
            e.status = S::ShapeMismatch;
        } else if (!e.dtypeA.numeric() || !e.dtypeB.numeric()) {
            e.status = e.dtypeA == e.dtypeB ? S::NotNumeric : S::DtypeMismatch;
        } else {
            e.status = e.dtypeA == e.dtypeB ? S::Same : S::DtypeMismatch;
            result.bytesRead += sideA.info.bytes + sideB.info.bytes;
            if (sideA.info.bytes <= inlineBytes && sideB.info.bytes <= inlineBytes) {
                DiffAccumulator acc;
                Status read;
                if (sideA.info.elements > 0) {
                    DTypeKind kindA = DTypeKind::Other;
                    DTypeKind kindB = DTypeKind::Other;
                    read = readWhole(*a, e.pathA, sideA, bufferA, kindA);
                    if (read)
                        read = readWhole(*b, e.pathB, sideB, bufferB, kindB);
                    if (read)
                        acc.addRaw(kindA, bufferA.data(), kindB, bufferB.data(),
                                   static_cast<std::size_t>(sideA.info.elements));
                }
                if (read)
                    finish(e, acc.result());
                else
                    markUnreadable(e, read.error());
                inlineDone += sideA.info.bytes + sideB.info.bytes;
            } else {
                jobEntry.push_back(result.tensors.size());
                jobs.push_back(BlockPipeline::Job{e.pathA, std::move(sideA.info), e.pathB,
                                                  std::move(sideB.info), nullptr, nullptr});
            }
        }
        result.tensors.push_back(std::move(e));
        // In bytes like the pipeline's, the total unknown (0) until every pair is open.
        if (result.tensors.size() % reportEvery == 0)
            progress.report(ProgressUpdate{inlineDone, 0, "bytes", key});
    }

    if (!jobs.empty()) {
        std::vector<DiffAccumulator> acc(jobs.size());
        auto consume = [&](const BlockPipeline::Segment& seg) {
            acc[seg.job].addRaw(seg.kindA, seg.a, seg.kindB, seg.b,
                                static_cast<std::size_t>(seg.elements));
        };
        BlockPipeline::Options pipe;
        pipe.slotBytes = options.blockBytes;
        pipe.jobFailed = [&](std::size_t job, Error error) {
            markUnreadable(result.tensors[jobEntry[job]], error);
        };
        const Progress rest = Progress::relay(progress, inlineDone, result.bytesRead);
        if (Status st = BlockPipeline::run(*a, &b.value(), jobs, consume, rest, pipe); !st)
            return st.error();
        for (std::size_t k = 0; k < jobs.size(); ++k)
            if (result.tensors[jobEntry[k]].status != S::Unreadable)
                finish(result.tensors[jobEntry[k]], acc[k].result());
    } else {
        progress.report(ProgressUpdate{result.bytesRead, result.bytesRead, "bytes", {}});
    }
    result.layers = summariseLayers(result.tensors);
    return result;
}

} // namespace ckpt
