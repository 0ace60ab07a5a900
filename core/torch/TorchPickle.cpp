#include "torch/TorchPickle.h"

#include "torch/PickleMachine.h"

#include <cstdio>

namespace ckpt {

namespace {

using namespace pickle;

std::string keyText(const Ref& key)
{
    if (auto* s = std::get_if<std::string>(&key->v))
        return *s;
    if (auto* i = std::get_if<std::int64_t>(&key->v))
        return std::to_string(*i);
    return {};
}

std::optional<std::string> scalarText(const Ref& v)
{
    if (auto* s = std::get_if<std::string>(&v->v))
        return *s;
    if (auto* i = std::get_if<std::int64_t>(&v->v))
        return std::to_string(*i);
    if (auto* b = std::get_if<bool>(&v->v))
        return *b ? "true" : "false";
    if (auto* d = std::get_if<double>(&v->v)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", *d);
        return buf;
    }
    return std::nullopt;
}

void flatten(const Ref& v, const std::string& path, std::size_t depth, std::size_t& visits,
             TorchPickle::Parsed& out)
{
    if (visits == 0)
        return;
    if (--visits == 0) {
        out.notes.push_back((path.empty() ? "the top level" : path) + ": more than " +
                            std::to_string(kMaxVisits) +
                            " values (shared or self-referencing): the rest is not read");
        return;
    }
    if (auto* t = std::get_if<TorchTensorRef>(&v->v)) {
        TorchTensorRef copy = *t;
        copy.name = path.empty() ? "tensor" : path;
        out.tensors.push_back(std::move(copy));
        return;
    }
    if (auto* o = std::get_if<Opaque>(&v->v)) {
        if (o->holdsStorage)
            out.notes.push_back((path.empty() ? "the top level" : path) + ": built by " + o->what +
                                ", not a plain tensor: not read");
        return;
    }
    if (depth >= kMaxDepth) {
        out.notes.push_back(path + ": nested more than " + std::to_string(kMaxDepth) +
                            " levels: not read");
        return;
    }
    auto child = [&](const std::string& key) { return path.empty() ? key : path + "/" + key; };
    if (auto* d = std::get_if<Dict>(&v->v)) {
        for (const auto& [key, value] : *d) {
            const std::string k = keyText(key);
            if (k.empty()) {
                out.notes.push_back(child("?") + ": a key that is not a string or integer: "
                                                 "not read");
                continue;
            }
            if (depth == 0)
                if (auto s = scalarText(value))
                    out.scalars.emplace_back(k, *s);
            flatten(value, child(k), depth + 1, visits, out);
        }
    } else if (auto* l = std::get_if<List>(&v->v)) {
        for (std::size_t i = 0; i < l->size(); ++i)
            flatten((*l)[i], child(std::to_string(i)), depth + 1, visits, out);
    } else if (auto* tu = std::get_if<Tuple>(&v->v)) {
        for (std::size_t i = 0; i < tu->items.size(); ++i)
            flatten(tu->items[i], child(std::to_string(i)), depth + 1, visits, out);
    }
}

} // namespace

DType TorchPickle::dtypeOfStorage(std::string_view type)
{
    static const std::pair<std::string_view, DTypeKind> kTypes[] = {
        {"FloatStorage", DTypeKind::Float32}, {"DoubleStorage", DTypeKind::Float64},
        {"HalfStorage", DTypeKind::Float16},  {"BFloat16Storage", DTypeKind::BFloat16},
        {"LongStorage", DTypeKind::Int64},    {"IntStorage", DTypeKind::Int32},
        {"ShortStorage", DTypeKind::Int16},   {"CharStorage", DTypeKind::Int8},
        {"ByteStorage", DTypeKind::UInt8},    {"BoolStorage", DTypeKind::Bool},
    };
    for (const auto& [name, kind] : kTypes)
        if (type == name)
            return DType::of(kind);
    DType other;
    other.name = std::string(type);
    return other;
}

Result<TorchPickle::Parsed> TorchPickle::parse(std::string_view data, const std::string& where)
{
    Machine machine(data, where);
    auto top = machine.run();
    if (!top)
        return top.error();
    Parsed out;
    std::size_t visits = kMaxVisits;
    flatten(*top, {}, 0, visits, out);
    return out;
}

} // namespace ckpt
