#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ckpt::test {

// Writes torch.save zip archives byte for byte as torch (protocol 2, the
// _rebuild_tensor_v2 form, one stored entry per storage) does, via libzip, so
// tests need no Python. Values are a small Python-like tree.
class TorchZipWriter
{
public:
    struct Tensor
    {
        std::string dtype;                // "float32", "float16", "int64", "float64"
        std::vector<std::int64_t> shape;  // empty: a 0-d tensor
        std::string data;                 // little-endian elements of the whole storage
        std::int64_t storageOffset = 0;   // in elements
        std::int64_t numelOverride = -1;  // >= 0: the numel data.pkl claims
        std::vector<std::int64_t> stride; // empty: contiguous
        std::string key;                  // storage key; empty: the next number
    };

    struct Value
    {
        enum class Kind
        {
            None,
            Int,
            Float,
            Str,
            Bool,
            Tensor,
            Dict,
            OrderedDict,
            List
        };
        Kind kind = Kind::None;
        std::int64_t i = 0;
        double f = 0;
        std::string s;
        Tensor tensor;
        // Dict/OrderedDict: key, value, key, value... (Str or Int keys). Flat:
        // a pair of Values inside Value is an incomplete type to clang 14.
        std::vector<Value> items;
        std::vector<Value> list;
    };

    static Value integer(std::int64_t v);
    static Value real(double v);
    static Value str(std::string v);
    static Value boolean(bool v);
    static Value tensor(Tensor t);
    static Value dict(std::vector<std::pair<Value, Value>> items, bool ordered = false);
    static Value list(std::vector<Value> items);

    static Tensor floats(const std::vector<float>& v, std::vector<std::int64_t> shape);
    static Tensor halves(const std::vector<std::uint16_t>& bits, std::vector<std::int64_t> shape);
    static Tensor longs(const std::vector<std::int64_t>& v, std::vector<std::int64_t> shape);

    // The data.pkl bytes for `top`; storages (key, bytes) in first-seen order.
    static std::string pickle(const Value& top,
                              std::vector<std::pair<std::string, std::string>>* storages);
    // Writes the archive (root folder `archiveName`), returns false on failure.
    static bool write(const std::filesystem::path& path, const Value& top,
                      const std::string& archiveName = "archive");
    // Writes an archive whose data.pkl is `pkl` verbatim (hostile cases).
    static bool writeRaw(const std::filesystem::path& path, const std::string& pkl,
                         const std::vector<std::pair<std::string, std::string>>& storages,
                         const std::string& archiveName = "archive");

    // A Lightning checkpoint dict: epoch, global_step, state_dict (OrderedDict
    // of `layer.weight`/`layer.bias` float32, a float16 and an int64 buffer),
    // optimizer_states with Adam's exp_avg/exp_avg_sq per parameter, a nested
    // loops dict. `shift` is added to every weight (diff tests).
    static Value lightningCheckpoint(int epoch, std::int64_t step, float shift = 0.0f);
};

} // namespace ckpt::test
