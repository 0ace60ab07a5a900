#include "hdf5/H5Inspector.h"

#include "hdf5/H5File.h"
#include "hdf5/H5Lock.h"
#include "json/LenientJson.h"

#include <algorithm>
#include <hdf5.h>
#include <map>
#include <nlohmann/json.hpp>

namespace ckpt {

namespace {

herr_t collectLink(hid_t, const char* name, const H5L_info_t*, void* data)
{
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
}

std::string joinPath(const std::string& parent, const std::string& name)
{
    return parent == "/" ? "/" + name : parent + "/" + name;
}

class TreeBuilder
{
public:
    TreeBuilder(const H5File& file, H5Report& report) : m_file(file), m_report(report) {}

    Status object(hid_t obj, H5Node& node)
    {
        // The depth of "/a/b" is 2: one '/' per level below the root.
        if (std::count(node.path.begin(), node.path.end(), '/') > H5File::kMaxDepth)
            return Error::at(m_file.path(), node.path.substr(0, 64) + "...: " + H5File::tooDeep());
        auto attrs = m_file.attributes(obj, node.path);
        if (!attrs)
            return attrs.error();
        node.attributes = std::move(attrs.value());
        const H5I_type_t type = H5Iget_type(obj);
        if (type == H5I_DATASET) {
            node.kind = H5Node::Kind::Dataset;
            auto info = m_file.datasetInfo(obj, node.path);
            if (!info)
                return info.error();
            ++m_report.datasets;
            m_report.datasetBytes += info->bytes;
            node.dataset = std::move(info.value());
            return {};
        }
        if (type != H5I_GROUP) {
            node.kind = H5Node::Kind::Other;
            return {};
        }
        node.kind = H5Node::Kind::Group;
        ++m_report.groups;
        std::vector<std::string> names;
        if (H5Literate(obj, H5_INDEX_NAME, H5_ITER_INC, nullptr, collectLink, &names) < 0)
            return m_file.error(node.path, "cannot list the group (corrupted?)");
        for (const std::string& name : names) {
            H5Node child;
            child.name = name;
            child.path = joinPath(node.path, name);
            if (Status st = link(obj, child); !st)
                return st;
            node.children.push_back(std::move(child));
        }
        return {};
    }

private:
    Status link(hid_t parent, H5Node& node)
    {
        H5L_info_t linfo;
        if (H5Lget_info(parent, node.name.c_str(), &linfo, H5P_DEFAULT) < 0)
            return m_file.error(node.path, "cannot read link");
        if (linfo.type == H5L_TYPE_SOFT || linfo.type == H5L_TYPE_EXTERNAL) {
            std::string target(linfo.u.val_size + 1, '\0');
            H5Lget_val(parent, node.name.c_str(), target.data(), target.size(), H5P_DEFAULT);
            if (linfo.type == H5L_TYPE_EXTERNAL) {
                const char* file = nullptr;
                const char* obj = nullptr;
                unsigned flags = 0;
                H5Lunpack_elink_val(target.data(), linfo.u.val_size, &flags, &file, &obj);
                node.linkTo =
                    std::string("external:") + (file ? file : "") + ":" + (obj ? obj : "");
            } else {
                node.linkTo = target.c_str();
            }
            node.kind = H5Node::Kind::Other;
            return {};
        }
        H5O_info_t oinfo;
        if (H5Oget_info_by_name2(parent, node.name.c_str(), &oinfo, H5O_INFO_BASIC, H5P_DEFAULT) <
            0)
            return m_file.error(node.path, "cannot read object header (corrupted?)");
        const auto seen = m_seen.find(oinfo.addr);
        if (seen != m_seen.end()) {
            node.linkTo = seen->second;
            node.kind = oinfo.type == H5O_TYPE_GROUP     ? H5Node::Kind::Group
                        : oinfo.type == H5O_TYPE_DATASET ? H5Node::Kind::Dataset
                                                         : H5Node::Kind::Other;
            return {};
        }
        m_seen.emplace(oinfo.addr, node.path);
        H5Handle obj(H5Oopen(parent, node.name.c_str(), H5P_DEFAULT));
        if (!obj)
            return m_file.error(node.path, "cannot open (corrupted?)");
        return object(obj.get(), node);
    }

public:
    void markRoot(haddr_t addr) { m_seen.emplace(addr, "/"); }

private:
    const H5File& m_file;
    H5Report& m_report;
    std::map<haddr_t, std::string> m_seen;
};

} // namespace

Result<H5Report> H5Inspector::inspect(const std::string& file)
{
    auto h5 = H5File::open(file);
    if (!h5)
        return h5.error();
    H5Report report;
    report.file = file;
    report.root.name = "/";
    report.root.path = "/";
    {
        H5Lock lock;
        H5Handle root(H5Oopen(h5->id(), "/", H5P_DEFAULT));
        if (!root)
            return h5->error("/", "cannot open the root group");
        TreeBuilder builder(*h5, report);
        H5O_info_t oinfo;
        if (H5Oget_info2(root.get(), &oinfo, H5O_INFO_BASIC) >= 0)
            builder.markRoot(oinfo.addr);
        if (Status st = builder.object(root.get(), report.root); !st)
            return st.error();
    }
    report.keras = kerasSummary(report.root);
    return report;
}

std::string H5Inspector::layoutName(KerasSummary::Layout layout)
{
    switch (layout) {
    case KerasSummary::Layout::None:
        return "none";
    case KerasSummary::Layout::Keras2Model:
        return "keras2-model";
    case KerasSummary::Layout::Keras2Weights:
        return "keras2-weights";
    case KerasSummary::Layout::Keras3Weights:
        return "keras3-weights";
    }
    return "none";
}

std::vector<std::string> H5Inspector::stringList(const H5Node& node, const std::string& name)
{
    if (const H5Attribute* a = node.attribute(name))
        return a->strings;
    std::vector<std::string> out;
    for (int i = 0;; ++i) {
        const H5Attribute* part = node.attribute(name + std::to_string(i));
        if (!part)
            break;
        out.insert(out.end(), part->strings.begin(), part->strings.end());
    }
    return out;
}

namespace {

std::string firstString(const H5Node* node, const std::string& name)
{
    if (!node)
        return {};
    const H5Attribute* a = node->attribute(name);
    return a && !a->strings.empty() ? a->strings.front() : std::string();
}

KerasWeight weightAt(const H5Node* node, const std::string& name)
{
    KerasWeight w;
    w.name = name;
    if (node && node->dataset) {
        w.path = node->path;
        w.shape = node->dataset->shape;
        w.dtype = node->dataset->dtype;
        w.elements = node->dataset->elements;
        w.bytes = node->dataset->bytes;
    }
    return w;
}

// Pretty-prints a JSON attribute; keeps the raw text when it does not parse.
std::string prettyJson(const std::string& text, nlohmann::json& parsed)
{
    if (!LenientJson::withinMaxDepth(text))
        return text;
    parsed = nlohmann::json::parse(text, nullptr, false);
    if (parsed.is_discarded())
        return text;
    return parsed.dump(2);
}

void layerClasses(const nlohmann::json& config, std::map<std::string, std::string>& out)
{
    if (!config.is_object())
        return;
    const nlohmann::json* layers = nullptr;
    const auto inner = config.find("config");
    if (inner != config.end()) {
        if (inner->is_array())
            layers = &*inner; // old Sequential: config is the layer list
        else if (inner->is_object() && inner->contains("layers"))
            layers = &(*inner)["layers"];
    }
    if (!layers || !layers->is_array())
        return;
    for (const nlohmann::json& layer : *layers) {
        if (!layer.is_object() || !layer.contains("class_name"))
            continue;
        std::string name;
        if (layer.contains("config") && layer["config"].is_object() &&
            layer["config"].contains("name") && layer["config"]["name"].is_string())
            name = layer["config"]["name"].get<std::string>();
        else if (layer.contains("name") && layer["name"].is_string())
            name = layer["name"].get<std::string>();
        if (!name.empty() && layer["class_name"].is_string())
            out[name] = layer["class_name"].get<std::string>();
    }
}

void collectDatasets(const H5Node& node, std::vector<KerasWeight>& out, const std::string& base)
{
    for (const H5Node& c : node.children) {
        if (c.dataset && c.linkTo.empty())
            out.push_back(weightAt(&c, c.path.substr(std::min(base.size() + 1, c.path.size()))));
        else if (c.kind == H5Node::Kind::Group && c.linkTo.empty())
            collectDatasets(c, out, base);
    }
}

std::vector<const H5Node*> numericallySorted(const H5Node& vars)
{
    std::vector<const H5Node*> out;
    for (const H5Node& c : vars.children)
        out.push_back(&c);
    std::stable_sort(out.begin(), out.end(), [](const H5Node* x, const H5Node* y) {
        if (x->name.size() != y->name.size())
            return x->name.size() < y->name.size();
        return x->name < y->name;
    });
    return out;
}

void keras3Layers(const H5Node& node, const std::string& prefix, KerasSummary& k)
{
    for (const H5Node& c : node.children) {
        if (c.kind != H5Node::Kind::Group || !c.linkTo.empty())
            continue;
        if (c.name == "vars") {
            KerasLayer layer;
            layer.name = prefix.empty() ? "/" : prefix;
            for (const H5Node* v : numericallySorted(c))
                layer.weights.push_back(weightAt(v, v->name));
            k.layers.push_back(std::move(layer));
        } else {
            keras3Layers(c, prefix.empty() ? c.name : prefix + "/" + c.name, k);
        }
    }
}

void keras2Layers(const H5Node& weightsRoot, const std::map<std::string, std::string>& classes,
                  KerasSummary& k)
{
    for (const std::string& name : H5Inspector::stringList(weightsRoot, "layer_names")) {
        KerasLayer layer;
        layer.name = name;
        if (const auto it = classes.find(name); it != classes.end())
            layer.className = it->second;
        const H5Node* group = weightsRoot.child(name);
        if (!group) {
            k.notes.push_back("layer " + name + " is listed in layer_names but has no group");
        } else {
            for (const std::string& wn : H5Inspector::stringList(*group, "weight_names")) {
                const H5Node* ds = group->find(wn);
                if (!ds || !ds->dataset)
                    k.notes.push_back("weight " + name + "/" + wn + " is listed but missing");
                layer.weights.push_back(weightAt(ds, wn));
            }
        }
        k.layers.push_back(std::move(layer));
    }
}

} // namespace

KerasSummary H5Inspector::kerasSummary(const H5Node& root)
{
    KerasSummary k;
    const H5Node* weightsRoot = nullptr;
    const H5Node* mw = root.child("model_weights");
    if (mw && mw->kind == H5Node::Kind::Group && !stringList(*mw, "layer_names").empty()) {
        k.layout = KerasSummary::Layout::Keras2Model;
        weightsRoot = mw;
    } else if (!stringList(root, "layer_names").empty()) {
        k.layout = KerasSummary::Layout::Keras2Weights;
        weightsRoot = &root;
    } else if (const H5Node* layers = root.child("layers");
               layers && layers->kind == H5Node::Kind::Group) {
        k.layout = KerasSummary::Layout::Keras3Weights;
    } else {
        return k;
    }
    k.kerasVersion = firstString(&root, "keras_version");
    if (k.kerasVersion.empty())
        k.kerasVersion = firstString(weightsRoot, "keras_version");
    k.backend = firstString(&root, "backend");
    if (k.backend.empty())
        k.backend = firstString(weightsRoot, "backend");

    std::map<std::string, std::string> classes;
    if (const std::string config = firstString(&root, "model_config"); !config.empty()) {
        nlohmann::json parsed;
        k.modelConfig = prettyJson(config, parsed);
        if (parsed.is_object() && parsed.contains("class_name") && parsed["class_name"].is_string())
            k.modelClass = parsed["class_name"].get<std::string>();
        layerClasses(parsed, classes);
    }
    if (const std::string config = firstString(&root, "training_config"); !config.empty()) {
        nlohmann::json parsed;
        k.trainingConfig = prettyJson(config, parsed);
        if (parsed.is_object() && parsed.contains("optimizer_config") &&
            parsed["optimizer_config"].is_object() &&
            parsed["optimizer_config"].contains("class_name") &&
            parsed["optimizer_config"]["class_name"].is_string())
            k.optimizerClass = parsed["optimizer_config"]["class_name"].get<std::string>();
    }

    if (weightsRoot) {
        keras2Layers(*weightsRoot, classes, k);
        if (const H5Node* opt = root.child("optimizer_weights")) {
            const std::vector<std::string> names = stringList(*opt, "weight_names");
            if (names.empty()) {
                collectDatasets(*opt, k.optimizerWeights, opt->path);
            } else {
                for (const std::string& wn : names)
                    k.optimizerWeights.push_back(weightAt(opt->find(wn), wn));
            }
        }
    } else {
        keras3Layers(*root.child("layers"), {}, k);
        if (const H5Node* opt = root.child("optimizer")) {
            if (const H5Node* vars = opt->child("vars")) {
                for (const H5Node* v : numericallySorted(*vars))
                    k.optimizerWeights.push_back(weightAt(v, v->name));
            }
        }
    }
    for (KerasLayer& layer : k.layers) {
        for (const KerasWeight& w : layer.weights)
            layer.params += w.elements;
        k.totalParams += layer.params;
    }
    return k;
}

} // namespace ckpt
