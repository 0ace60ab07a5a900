#include "modelfile/ModelOverview.h"

#include "modelfile/ZipArchive.h"

#include <filesystem>

namespace ckpt {

Result<std::string> ModelOverview::hdf5For(const ModelSniff& sniff, const std::string& scratchDir,
                                           const std::string& tag)
{
    if (sniff.format == ModelSniff::Format::Hdf5)
        return sniff.path;
    if (sniff.format == ModelSniff::Format::Zip && sniff.zipKind == ModelSniff::ZipKind::Keras3) {
        const std::string dest = (std::filesystem::path(scratchDir) / tag).string();
        if (Status st = ZipArchive::extract(sniff.path, "model.weights.h5", dest); !st)
            return st.error();
        return dest;
    }
    if (sniff.format == ModelSniff::Format::Zip)
        return Error::at(sniff.path, "a " + ModelSniffer::zipKindName(sniff.zipKind) +
                                         " zip archive: only HDF5 weights (and Keras 3 .keras) "
                                         "can be read");
    return Error::at(sniff.path,
                     "not a model file (" +
                         (sniff.hint.empty() ? std::string("unknown format") : sniff.hint) + ")");
}

Result<ModelOverview> ModelOverview::load(const std::string& model, const std::string& scratchDir,
                                          const std::string& tag)
{
    auto sniff = ModelSniffer::sniff(model);
    if (!sniff)
        return sniff.error();
    ModelOverview overview;
    overview.sniff = std::move(sniff.value());
    const bool hdf5Weights = overview.sniff.format == ModelSniff::Format::Hdf5 ||
                             overview.sniff.zipKind == ModelSniff::ZipKind::Keras3;
    if (!hdf5Weights && TensorSources::recognises(model)) {
        auto source = TensorSources::open(model);
        if (source) {
            overview.source = std::move(source.value());
            return overview;
        }
        // A damaged archive still shows its listing, with why its tensors cannot be read.
        if (overview.sniff.format != ModelSniff::Format::Zip)
            return source.error();
        overview.note = source.error().message;
        return overview;
    }
    if (overview.sniff.format == ModelSniff::Format::Zip &&
        overview.sniff.zipKind != ModelSniff::ZipKind::Keras3) {
        overview.note = ModelSniffer::zipKindName(overview.sniff.zipKind) +
                        " archive: no reader for its tensors, only the listing can be shown";
        return overview;
    }
    auto hdf5 = hdf5For(overview.sniff, scratchDir, tag);
    if (!hdf5)
        return hdf5.error();
    auto report = H5Inspector::inspect(hdf5.value());
    if (!report)
        return report.error();
    overview.hdf5Path = std::move(hdf5.value());
    overview.report = std::move(report.value());
    return overview;
}

} // namespace ckpt
