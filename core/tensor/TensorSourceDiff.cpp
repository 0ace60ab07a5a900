#include "tensor/TensorSourceDiff.h"

#include "hdf5/DiffAccumulator.h"
#include "tensor/TensorStream.h"

#include <algorithm>
#include <array>
#include <map>

namespace ckpt {

namespace {

struct Side
{
    const TensorSource* source = nullptr;
    std::size_t index = 0;
};

} // namespace

std::string TensorSourceDiff::layerOf(const TensorInfo& tensor)
{
    if (!tensor.layer.empty())
        return tensor.layer;
    const std::string& key = tensor.name;
    const std::size_t slash = key.rfind('/');
    const std::size_t dot = key.rfind('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
        return key.substr(0, dot);
    return TensorDiff::layerOf(key);
}

Result<ModelDiff> TensorSourceDiff::diff(const TensorSource& a, const TensorSource& b,
                                         const TensorDiff::Options& options,
                                         const Progress& progress)
{
    std::map<std::string, TensorDiffEntry> byKey;
    std::map<std::string, Side> sideA;
    std::map<std::string, Side> sideB;
    auto collect = [&](const TensorSource& src, bool isA) {
        for (std::size_t i = 0; i < src.tensors().size(); ++i) {
            const TensorInfo& t = src.tensors()[i];
            if (!options.includeOptimizer && t.optimizerState)
                continue;
            TensorDiffEntry& e = byKey[t.name];
            e.key = t.name;
            e.layer = layerOf(t);
            e.optimizerState = e.optimizerState || t.optimizerState;
            (isA ? e.pathA : e.pathB) = t.name;
            (isA ? e.shapeA : e.shapeB) = t.shape;
            (isA ? e.dtypeA : e.dtypeB) = t.dtype;
            (isA ? sideA : sideB)[t.name] = Side{&src, i};
        }
    };
    collect(a, true);
    collect(b, false);

    ModelDiff result;
    result.fileA = a.path();
    result.fileB = b.path();
    using S = TensorDiffEntry::Status;
    std::vector<std::size_t> toCompare;
    std::uint64_t total = 0;
    for (auto& [key, e] : byKey) {
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
            toCompare.push_back(result.tensors.size());
            const TensorInfo& ta = a.tensors()[sideA[key].index];
            const TensorInfo& tb = b.tensors()[sideB[key].index];
            total += ta.elements * static_cast<std::uint64_t>(ta.dtype.size) +
                     tb.elements * static_cast<std::uint64_t>(tb.dtype.size);
        }
        result.tensors.push_back(std::move(e));
    }
    std::vector<TensorStream::Job> jobs;
    for (std::size_t i : toCompare) {
        const std::string& key = result.tensors[i].key;
        jobs.push_back(TensorStream::Job{sideA[key].index, sideB[key].index});
    }
    std::array<std::vector<DiffAccumulator>, TensorStream::kWorkers> acc;
    for (auto& perWorker : acc)
        perWorker.resize(jobs.size());
    auto consume = [&acc](int worker, const TensorStream::Segment& seg) {
        acc[static_cast<std::size_t>(worker)][seg.job].addRaw(
            seg.kindA, seg.a, seg.kindB, seg.b, static_cast<std::size_t>(seg.elements));
    };
    // A pair that cannot be read is marked so, with why; the others are compared.
    const auto unreadable = [&](std::size_t job, const Error& error) {
        TensorDiff::markUnreadable(result.tensors[toCompare[job]], error);
    };
    if (Status st =
            TensorStream::run(a, &b, jobs, consume, progress, options.blockBytes, unreadable);
        !st)
        return st.error();
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (result.tensors[toCompare[j]].status == TensorDiffEntry::Status::Unreadable)
            continue;
        for (std::size_t w = 1; w < acc.size(); ++w)
            acc[0][j].merge(acc[w][j]);
        TensorDiff::finishEntry(result.tensors[toCompare[j]], acc[0][j].result());
    }
    result.bytesRead = total;
    result.layers = TensorDiff::summarise(result.tensors);
    return result;
}

} // namespace ckpt
