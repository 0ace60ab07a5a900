#include "writer/KerasH5Writer.h"

#include "hdf5/H5Handle.h"
#include "hdf5/H5Lock.h"
#include "json/PythonRepr.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <hdf5.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

// Keras' HDF5_OBJECT_HEADER_LIMIT: attributes above it are split into chunks.
constexpr std::size_t kHeaderLimit = 64512;

class H5Writer
{
public:
    explicit H5Writer(std::string file) : m_file(std::move(file)) {}

    const Error& error() const { return m_error; }
    bool failed() const { return m_failed; }

    bool fail(const std::string& what)
    {
        if (!m_failed)
            m_error = Error::at(m_file, "HDF5: " + what);
        m_failed = true;
        return false;
    }

    H5Handle group(hid_t parent, const std::string& name)
    {
        H5Handle g(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
        if (!g)
            fail("cannot create group '" + name + "'");
        return g;
    }

    // Fixed-length, null-padded strings: what h5py stores for numpy bytes_,
    // which is how Keras encodes its attributes.
    bool stringAttr(hid_t loc, const std::string& name, const std::string& value)
    {
        return stringArray(loc, name, {value}, true);
    }

    // A Python str attribute as h5py stores it: scalar, variable length, UTF-8.
    bool vlenStringAttr(hid_t loc, const std::string& name, const std::string& value)
    {
        H5Handle type(H5Tcopy(H5T_C_S1));
        H5Tset_size(type.get(), H5T_VARIABLE);
        H5Tset_cset(type.get(), H5T_CSET_UTF8);
        H5Handle space(H5Screate(H5S_SCALAR));
        H5Handle attr(
            H5Acreate2(loc, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
        if (!attr)
            return fail("cannot create attribute '" + name + "'");
        const char* text = value.c_str();
        if (H5Awrite(attr.get(), type.get(), &text) < 0)
            return fail("cannot write attribute '" + name + "'");
        return true;
    }

    bool stringArrayAttr(hid_t loc, const std::string& name, const std::vector<std::string>& values)
    {
        std::size_t width = 1;
        for (const auto& v : values)
            width = std::max(width, v.size());
        // Keras: grow the number of chunks until each fits the header limit.
        std::size_t chunks = 1;
        auto chunkBytes = [&](std::size_t n) { return ((values.size() + n - 1) / n) * width; };
        while (chunkBytes(chunks) > kHeaderLimit && chunks < values.size())
            ++chunks;
        if (chunks == 1)
            return stringArray(loc, name, values, false, width);
        // numpy.array_split: the first (size % n) parts get one more element.
        const std::size_t base = values.size() / chunks;
        const std::size_t extra = values.size() % chunks;
        std::size_t at = 0;
        for (std::size_t c = 0; c < chunks; ++c) {
            const std::size_t n = base + (c < extra ? 1 : 0);
            std::vector<std::string> part(values.begin() + static_cast<std::ptrdiff_t>(at),
                                          values.begin() + static_cast<std::ptrdiff_t>(at + n));
            at += n;
            if (!stringArray(loc, name + std::to_string(c), part, false, width))
                return false;
        }
        return true;
    }

    bool dataset(hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
                 hid_t fileType, hid_t memType, const void* data)
    {
        H5Handle lcpl(H5Pcreate(H5P_LINK_CREATE));
        H5Pset_create_intermediate_group(lcpl.get(), 1);
        H5Handle space(dims.empty()
                           ? H5Screate(H5S_SCALAR)
                           : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
        if (!space)
            return fail("cannot create dataspace for '" + name + "'");
        H5Handle ds(H5Dcreate2(parent, name.c_str(), fileType, space.get(), lcpl.get(), H5P_DEFAULT,
                               H5P_DEFAULT));
        if (!ds)
            return fail("cannot create dataset '" + name + "'");
        if (H5Dwrite(ds.get(), memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
            return fail("cannot write dataset '" + name + "'");
        return true;
    }

private:
    bool stringArray(hid_t loc, const std::string& name, const std::vector<std::string>& values,
                     bool scalar, std::size_t width = 0)
    {
        if (width == 0)
            for (const auto& v : values)
                width = std::max(width, v.size());
        width = std::max<std::size_t>(width, 1);
        H5Handle type(H5Tcopy(H5T_C_S1));
        H5Tset_size(type.get(), width);
        H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
        const hsize_t n = values.size();
        H5Handle space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr));
        std::vector<char> buf(width * std::max<std::size_t>(values.size(), 1), '\0');
        for (std::size_t i = 0; i < values.size(); ++i)
            std::memcpy(buf.data() + i * width, values[i].data(), values[i].size());
        H5Handle attr(
            H5Acreate2(loc, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
        if (!attr)
            return fail("cannot create attribute '" + name + "'");
        if (H5Awrite(attr.get(), type.get(), buf.data()) < 0)
            return fail("cannot write attribute '" + name + "'");
        return true;
    }

    std::string m_file;
    Error m_error;
    bool m_failed = false;
};

json initializer(const char* cls)
{
    json j = json::object();
    j["class_name"] = cls;
    j["config"] = json::object();
    if (std::strcmp(cls, "GlorotUniform") == 0)
        j["config"]["seed"] = nullptr;
    return j;
}

// save_weights_to_hdf5_group: layer_names, backend, keras_version, one group
// per layer with weight_names and the weights under <layer>/<layer>/.
bool writeWeights(H5Writer& w, hid_t root, const KerasModel& model)
{
    std::vector<std::string> names;
    for (const auto& layer : model.layers)
        names.push_back(layer.name);
    if (!w.stringArrayAttr(root, "layer_names", names) ||
        !w.stringAttr(root, "backend", KerasH5Writer::kBackend) ||
        !w.stringAttr(root, "keras_version", KerasH5Writer::kKerasVersion))
        return false;
    for (const auto& layer : model.layers) {
        if (layer.kernel.size() != static_cast<std::size_t>(layer.inputs) * layer.units ||
            layer.bias.size() != static_cast<std::size_t>(layer.units))
            return w.fail("layer '" + layer.name + "' has weights of the wrong size");
        H5Handle g = w.group(root, layer.name);
        if (!g)
            return false;
        const std::string kernel = layer.name + "/kernel:0";
        const std::string bias = layer.name + "/bias:0";
        if (!w.stringArrayAttr(g.get(), "weight_names", {kernel, bias}))
            return false;
        const std::vector<hsize_t> kdims = {static_cast<hsize_t>(layer.inputs),
                                            static_cast<hsize_t>(layer.units)};
        if (!w.dataset(g.get(), kernel, kdims, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT,
                       layer.kernel.data()) ||
            !w.dataset(g.get(), bias, {static_cast<hsize_t>(layer.units)}, H5T_IEEE_F32LE,
                       H5T_NATIVE_FLOAT, layer.bias.data()))
            return false;
    }
    return true;
}

bool writeOptimizer(H5Writer& w, hid_t root, const KerasModel& model)
{
    H5Handle g = w.group(root, "optimizer_weights");
    if (!g)
        return false;
    const std::string prefix = model.optimizerConfig.value("class_name", std::string("Adam"));
    std::vector<std::string> names = {prefix + "/iter:0"};
    for (const auto& t : model.optimizerWeights)
        names.push_back(t.name);
    if (!w.stringArrayAttr(g.get(), "weight_names", names))
        return false;
    if (!w.dataset(g.get(), names[0], {}, H5T_STD_I64LE, H5T_NATIVE_INT64,
                   &model.optimizerIterations))
        return false;
    for (const auto& t : model.optimizerWeights) {
        std::vector<hsize_t> dims(t.dims.begin(), t.dims.end());
        if (!w.dataset(g.get(), t.name, dims, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, t.values.data()))
            return false;
    }
    return true;
}

fs::path temporaryPath(const fs::path& path)
{
    static std::atomic<unsigned> counter{0};
    std::string name(1, '.'); // appended: GCC 12 -O3 warns falsely on "." + std::string&&
    name += path.filename().string();
    name += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    return path.parent_path() / name;
}

} // namespace

std::string KerasH5Writer::modelConfigJson(const KerasModel& model)
{
    json layers = json::array();
    if (!model.layers.empty()) {
        json input;
        input["class_name"] = "InputLayer";
        json cfg;
        cfg["batch_input_shape"] = json::array({nullptr, model.layers.front().inputs});
        cfg["dtype"] = "float32";
        cfg["sparse"] = false;
        cfg["ragged"] = false;
        cfg["name"] = model.layers.front().name + "_input";
        input["config"] = cfg;
        layers.push_back(input);
    }
    for (const auto& layer : model.layers) {
        json cfg;
        cfg["name"] = layer.name;
        cfg["trainable"] = true;
        cfg["dtype"] = "float32";
        cfg["units"] = layer.units;
        cfg["activation"] = layer.activation;
        cfg["use_bias"] = true;
        cfg["kernel_initializer"] = initializer("GlorotUniform");
        cfg["bias_initializer"] = initializer("Zeros");
        cfg["kernel_regularizer"] = nullptr;
        cfg["bias_regularizer"] = nullptr;
        cfg["activity_regularizer"] = nullptr;
        cfg["kernel_constraint"] = nullptr;
        cfg["bias_constraint"] = nullptr;
        json l;
        l["class_name"] = "Dense";
        l["config"] = cfg;
        layers.push_back(l);
    }
    json config;
    config["name"] = model.name;
    config["layers"] = layers;
    json top;
    top["class_name"] = "Sequential";
    top["config"] = config;
    return PythonRepr::dumpJson(top);
}

std::string KerasH5Writer::trainingConfigJson(const KerasModel& model)
{
    json metrics = json::array();
    json inner = json::array();
    for (const auto& m : model.metrics) {
        json cfg;
        cfg["name"] = m;
        cfg["dtype"] = "float32";
        cfg["fn"] = m == "accuracy" ? "categorical_accuracy" : m;
        json wrapper;
        wrapper["class_name"] = "MeanMetricWrapper";
        wrapper["config"] = cfg;
        inner.push_back(wrapper);
    }
    metrics.push_back(inner);
    json top;
    top["loss"] = model.loss;
    top["metrics"] = metrics;
    top["weighted_metrics"] = nullptr;
    top["loss_weights"] = nullptr;
    top["optimizer_config"] = model.optimizerConfig;
    return PythonRepr::dumpJson(top);
}

Status KerasH5Writer::write(const fs::path& path, const KerasModel& model, bool weightsOnly)
{
    const fs::path tmp = temporaryPath(path);
    H5Writer w(path.string());
    {
        H5Lock lock;
        H5Handle file(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
        if (!file)
            return Error::at(path.string(), "HDF5: cannot create " + tmp.string());
        if (weightsOnly) {
            writeWeights(w, file.get(), model);
        } else if (w.vlenStringAttr(file.get(), "keras_version", kKerasVersion) &&
                   w.vlenStringAttr(file.get(), "backend", kBackend) &&
                   w.stringAttr(file.get(), "model_config", modelConfigJson(model)) &&
                   w.stringAttr(file.get(), "training_config", trainingConfigJson(model))) {
            H5Handle weights = w.group(file.get(), "model_weights");
            if (weights && writeWeights(w, weights.get(), model))
                writeOptimizer(w, file.get(), model);
        }
        if (!w.failed() && H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0)
            w.fail("cannot flush " + tmp.string());
        file.reset();
    }
    std::error_code ec;
    if (w.failed()) {
        fs::remove(tmp, ec);
        return w.error();
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return Error::at(path.string(), "cannot rename " + tmp.string() + ": " + ec.message());
    }
    return {};
}

} // namespace ckpt
