#include "writer/KerasH5Reader.h"

#include "hdf5/H5File.h"
#include "hdf5/H5Handle.h"
#include "hdf5/H5Lock.h"
#include "hdf5/H5Probe.h"
#include "io/RegularFile.h"
#include "json/LenientJson.h"

#include <hdf5.h>
#include <optional>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

// The most elements one weight tensor may have here (1 GiB of float32): a
// damaged shape must not make the reader ask for more memory than exists.
constexpr std::uint64_t kMaxTensorElements = std::uint64_t{1} << 28;

class H5Reader
{
public:
    explicit H5Reader(std::string file) : m_file(std::move(file)) {}

    Error error(const std::string& what) const { return Error::at(m_file, what); }

    static bool exists(hid_t loc, const std::string& name)
    {
        return H5Lexists(loc, name.c_str(), H5P_DEFAULT) > 0;
    }

    // A string attribute (scalar or array, fixed or variable length).
    std::optional<std::vector<std::string>> strings(hid_t loc, const std::string& name) const
    {
        if (H5Aexists(loc, name.c_str()) <= 0)
            return std::nullopt;
        H5Handle attr(H5Aopen(loc, name.c_str(), H5P_DEFAULT));
        H5Handle type(H5Aget_type(attr.get()));
        H5Handle space(H5Aget_space(attr.get()));
        if (!attr || !type || !space || H5Tget_class(type.get()) != H5T_STRING)
            return std::nullopt;
        const hssize_t n = H5Sget_simple_extent_npoints(space.get());
        if (n < 0)
            return std::nullopt;
        std::vector<std::string> out;
        if (H5Tis_variable_str(type.get()) > 0) {
            std::vector<char*> ptrs(static_cast<std::size_t>(n), nullptr);
            H5Handle mem(H5Tcopy(H5T_C_S1));
            H5Tset_size(mem.get(), H5T_VARIABLE);
            H5Tset_cset(mem.get(), H5Tget_cset(type.get())); // h5py writes UTF-8
            if (H5Aread(attr.get(), mem.get(), ptrs.data()) < 0)
                return std::nullopt;
            for (char* p : ptrs)
                out.emplace_back(p ? p : "");
            H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, ptrs.data());
            return out;
        }
        const std::size_t width = H5Tget_size(type.get());
        std::vector<char> buf(width * static_cast<std::size_t>(n) + 1, '\0');
        if (H5Aread(attr.get(), type.get(), buf.data()) < 0)
            return std::nullopt;
        for (hssize_t i = 0; i < n; ++i) {
            const char* p = buf.data() + static_cast<std::size_t>(i) * width;
            std::size_t len = 0;
            while (len < width && p[len] != '\0')
                ++len;
            out.emplace_back(p, len);
        }
        return out;
    }

    // Keras splits big attributes into name0, name1, ...
    std::optional<std::vector<std::string>> chunkedStrings(hid_t loc, const std::string& name) const
    {
        if (auto whole = strings(loc, name))
            return whole;
        std::vector<std::string> out;
        bool any = false;
        for (int c = 0;; ++c) {
            auto part = strings(loc, name + std::to_string(c));
            if (!part)
                break;
            any = true;
            out.insert(out.end(), part->begin(), part->end());
        }
        return any ? std::optional(out) : std::nullopt;
    }

    Result<std::pair<std::vector<std::uint64_t>, std::vector<float>>>
    floats(hid_t loc, const std::string& name, const std::string& where) const
    {
        H5Handle ds(H5Dopen2(loc, name.c_str(), H5P_DEFAULT));
        if (!ds)
            return error("missing dataset '" + where + "'");
        if (std::string why = H5File::unreadReason(ds.get()); !why.empty())
            return error(H5File::unreadError(where, why));
        H5Handle space(H5Dget_space(ds.get()));
        const int rank = H5Sget_simple_extent_ndims(space.get());
        if (rank < 0)
            return error("cannot read the shape of '" + where + "'");
        std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
        H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
        // The element count as HDF5 reads it (no product of our own to wrap
        // around), within what a weight tensor can hold in memory here.
        const hssize_t points = H5Sget_simple_extent_npoints(space.get());
        if (points < 0 || static_cast<std::uint64_t>(points) > kMaxTensorElements)
            return error("'" + where + "' has " + std::to_string(points) +
                         " elements, more than a weight tensor read here may have");
        const auto count = static_cast<std::size_t>(points);
        std::vector<float> values(count);
        if (count > 0 &&
            H5Dread(ds.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
            return error("cannot read '" + where + "' as float32");
        return std::make_pair(std::vector<std::uint64_t>(dims.begin(), dims.end()),
                              std::move(values));
    }

    std::optional<std::int64_t> int64Scalar(hid_t loc, const std::string& name) const
    {
        H5Handle ds(H5Dopen2(loc, name.c_str(), H5P_DEFAULT));
        if (!ds)
            return std::nullopt;
        // One value, read into one variable: anything else would write past it.
        H5Handle space(H5Dget_space(ds.get()));
        if (!space || H5Sget_simple_extent_npoints(space.get()) != 1)
            return std::nullopt;
        std::int64_t v = 0;
        if (H5File::storedElsewhere(ds.get()) ||
            H5Dread(ds.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) < 0)
            return std::nullopt;
        return v;
    }

private:
    std::string m_file;
};

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Activations and the optimizer config come from the JSON attributes, when present.
void readConfigs(const H5Reader& r, hid_t file, KerasModel& model)
{
    if (auto cfg = r.strings(file, "model_config");
        cfg && !cfg->empty() && LenientJson::withinMaxDepth(cfg->front())) {
        const auto j = nlohmann::ordered_json::parse(cfg->front(), nullptr, false);
        if (j.is_object() && j.contains("config") && j["config"].is_object()) {
            const auto& c = j["config"];
            if (c.contains("name") && c["name"].is_string())
                model.name = c["name"].get<std::string>();
            if (c.contains("layers") && c["layers"].is_array()) {
                for (const auto& l : c["layers"]) {
                    if (!l.is_object() || !l.contains("config") || !l["config"].is_object())
                        continue;
                    const auto& lc = l["config"];
                    const std::string name = lc.value("name", std::string());
                    for (auto& layer : model.layers)
                        if (layer.name == name && lc.contains("activation") &&
                            lc["activation"].is_string())
                            layer.activation = lc["activation"].get<std::string>();
                }
            }
        }
    }
    if (auto cfg = r.strings(file, "training_config");
        cfg && !cfg->empty() && LenientJson::withinMaxDepth(cfg->front())) {
        const auto j = nlohmann::ordered_json::parse(cfg->front(), nullptr, false);
        if (j.is_object()) {
            if (j.contains("optimizer_config"))
                model.optimizerConfig = j["optimizer_config"];
            if (j.contains("loss") && j["loss"].is_string())
                model.loss = j["loss"].get<std::string>();
        }
    }
}

} // namespace

Result<KerasModel> KerasH5Reader::read(const fs::path& path)
{
    H5Reader r(path.string());
    KerasModel model;
    model.metrics.clear();
    // As H5File::open: only a regular file, and one that libhdf5 survives.
    if (auto regular = RegularFile::open(path.string()); !regular)
        return regular.error();
    if (auto checked = H5Probe::check(path.string()); !checked)
        return checked.error();
    H5Lock lock;
    H5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    if (!file)
        return r.error("not a readable HDF5 file");

    const bool full = H5Reader::exists(file.get(), "model_weights");
    H5Handle weightsGroup;
    if (full)
        weightsGroup = H5Handle(H5Gopen2(file.get(), "model_weights", H5P_DEFAULT));
    const hid_t root = full ? weightsGroup.get() : file.get();
    if (root < 0)
        return r.error("cannot open group 'model_weights'");
    const std::string prefix = full ? "model_weights/" : "";

    auto layerNames = r.chunkedStrings(root, "layer_names");
    if (!layerNames)
        return r.error("no 'layer_names' attribute on '/" + prefix +
                       "': not a Keras 2 weights file");
    if (auto v = r.strings(file.get(), "keras_version"); v && !v->empty())
        model.kerasVersion = v->front();
    else if (auto v2 = r.strings(root, "keras_version"); v2 && !v2->empty())
        model.kerasVersion = v2->front();
    if (auto b = r.strings(root, "backend"); b && !b->empty())
        model.backend = b->front();

    for (const std::string& name : *layerNames) {
        H5Handle g(H5Gopen2(root, name.c_str(), H5P_DEFAULT));
        if (!g)
            return r.error("missing layer group '/" + prefix + name + "'");
        auto weightNames = r.chunkedStrings(g.get(), "weight_names");
        if (!weightNames)
            return r.error("no 'weight_names' attribute on '/" + prefix + name + "'");
        KerasDense layer;
        layer.name = name;
        for (const std::string& wn : *weightNames) {
            auto t = r.floats(g.get(), wn, "/" + prefix + name + "/" + wn);
            if (!t)
                return t.error();
            auto& [dims, values] = t.value();
            if (endsWith(wn, "kernel:0") && dims.size() == 2) {
                layer.inputs = static_cast<int>(dims[0]);
                layer.units = static_cast<int>(dims[1]);
                layer.kernel = std::move(values);
            } else if (endsWith(wn, "bias:0") && dims.size() == 1) {
                layer.bias = std::move(values);
            } else {
                return r.error("unexpected weight '" + wn + "' in layer '" + name +
                               "' (only Dense kernel:0/bias:0 are supported)");
            }
        }
        if (layer.bias.size() != static_cast<std::size_t>(layer.units))
            return r.error("layer '" + name + "': bias does not match the kernel's units");
        model.layers.push_back(std::move(layer));
    }

    if (full) {
        readConfigs(r, file.get(), model);
        if (H5Reader::exists(file.get(), "optimizer_weights")) {
            H5Handle og(H5Gopen2(file.get(), "optimizer_weights", H5P_DEFAULT));
            auto names = r.chunkedStrings(og.get(), "weight_names");
            for (const std::string& wn : names.value_or(std::vector<std::string>{})) {
                if (endsWith(wn, "iter:0") || endsWith(wn, "iteration:0")) {
                    model.optimizerIterations = r.int64Scalar(og.get(), wn).value_or(0);
                    continue;
                }
                auto t = r.floats(og.get(), wn, "/optimizer_weights/" + wn);
                if (!t)
                    return t.error();
                model.optimizerWeights.push_back(
                    KerasTensor{wn, std::move(t->first), std::move(t->second)});
            }
        }
    }
    return model;
}

} // namespace ckpt
