#include "tensor/TensorSourceDiff.h"

#include "hdf5/DiffAccumulator.h"
#include "hdf5/ElementDecoder.h"

#include <algorithm>
#include <map>

namespace ckpt {

namespace {

struct Side
{
    const TensorSource* source = nullptr;
    std::size_t index = 0;
};

Status compare(const Side& a, const Side& b, std::uint64_t blockBytes, const Progress& progress,
               std::uint64_t& done, std::uint64_t total, DiffAccumulator& acc)
{
    const TensorInfo& ta = a.source->tensors()[a.index];
    const TensorInfo& tb = b.source->tensors()[b.index];
    const auto sizeA = static_cast<std::uint64_t>(std::max(1, ta.dtype.size));
    const auto sizeB = static_cast<std::uint64_t>(std::max(1, tb.dtype.size));
    const std::uint64_t perBlock = std::max<std::uint64_t>(1, blockBytes / std::max(sizeA, sizeB));
    const auto cap = static_cast<std::size_t>(std::min(perBlock, ta.elements));
    std::vector<unsigned char> rawA(cap * sizeA);
    std::vector<unsigned char> rawB(cap * sizeB);
    const bool sameFloat = ta.dtype.kind == tb.dtype.kind && (ta.dtype.kind == DTypeKind::Float32 ||
                                                              ta.dtype.kind == DTypeKind::Float64);
    std::vector<double> da(sameFloat ? 0 : cap);
    std::vector<double> db(sameFloat ? 0 : cap);
    for (std::uint64_t first = 0; first < ta.elements; first += perBlock) {
        if (progress.cancelled())
            return Error::at(a.source->path(), "cancelled");
        const std::uint64_t n = std::min(perBlock, ta.elements - first);
        if (Status st = a.source->read(a.index, first, n, rawA.data()); !st)
            return st;
        if (Status st = b.source->read(b.index, first, n, rawB.data()); !st)
            return st;
        const auto count = static_cast<std::size_t>(n);
        if (sameFloat && ta.dtype.kind == DTypeKind::Float32) {
            acc.add(reinterpret_cast<const float*>(rawA.data()),
                    reinterpret_cast<const float*>(rawB.data()), count);
        } else if (sameFloat) {
            acc.add(reinterpret_cast<const double*>(rawA.data()),
                    reinterpret_cast<const double*>(rawB.data()), count);
        } else {
            ElementDecoder::toDouble(ta.dtype.kind, rawA.data(), count, da.data());
            ElementDecoder::toDouble(tb.dtype.kind, rawB.data(), count, db.data());
            acc.add(da.data(), db.data(), count);
        }
        done += n * (sizeA + sizeB);
        progress.report(ProgressUpdate{done, total, "bytes", ta.name});
    }
    return {};
}

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
    std::uint64_t done = 0;
    for (std::size_t i : toCompare) {
        TensorDiffEntry& e = result.tensors[i];
        DiffAccumulator acc;
        if (Status st =
                compare(sideA[e.key], sideB[e.key], options.blockBytes, progress, done, total, acc);
            !st)
            return st.error();
        TensorDiff::finishEntry(e, acc.result());
    }
    result.bytesRead = done;
    result.layers = TensorDiff::summarise(result.tensors);
    return result;
}

} // namespace ckpt
