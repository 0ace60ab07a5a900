#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/DType.h"
#include "hdf5/DiffAccumulator.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ckpt {

// How one tensor of file A compares with the tensor at the same path in file B.
struct TensorDiffEntry
{
    enum class Status
    {
        Same,
        Changed,
        OnlyA,
        OnlyB,
        ShapeMismatch,
        DtypeMismatch,
        NotNumeric,
        Unreadable // the values of A or B could not be read: `error` says why
    };

    std::string key;             // matching key: the path without "/" and "model_weights/" prefixes
    std::string pathA;           // empty when only in B
    std::string pathB;           // empty when only in A
    std::string layer;           // group for the per-layer summary
    bool optimizerState = false; // optimizer state or a step counter, not a model weight
    std::vector<std::uint64_t> shapeA;
    std::vector<std::uint64_t> shapeB;
    DType dtypeA;
    DType dtypeB;
    Status status = Status::Same;
    std::string error; // Unreadable: why, naming the file and the dataset

    // Filled when both sides have the same shape and numeric types (also for a
    // dtype mismatch): `compared` is then true. Pairs with a NaN/Inf on either
    // side are left out of the norms, the cosine and the max.
    bool compared = false;
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    double l2Diff = kNaN;     // ||a-b||
    double normA = kNaN;      // ||a||
    double normB = kNaN;      // ||b||
    double relChange = kNaN;  // ||a-b||/||a||; a == 0: 0 if b == 0 too, else +inf
    double maxAbsDiff = kNaN; // max |a-b|
    double cosine = kNaN;     // a.b/(||a|| ||b||); 1 when both are zero, NaN when one is
    double dot = kNaN;        // a.b, for layer sums
    std::uint64_t elements = 0;
    std::uint64_t changedElements = 0;
    std::uint64_t nanA = 0, nanB = 0, infA = 0, infB = 0;
    bool nonFiniteAppeared = false; // B has more NaN or more Inf than A
};

// A layer: its tensors' values taken as one concatenated vector.
struct LayerDiff
{
    std::string name;
    std::size_t tensors = 0;
    std::size_t same = 0, changed = 0, onlyA = 0, onlyB = 0, mismatched = 0;
    std::size_t unreadable = 0; // not compared: their values could not be read
    std::uint64_t elements = 0; // compared elements
    double l2Diff = 0.0, normA = 0.0, normB = 0.0, maxAbsDiff = 0.0;
    double relChange = 0.0; // same definition as for a tensor
    double cosine = TensorDiffEntry::kNaN;
    bool nonFiniteAppeared = false;
};

struct ModelDiff
{
    std::string fileA;
    std::string fileB;
    std::vector<TensorDiffEntry> tensors; // sorted by key
    std::vector<LayerDiff> layers;        // most changed (relative) first
    std::uint64_t bytesRead = 0;
};

// Compares the weights of two HDF5 model files (Keras 2 full or weights-only,
// Keras 3 weights, any HDF5), streaming both files block by block through two
// bounded buffers while the math runs on a second core. Files are opened
// read-only without locks.
class TensorDiff
{
public:
    struct Options
    {
        bool includeOptimizer = true;
        // Per side and buffer, 4 buffers: 8 MiB in all. Small enough that a block
        // is still in cache when the math thread gets it (measured: 1 MiB beats
        // 8 and 16 MiB on 1 GB of float32).
        std::uint64_t blockBytes = 1ull << 20;
    };

    static Result<ModelDiff> diff(const std::string& fileA, const std::string& fileB,
                                  const Options& options,
                                  const Progress& progress = Progress::none());
    static Result<ModelDiff> diff(const std::string& fileA, const std::string& fileB)
    {
        return diff(fileA, fileB, Options{});
    }

    static std::string statusName(TensorDiffEntry::Status status);
    // "/model_weights/dense/dense/kernel:0" -> "dense/dense/kernel:0".
    static std::string matchKey(const std::string& datasetPath);
    // "dense/dense/kernel:0" -> "dense"; "layers/dense/vars/0" -> "dense";
    // "optimizer/vars/3" -> "optimizer"; other paths -> their parent group.
    static std::string layerOf(const std::string& key);
    // Optimizer state and step counters: not the model's layers.
    static bool isOptimizerKey(const std::string& key);

    // Shared with the other tensor formats' diff (TensorSourceDiff): fills a
    // compared entry from its sums, and sums tensors up per layer.
    static void finishEntry(TensorDiffEntry& entry, const DiffAccumulator::Sums& sums);
    // A pair whose values could not be read: Unreadable, with why; not compared.
    static void markUnreadable(TensorDiffEntry& entry, const Error& error);
    static std::vector<LayerDiff> summarise(const std::vector<TensorDiffEntry>& tensors);
};

} // namespace ckpt
