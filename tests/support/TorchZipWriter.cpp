#include "TorchZipWriter.h"

#include <cstring>
#include <map>
#include <zip.h>

namespace ckpt::test {

namespace {

using Storages = std::vector<std::pair<std::string, std::string>>;

struct Pickler
{
    std::string out;
    int memo = 0;
    std::map<std::string, int> globals; // "module\nname" -> memo index
    Storages* storages = nullptr;

    void put()
    {
        if (memo < 256) {
            out += 'q';
            out += static_cast<char>(memo);
        } else {
            out += 'r';
            for (int i = 0; i < 4; ++i)
                out += static_cast<char>((memo >> (8 * i)) & 0xff);
        }
        ++memo;
    }
    void get(int index)
    {
        if (index < 256) {
            out += 'h';
            out += static_cast<char>(index);
        } else {
            out += 'j';
            for (int i = 0; i < 4; ++i)
                out += static_cast<char>((index >> (8 * i)) & 0xff);
        }
    }
    void global(const std::string& module, const std::string& name)
    {
        const std::string key = module + "\n" + name;
        if (auto it = globals.find(key); it != globals.end()) {
            get(it->second);
            return;
        }
        out += 'c' + module + "\n" + name + "\n";
        globals[key] = memo;
        put();
    }
    void integer(std::int64_t v)
    {
        if (v >= 0 && v < 256) {
            out += 'K';
            out += static_cast<char>(v);
        } else if (v >= 0 && v < 65536) {
            out += 'M';
            out += static_cast<char>(v & 0xff);
            out += static_cast<char>(v >> 8);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            out += 'J';
            for (int i = 0; i < 4; ++i)
                out += static_cast<char>((static_cast<std::uint32_t>(v) >> (8 * i)) & 0xff);
        } else {
            out += '\x8a';
            out += '\x08';
            for (int i = 0; i < 8; ++i)
                out += static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff);
        }
    }
    void string(const std::string& s)
    {
        out += 'X'; // BINUNICODE: what protocol 2 writes for str
        const auto n = static_cast<std::uint32_t>(s.size());
        for (int i = 0; i < 4; ++i)
            out += static_cast<char>((n >> (8 * i)) & 0xff);
        out += s;
        put();
    }
    void real(double v)
    {
        out += 'G';
        std::uint64_t bits = 0;
        std::memcpy(&bits, &v, 8);
        for (int i = 7; i >= 0; --i)
            out += static_cast<char>((bits >> (8 * i)) & 0xff);
    }
    static std::string storageType(const std::string& dtype)
    {
        if (dtype == "float32")
            return "FloatStorage";
        if (dtype == "float16")
            return "HalfStorage";
        if (dtype == "int64")
            return "LongStorage";
        if (dtype == "float64")
            return "DoubleStorage";
        return "ByteStorage";
    }
    static std::int64_t elementSize(const std::string& dtype)
    {
        return dtype == "float16" ? 2 : dtype == "float32" ? 4 : dtype == "uint8" ? 1 : 8;
    }
    void tensor(const TorchZipWriter::Tensor& t)
    {
        global("torch._utils", "_rebuild_tensor_v2");
        out += '(';
        // The persistent id: ('storage', torch.<Type>Storage, key, 'cpu', numel).
        out += '(';
        string("storage");
        global("torch", storageType(t.dtype));
        const std::string key = t.key.empty() ? std::to_string(storages->size()) : t.key;
        string(key);
        string("cpu");
        const std::int64_t numel =
            t.numelOverride >= 0 ? t.numelOverride
                                 : static_cast<std::int64_t>(t.data.size()) / elementSize(t.dtype);
        integer(numel);
        out += 't';
        put();
        out += 'Q';
        storages->emplace_back(key, t.data);
        integer(t.storageOffset);
        tuple(t.shape);
        std::vector<std::int64_t> stride = t.stride;
        if (stride.empty()) {
            stride.resize(t.shape.size());
            std::int64_t s = 1;
            for (std::size_t i = t.shape.size(); i-- > 0;) {
                stride[i] = s;
                s *= t.shape[i];
            }
        }
        tuple(stride);
        out += '\x89'; // requires_grad=False
        global("collections", "OrderedDict");
        out += ')';
        out += 'R';
        put();
        out += 't';
        put();
        out += 'R';
        put();
    }
    void tuple(const std::vector<std::int64_t>& v)
    {
        if (v.empty()) {
            out += ')';
            return;
        }
        if (v.size() <= 3) {
            for (auto x : v)
                integer(x);
            out += static_cast<char>(0x84 + v.size());
        } else {
            out += '(';
            for (auto x : v)
                integer(x);
            out += 't';
        }
        put();
    }
    void value(const TorchZipWriter::Value& v)
    {
        using K = TorchZipWriter::Value::Kind;
        switch (v.kind) {
        case K::None:
            out += 'N';
            break;
        case K::Int:
            integer(v.i);
            break;
        case K::Float:
            real(v.f);
            break;
        case K::Str:
            string(v.s);
            break;
        case K::Bool:
            out += v.i ? '\x88' : '\x89';
            break;
        case K::Tensor:
            tensor(v.tensor);
            break;
        case K::Dict:
        case K::OrderedDict:
            if (v.kind == K::OrderedDict) {
                global("collections", "OrderedDict");
                out += ')';
                out += 'R';
            } else {
                out += '}';
            }
            put();
            if (!v.items.empty()) {
                out += '(';
                for (const auto& keyOrItem : v.items)
                    value(keyOrItem);
                out += 'u';
            }
            break;
        case K::List:
            out += ']';
            put();
            if (!v.list.empty()) {
                out += '(';
                for (const auto& item : v.list)
                    value(item);
                out += 'e';
            }
            break;
        }
    }
};

std::string bytesOf(const void* p, std::size_t n)
{
    return std::string(static_cast<const char*>(p), n);
}

} // namespace

TorchZipWriter::Value TorchZipWriter::integer(std::int64_t v)
{
    Value out;
    out.kind = Value::Kind::Int;
    out.i = v;
    return out;
}

TorchZipWriter::Value TorchZipWriter::real(double v)
{
    Value out;
    out.kind = Value::Kind::Float;
    out.f = v;
    return out;
}

TorchZipWriter::Value TorchZipWriter::str(std::string v)
{
    Value out;
    out.kind = Value::Kind::Str;
    out.s = std::move(v);
    return out;
}

TorchZipWriter::Value TorchZipWriter::boolean(bool v)
{
    Value out;
    out.kind = Value::Kind::Bool;
    out.i = v;
    return out;
}

TorchZipWriter::Value TorchZipWriter::tensor(Tensor t)
{
    Value out;
    out.kind = Value::Kind::Tensor;
    out.tensor = std::move(t);
    return out;
}

TorchZipWriter::Value TorchZipWriter::dict(std::vector<std::pair<Value, Value>> items, bool ordered)
{
    Value out;
    out.kind = ordered ? Value::Kind::OrderedDict : Value::Kind::Dict;
    out.items.reserve(2 * items.size());
    for (auto& [key, item] : items) {
        out.items.push_back(std::move(key));
        out.items.push_back(std::move(item));
    }
    return out;
}

TorchZipWriter::Value TorchZipWriter::list(std::vector<Value> items)
{
    Value out;
    out.kind = Value::Kind::List;
    out.list = std::move(items);
    return out;
}

TorchZipWriter::Tensor TorchZipWriter::floats(const std::vector<float>& v,
                                              std::vector<std::int64_t> shape)
{
    return Tensor{"float32", std::move(shape), bytesOf(v.data(), v.size() * 4), 0, -1, {}, {}};
}

TorchZipWriter::Tensor TorchZipWriter::halves(const std::vector<std::uint16_t>& bits,
                                              std::vector<std::int64_t> shape)
{
    return Tensor{"float16", std::move(shape), bytesOf(bits.data(), bits.size() * 2), 0, -1, {},
                  {}};
}

TorchZipWriter::Tensor TorchZipWriter::longs(const std::vector<std::int64_t>& v,
                                             std::vector<std::int64_t> shape)
{
    return Tensor{"int64", std::move(shape), bytesOf(v.data(), v.size() * 8), 0, -1, {}, {}};
}

std::string TorchZipWriter::pickle(const Value& top, Storages* storages)
{
    Pickler p;
    Storages local;
    p.storages = storages ? storages : &local;
    p.out = "\x80\x02";
    p.value(top);
    p.out += '.';
    return p.out;
}

bool TorchZipWriter::writeRaw(const std::filesystem::path& path, const std::string& pkl,
                              const Storages& storages, const std::string& archiveName)
{
    int err = 0;
    zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!z)
        return false;
    // libzip copies nothing until zip_close: keep every buffer alive until then.
    std::vector<std::string> keep;
    keep.reserve(storages.size() + 3);
    auto add = [&](const std::string& name, const std::string& data) {
        keep.push_back(data);
        zip_source_t* src = zip_source_buffer(z, keep.back().data(), keep.back().size(), 0);
        const zip_int64_t at = src ? zip_file_add(z, name.c_str(), src, ZIP_FL_OVERWRITE) : -1;
        if (at < 0) {
            zip_source_free(src);
            return false;
        }
        return zip_set_file_compression(z, static_cast<zip_uint64_t>(at), ZIP_CM_STORE, 0) == 0;
    };
    bool ok = add(archiveName + "/data.pkl", pkl) && add(archiveName + "/byteorder", "little");
    for (const auto& [key, data] : storages)
        ok = ok && add(archiveName + "/data/" + key, data);
    ok = ok && add(archiveName + "/version", "3\n");
    if (!ok) {
        zip_discard(z);
        return false;
    }
    return zip_close(z) == 0;
}

bool TorchZipWriter::write(const std::filesystem::path& path, const Value& top,
                           const std::string& archiveName)
{
    Storages storages;
    const std::string pkl = pickle(top, &storages);
    // A storage shared by two tensors is written once.
    Storages unique;
    for (auto& s : storages) {
        bool seen = false;
        for (const auto& u : unique)
            seen = seen || u.first == s.first;
        if (!seen)
            unique.push_back(std::move(s));
    }
    return writeRaw(path, pkl, unique, archiveName);
}

TorchZipWriter::Value TorchZipWriter::lightningCheckpoint(int epoch, std::int64_t step, float shift)
{
    std::vector<float> w(12), b(3);
    for (int i = 0; i < 12; ++i)
        w[static_cast<std::size_t>(i)] = 0.25f * static_cast<float>(i) - 1.0f + shift;
    for (int i = 0; i < 3; ++i)
        b[static_cast<std::size_t>(i)] = 0.5f * static_cast<float>(i) + shift;
    // float16 1.0, 2.0, -0.5, 0.25
    const std::vector<std::uint16_t> half{0x3c00, 0x4000, 0xb800, 0x3400};
    Value stateDict = dict({{str("layer1.weight"), tensor(floats(w, {3, 4}))},
                            {str("layer1.bias"), tensor(floats(b, {3}))},
                            {str("norm.scale"), tensor(halves(half, {4}))},
                            {str("norm.num_batches_tracked"), tensor(longs({step}, {}))}},
                           true);
    std::vector<float> m(12, 0.01f * static_cast<float>(epoch + 1));
    std::vector<float> v(12, 0.001f);
    Value state = dict({{integer(0), dict({{str("step"), tensor(floats({float(step)}, {}))},
                                           {str("exp_avg"), tensor(floats(m, {3, 4}))},
                                           {str("exp_avg_sq"), tensor(floats(v, {3, 4}))}})}});
    Value group = dict({{str("lr"), real(0.001)},
                        {str("weight_decay"), real(0.0)},
                        {str("params"), list({integer(0), integer(1)})}});
    Value optimizer = dict({{str("state"), state}, {str("param_groups"), list({group})}});
    return dict(
        {{str("epoch"), integer(epoch)},
         {str("global_step"), integer(step)},
         {str("pytorch-lightning_version"), str("2.1.0")},
         {str("state_dict"), stateDict},
         {str("loops"), dict({{str("fit_loop"), dict({{str("epoch_progress"), integer(epoch)}})}})},
         {str("optimizer_states"), list({optimizer})},
         {str("lr_schedulers"), list({})}});
}

} // namespace ckpt::test
