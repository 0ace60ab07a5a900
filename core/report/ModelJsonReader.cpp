#include "report/ModelJsonReader.h"

#include <limits>

namespace ckpt {

using Json = nlohmann::ordered_json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double number(const Json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : kNaN;
}

template <typename T> T count(const Json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number_unsigned() ? it->get<T>() : T{};
}

std::string text(const Json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::uint64_t> shape(const Json& j, const char* key)
{
    std::vector<std::uint64_t> out;
    const auto it = j.find(key);
    if (it != j.end() && it->is_array())
        for (const Json& d : *it)
            if (d.is_number_unsigned())
                out.push_back(d.get<std::uint64_t>());
    return out;
}

std::optional<TensorDiffEntry::Status> status(const std::string& name)
{
    using S = TensorDiffEntry::Status;
    for (const S s : {S::Same, S::Changed, S::OnlyA, S::OnlyB, S::ShapeMismatch, S::DtypeMismatch,
                      S::NotNumeric, S::Unreadable})
        if (TensorDiff::statusName(s) == name)
            return s;
    return std::nullopt;
}

} // namespace

DType ModelJsonReader::dtype(const std::string& name)
{
    DType d;
    for (int k = 0; k <= static_cast<int>(DTypeKind::Other); ++k)
        if (DType::kindName(static_cast<DTypeKind>(k)) == name) {
            d = DType::of(static_cast<DTypeKind>(k)); // with its element size
            break;
        }
    d.name = name;
    return d;
}

Result<ModelDiff> ModelJsonReader::diff(const Json& j)
{
    if (!j.is_object() || !j.contains("tensors") || !j["tensors"].is_array())
        return Error{"diff JSON: no \"tensors\" list", {}};
    ModelDiff d;
    d.fileA = text(j, "file_a");
    d.fileB = text(j, "file_b");
    for (const Json& t : j["tensors"]) {
        if (!t.is_object())
            return Error{"diff JSON: a tensor is not an object", {}};
        const auto s = status(text(t, "status"));
        if (!s)
            return Error{"diff JSON: unknown tensor status '" + text(t, "status") + "'", {}};
        TensorDiffEntry e;
        e.status = *s;
        e.error = text(t, "error");
        e.key = text(t, "key");
        e.layer = text(t, "layer");
        const std::string path = text(t, "path");
        const bool onlyB = *s == TensorDiffEntry::Status::OnlyB;
        e.pathA = onlyB ? std::string() : path;
        e.pathB = *s == TensorDiffEntry::Status::OnlyA ? std::string()
                  : t.contains("path_b")               ? text(t, "path_b")
                                                       : path;
        e.shapeA = onlyB ? std::vector<std::uint64_t>() : shape(t, "shape");
        e.shapeB =
            *s == TensorDiffEntry::Status::OnlyA ? std::vector<std::uint64_t>() : shape(t, "shape");
        if (t.contains("shape_a")) {
            e.shapeA = shape(t, "shape_a");
            e.shapeB = shape(t, "shape_b");
        }
        e.dtypeA = onlyB ? DType{} : dtype(text(t, "dtype"));
        e.dtypeB = *s == TensorDiffEntry::Status::OnlyA ? DType{} : dtype(text(t, "dtype"));
        if (t.contains("dtype_b"))
            e.dtypeB = dtype(text(t, "dtype_b"));
        e.l2Diff = number(t, "l2_diff");
        e.relChange = t.value("rel_change_inf", false) ? std::numeric_limits<double>::infinity()
                                                       : number(t, "rel_change");
        e.maxAbsDiff = number(t, "max_abs_diff");
        e.cosine = number(t, "cosine");
        e.compared = t.contains("norm_a");
        e.normA = number(t, "norm_a");
        e.normB = number(t, "norm_b");
        e.elements = count<std::uint64_t>(t, "elements");
        e.changedElements = count<std::uint64_t>(t, "changed_elements");
        e.nanA = count<std::uint64_t>(t, "nan_a");
        e.nanB = count<std::uint64_t>(t, "nan_b");
        e.infA = count<std::uint64_t>(t, "inf_a");
        e.infB = count<std::uint64_t>(t, "inf_b");
        e.nonFiniteAppeared = t.value("non_finite_appeared", false);
        d.tensors.push_back(std::move(e));
    }
    if (const auto layers = j.find("layers"); layers != j.end() && layers->is_array())
        for (const Json& l : *layers) {
            if (!l.is_object())
                continue;
            LayerDiff x;
            x.name = text(l, "name");
            x.tensors = count<std::size_t>(l, "tensors");
            x.same = count<std::size_t>(l, "same");
            x.changed = count<std::size_t>(l, "changed");
            x.onlyA = count<std::size_t>(l, "only_a");
            x.onlyB = count<std::size_t>(l, "only_b");
            x.mismatched = count<std::size_t>(l, "mismatched");
            x.unreadable = count<std::size_t>(l, "unreadable");
            x.elements = count<std::uint64_t>(l, "elements");
            x.l2Diff = number(l, "l2_diff");
            x.relChange = l.value("rel_change_inf", false) ? std::numeric_limits<double>::infinity()
                                                           : number(l, "rel_change");
            x.maxAbsDiff = number(l, "max_abs_diff");
            x.cosine = number(l, "cosine");
            x.normA = number(l, "norm_a");
            x.normB = number(l, "norm_b");
            x.nonFiniteAppeared = l.value("non_finite_appeared", false);
            d.layers.push_back(std::move(x));
        }
    return d;
}

} // namespace ckpt
