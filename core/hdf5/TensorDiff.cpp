#include "hdf5/TensorDiff.h"

#include "hdf5/BlockPipeline.h"
#include "hdf5/DiffAccumulator.h"
#include "hdf5/H5File.h"

#include <algorithm>
#include <cmath>
#include <map>

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

Result<ModelDiff> TensorDiff::diff(const std::string& fileA, const std::string& fileB,
                                   const Options& options, const Progress& progress)
{
    auto a = H5File::open(fileA);
    if (!a)
        return a.error();
    auto b = H5File::open(fileB);
    if (!b)
        return b.error();
    auto listA = a->datasets(true);
    if (!listA)
        return listA.error();
    auto listB = b->datasets(true);
    if (!listB)
        return listB.error();

    std::map<std::string, TensorDiffEntry> byKey;
    std::map<std::string, H5File::DatasetEntry> infoA;
    std::map<std::string, H5File::DatasetEntry> infoB;
    for (H5File::DatasetEntry& d : listA.value()) {
        const std::string key = matchKey(d.path);
        if (!options.includeOptimizer && isOptimizerKey(key))
            continue;
        TensorDiffEntry& e = byKey[key];
        e.key = key;
        e.pathA = d.path;
        e.shapeA = d.info.shape;
        e.dtypeA = d.info.dtype;
        infoA[key] = std::move(d);
    }
    for (H5File::DatasetEntry& d : listB.value()) {
        const std::string key = matchKey(d.path);
        if (!options.includeOptimizer && isOptimizerKey(key))
            continue;
        TensorDiffEntry& e = byKey[key];
        e.key = key;
        e.pathB = d.path;
        e.shapeB = d.info.shape;
        e.dtypeB = d.info.dtype;
        infoB[key] = std::move(d);
    }

    ModelDiff result;
    result.fileA = fileA;
    result.fileB = fileB;
    std::vector<BlockPipeline::Job> jobs;
    std::vector<std::size_t> jobEntry;
    using S = TensorDiffEntry::Status;
    for (auto& [key, e] : byKey) {
        e.layer = layerOf(key);
        e.optimizerState = isOptimizerKey(key);
        if (e.pathB.empty()) {
            e.status = S::OnlyA;
        } else if (e.pathA.empty()) {
            e.status = S::OnlyB;
        } else if (e.shapeA != e.shapeB) {
            e.status = S::ShapeMismatch;
        } else if (!e.dtypeA.numeric() || !e.dtypeB.numeric()) {
            e.status = e.dtypeA == e.dtypeB ? S::NotNumeric : S::DtypeMismatch;
        } else {
            e.status = e.dtypeA == e.dtypeB ? S::Same : S::DtypeMismatch;
            jobEntry.push_back(result.tensors.size());
            H5File::DatasetEntry& da = infoA[key];
            H5File::DatasetEntry& db = infoB[key];
            result.bytesRead += da.info.bytes + db.info.bytes;
            jobs.push_back(BlockPipeline::Job{e.pathA, std::move(da.info), e.pathB,
                                              std::move(db.info), std::move(da.handle),
                                              std::move(db.handle)});
        }
        result.tensors.push_back(std::move(e));
    }

    std::vector<DiffAccumulator> acc(jobs.size());
    auto consume = [&](const BlockPipeline::Segment& seg) {
        acc[seg.job].addRaw(seg.kindA, seg.a, seg.kindB, seg.b,
                            static_cast<std::size_t>(seg.elements));
    };
    BlockPipeline::Options pipe;
    pipe.slotBytes = options.blockBytes;
    if (Status st = BlockPipeline::run(*a, &b.value(), jobs, consume, progress, pipe); !st)
        return st.error();
    for (std::size_t j = 0; j < jobs.size(); ++j)
        finish(result.tensors[jobEntry[j]], acc[j].result());
    result.layers = summariseLayers(result.tensors);
    return result;
}

} // namespace ckpt
