#include "modelfile/WeightsDiff.h"

#include "modelfile/ModelOverview.h"
#include "modelfile/ModelSniffer.h"
#include "tensor/TensorSourceDiff.h"

namespace ckpt {

namespace {

bool readsAsHdf5(const ModelSniff& sniff)
{
    return sniff.format == ModelSniff::Format::Hdf5 ||
           (sniff.format == ModelSniff::Format::Zip &&
            sniff.zipKind == ModelSniff::ZipKind::Keras3);
}

// An error about an extracted copy names the archive the user gave instead.
Error named(Error error, const std::string& read, const std::string& given)
{
    if (read == given)
        return error;
    for (std::string* text : {&error.message, &error.path}) {
        if (text->starts_with(read))
            text->replace(0, read.size(), given + "!model.weights.h5");
    }
    return error;
}

} // namespace

Result<WeightsDiff::Outcome> WeightsDiff::diff(const std::string& fileA, const std::string& fileB,
                                               const std::string& scratchDir,
                                               const std::string& tag,
                                               const TensorDiff::Options& options,
                                               const Progress& progress)
{
    auto sniffA = ModelSniffer::sniff(fileA);
    if (!sniffA)
        return sniffA.error();
    auto sniffB = ModelSniffer::sniff(fileB);
    if (!sniffB)
        return sniffB.error();
    const bool hdf5A = readsAsHdf5(*sniffA);
    const bool hdf5B = readsAsHdf5(*sniffB);
    if (hdf5A && hdf5B) {
        auto a = ModelOverview::hdf5For(*sniffA, scratchDir, tag + "-a.weights.h5");
        if (!a)
            return a.error();
        auto b = ModelOverview::hdf5For(*sniffB, scratchDir, tag + "-b.weights.h5");
        if (!b)
            return b.error();
        auto diff = TensorDiff::diff(*a, *b, options, progress);
        if (!diff)
            return named(named(diff.error(), *a, fileA), *b, fileB);
        Outcome out{std::move(diff.value()), *a, *b};
        out.diff.fileA = fileA;
        out.diff.fileB = fileB;
        return out;
    }
    if (hdf5A != hdf5B) {
        const std::string& hdf5 = hdf5A ? fileA : fileB;
        const std::string& other = hdf5A ? fileB : fileA;
        return Error::at(other, "not HDF5 like " + hdf5 +
                                    ": weights of different formats "
                                    "cannot be compared");
    }
    auto a = TensorSources::open(fileA);
    if (!a)
        return a.error();
    auto b = TensorSources::open(fileB);
    if (!b)
        return b.error();
    if ((*a)->format() != (*b)->format())
        return Error::at(fileB, "a " + std::string((*b)->format()) + " file, " + fileA + " is " +
                                    std::string((*a)->format()) +
                                    ": weights of different formats cannot be compared");
    auto diff = TensorSourceDiff::diff(**a, **b, options, progress);
    if (!diff)
        return diff.error();
    return Outcome{std::move(diff.value()), {}, {}};
}

} // namespace ckpt
