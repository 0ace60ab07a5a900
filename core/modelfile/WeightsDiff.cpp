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
    const bool sourceA = !readsAsHdf5(*sniffA) && TensorSources::recognises(fileA);
    const bool sourceB = !readsAsHdf5(*sniffB) && TensorSources::recognises(fileB);
    if (sourceA != sourceB) {
        const std::string& source = sourceA ? fileA : fileB;
        const std::string& other = sourceA ? fileB : fileA;
        return Error::at(other, "not of the same format as " + source +
                                    ": weights of different formats cannot be compared");
    }
    if (!sourceA) {
        // HDF5 (an archive's weights extracted); anything else gets the HDF5
        // reader's own message about what it found.
        const auto hdf5Of = [&](const ModelSniff& s, const std::string& name) {
            return s.format == ModelSniff::Format::Zip
                       ? ModelOverview::hdf5For(s, scratchDir, tag + name)
                       : Result<std::string>(s.path);
        };
        auto a = hdf5Of(*sniffA, "-a.weights.h5");
        if (!a)
            return a.error();
        auto b = hdf5Of(*sniffB, "-b.weights.h5");
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
