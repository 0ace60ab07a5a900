#include "report/ModelJson.h"

#include "json/LenientJson.h"

#include <cmath>
#include <map>

namespace ckpt {

using nlohmann::ordered_json;

namespace {

ordered_json shapeJson(const std::vector<std::uint64_t>& shape)
{
    ordered_json out = ordered_json::array();
    for (std::uint64_t d : shape)
        out.push_back(d);
    return out;
}

ordered_json weightJson(const KerasWeight& w)
{
    ordered_json out;
    out["name"] = w.name;
    out["path"] = w.path.empty() ? ordered_json(nullptr) : ordered_json(w.path);
    out["shape"] = shapeJson(w.shape);
    out["dtype"] = w.dtype.name;
    out["bytes"] = w.bytes;
    return out;
}

} // namespace

ordered_json ModelJson::number(double value)
{
    return std::isfinite(value) ? ordered_json(value) : ordered_json(nullptr);
}

ordered_json ModelJson::attribute(const H5Attribute& a)
{
    ordered_json out;
    out["name"] = a.name;
    out["dtype"] = a.dtype.name;
    if (!a.shape.empty())
        out["shape"] = shapeJson(a.shape);
    ordered_json values = ordered_json::array();
    if (a.isString()) {
        for (const std::string& s : a.strings)
            values.push_back(s);
    } else {
        for (double v : a.numbers)
            values.push_back(number(v));
    }
    // Scalars as values, arrays as arrays: what a reader of the file expects.
    if (a.shape.empty() && values.size() == 1)
        out["value"] = values.front();
    else
        out["value"] = values;
    return out;
}

ordered_json ModelJson::datasetInfo(const H5DatasetInfo& info)
{
    ordered_json out;
    out["shape"] = shapeJson(info.shape);
    out["dtype"] = info.dtype.name;
    out["elements"] = info.elements;
    out["bytes"] = info.bytes;
    out["storage_bytes"] = info.storageBytes;
    out["layout"] = info.layout;
    if (!info.chunk.empty())
        out["chunk"] = shapeJson(info.chunk);
    if (!info.filters.empty())
        out["filters"] = info.filters;
    if (!info.unread.empty())
        out["unread"] = info.unread;
    return out;
}

ordered_json ModelJson::node(const H5Node& n)
{
    ordered_json out;
    out["name"] = n.name;
    out["path"] = n.path;
    out["kind"] = n.kind == H5Node::Kind::Group     ? "group"
                  : n.kind == H5Node::Kind::Dataset ? "dataset"
                                                    : "other";
    if (!n.linkTo.empty())
        out["link_to"] = n.linkTo;
    if (n.dataset) {
        const ordered_json info = datasetInfo(*n.dataset);
        for (const auto& [k, v] : info.items())
            out[k] = v;
    }
    if (!n.attributes.empty()) {
        ordered_json attrs = ordered_json::array();
        for (const H5Attribute& a : n.attributes)
            attrs.push_back(attribute(a));
        out["attributes"] = std::move(attrs);
    }
    if (n.kind == H5Node::Kind::Group && n.linkTo.empty()) {
        ordered_json children = ordered_json::array();
        for (const H5Node& c : n.children)
            children.push_back(node(c));
        out["children"] = std::move(children);
    }
    return out;
}

ordered_json ModelJson::keras(const KerasSummary& k)
{
    ordered_json out;
    out["layout"] = H5Inspector::layoutName(k.layout);
    out["keras_version"] = k.kerasVersion;
    out["backend"] = k.backend;
    out["model_class"] = k.modelClass;
    out["optimizer_class"] = k.optimizerClass;
    out["total_params"] = k.totalParams;
    ordered_json layers = ordered_json::array();
    for (const KerasLayer& l : k.layers) {
        ordered_json lj;
        lj["name"] = l.name;
        lj["class_name"] = l.className;
        lj["params"] = l.params;
        ordered_json weights = ordered_json::array();
        for (const KerasWeight& w : l.weights)
            weights.push_back(weightJson(w));
        lj["weights"] = std::move(weights);
        layers.push_back(std::move(lj));
    }
    out["layers"] = std::move(layers);
    ordered_json opt = ordered_json::array();
    for (const KerasWeight& w : k.optimizerWeights)
        opt.push_back(weightJson(w));
    out["optimizer_weights"] = std::move(opt);
    // The configs as JSON objects when they parse, as text otherwise.
    for (const auto& [key, text] :
         {std::pair<const char*, const std::string*>{"model_config", &k.modelConfig},
          {"training_config", &k.trainingConfig}}) {
        if (text->empty())
            continue;
        ordered_json parsed = LenientJson::withinMaxDepth(*text)
                                  ? ordered_json::parse(*text, nullptr, false)
                                  : ordered_json(ordered_json::value_t::discarded);
        out[key] = parsed.is_discarded() ? ordered_json(*text) : parsed;
    }
    if (!k.notes.empty())
        out["notes"] = k.notes;
    return out;
}

ordered_json ModelJson::stats(const ValueStats& s)
{
    ordered_json out;
    out["count"] = s.count;
    out["min"] = number(s.min);
    out["max"] = number(s.max);
    out["mean"] = number(s.mean);
    out["std"] = number(s.stddev);
    out["l2"] = number(s.l2);
    out["nan"] = s.nan;
    out["inf"] = s.inf;
    out["zeros"] = s.zeros;
    return out;
}

ordered_json ModelJson::inspect(const TensorSource& source, std::uint64_t fileBytes,
                                const std::vector<TensorSourceStats::Entry>* statsList)
{
    ordered_json out;
    out["file"] = source.path();
    out["format"] = std::string(source.format());
    out["bytes"] = fileBytes;
    ordered_json attributes = ordered_json::object();
    for (const auto& [key, value] : source.attributes())
        attributes[key] = value;
    out["attributes"] = std::move(attributes);
    out["problems"] = source.problems();
    std::map<std::string, const TensorSourceStats::Entry*> byName;
    if (statsList) {
        for (const TensorSourceStats::Entry& e : *statsList)
            byName[e.info.name] = &e;
    }
    ordered_json list = ordered_json::array();
    for (const TensorInfo& t : source.tensors()) {
        ordered_json item;
        item["name"] = t.name;
        item["shape"] = shapeJson(t.shape);
        item["dtype"] = t.dtype.name;
        item["elements"] = t.elements;
        item["bytes"] = t.bytes;
        if (!t.note.empty())
            item["note"] = t.note;
        if (t.optimizerState)
            item["optimizer_state"] = true;
        if (auto it = byName.find(t.name); it != byName.end() && !it->second->error.empty()) {
            item["error"] = it->second->error; // no numbers rather than zeros
        } else if (it != byName.end()) {
            const ordered_json values = stats(it->second->stats);
            for (const auto& [k, v] : values.items())
                item[k] = v;
        }
        list.push_back(std::move(item));
    }
    out["tensors"] = std::move(list);
    return out;
}

ordered_json ModelJson::inspect(const ModelSniff& sniff, const H5Report* report,
                                const std::vector<TensorStats::Entry>* statsList)
{
    ordered_json out;
    out["file"] = sniff.path;
    out["format"] = ModelSniffer::formatName(sniff.format);
    out["bytes"] = sniff.fileBytes;
    if (sniff.format == ModelSniff::Format::Hdf5 && sniff.hdf5Offset > 0)
        out["user_block"] = sniff.hdf5Offset;
    if (sniff.format == ModelSniff::Format::Unknown && !sniff.hint.empty())
        out["hint"] = sniff.hint;
    if (sniff.format == ModelSniff::Format::Zip) {
        ordered_json zip;
        zip["kind"] = ModelSniffer::zipKindName(sniff.zipKind);
        if (!sniff.torchRoot.empty())
            zip["torch_root"] = sniff.torchRoot;
        ordered_json entries = ordered_json::array();
        for (const ZipEntry& e : sniff.entries)
            entries.push_back(ordered_json{
                {"name", e.name}, {"size", e.size}, {"compressed_size", e.compressedSize}});
        zip["entries"] = std::move(entries);
        out["zip"] = std::move(zip);
    }
    if (report) {
        out["groups"] = report->groups;
        out["datasets"] = report->datasets;
        out["dataset_bytes"] = report->datasetBytes;
        if (report->keras.layout != KerasSummary::Layout::None)
            out["keras"] = keras(report->keras);
        out["tree"] = node(report->root);
    }
    if (statsList) {
        ordered_json list = ordered_json::array();
        for (const TensorStats::Entry& e : *statsList) {
            ordered_json item;
            item["path"] = e.path;
            item["shape"] = shapeJson(e.info.shape);
            item["dtype"] = e.info.dtype.name;
            if (!e.error.empty()) {
                // No numbers at all rather than zeros that look like a result.
                item["error"] = e.error;
                list.push_back(std::move(item));
                continue;
            }
            const ordered_json values = stats(e.stats);
            for (const auto& [k, v] : values.items())
                item[k] = v;
            list.push_back(std::move(item));
        }
        out["stats"] = std::move(list);
    }
    return out;
}

ordered_json ModelJson::tensor(const TensorDiffEntry& e)
{
    ordered_json out;
    const bool hasA = !e.pathA.empty();
    out["path"] = hasA ? e.pathA : e.pathB;
    out["shape"] = shapeJson(hasA ? e.shapeA : e.shapeB);
    out["dtype"] = hasA ? e.dtypeA.name : e.dtypeB.name;
    out["l2_diff"] = number(e.l2Diff);
    out["rel_change"] = number(e.relChange);
    out["max_abs_diff"] = number(e.maxAbsDiff);
    out["cosine"] = number(e.cosine);
    out["status"] = TensorDiff::statusName(e.status);
    if (!e.error.empty())
        out["error"] = e.error;
    out["key"] = e.key;
    out["layer"] = e.layer;
    if (hasA && !e.pathB.empty() && e.pathB != e.pathA)
        out["path_b"] = e.pathB;
    if (e.status == TensorDiffEntry::Status::ShapeMismatch) {
        out["shape_a"] = shapeJson(e.shapeA);
        out["shape_b"] = shapeJson(e.shapeB);
    }
    if (e.status == TensorDiffEntry::Status::DtypeMismatch)
        out["dtype_b"] = e.dtypeB.name;
    if (e.compared) {
        out["rel_change_inf"] = std::isinf(e.relChange);
        out["norm_a"] = number(e.normA);
        out["norm_b"] = number(e.normB);
        out["elements"] = e.elements;
        out["changed_elements"] = e.changedElements;
        out["nan_a"] = e.nanA;
        out["nan_b"] = e.nanB;
        out["inf_a"] = e.infA;
        out["inf_b"] = e.infB;
        out["non_finite_appeared"] = e.nonFiniteAppeared;
    }
    return out;
}

ordered_json ModelJson::layer(const LayerDiff& l)
{
    ordered_json out;
    out["name"] = l.name;
    out["tensors"] = l.tensors;
    out["same"] = l.same;
    out["changed"] = l.changed;
    out["only_a"] = l.onlyA;
    out["only_b"] = l.onlyB;
    out["mismatched"] = l.mismatched;
    out["unreadable"] = l.unreadable;
    out["elements"] = l.elements;
    out["l2_diff"] = number(l.l2Diff);
    out["rel_change"] = number(l.relChange);
    out["rel_change_inf"] = std::isinf(l.relChange);
    out["max_abs_diff"] = number(l.maxAbsDiff);
    out["cosine"] = number(l.cosine);
    out["norm_a"] = number(l.normA);
    out["norm_b"] = number(l.normB);
    out["non_finite_appeared"] = l.nonFiniteAppeared;
    return out;
}

ordered_json ModelJson::diff(const ModelDiff& d)
{
    ordered_json out;
    out["file_a"] = d.fileA;
    out["file_b"] = d.fileB;
    ordered_json tensors = ordered_json::array();
    for (const TensorDiffEntry& e : d.tensors)
        tensors.push_back(tensor(e));
    out["tensors"] = std::move(tensors);
    ordered_json layers = ordered_json::array();
    for (const LayerDiff& l : d.layers)
        layers.push_back(layer(l));
    out["layers"] = std::move(layers);
    return out;
}

} // namespace ckpt
