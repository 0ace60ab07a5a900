#pragma once

#include "common/Result.h"
#include "hdf5/DType.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ckpt {

// One tensor of a non-HDF5 model file, as its reader found it.
struct TensorInfo
{
    std::string name; // the format's own key: "state_dict/layer1.weight", a MindSpore tag, ...
    DType dtype;
    std::vector<std::uint64_t> shape;
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0; // bytes of element data in the file
    std::string note;        // what a user should know ("split in 3 parts", "storage 4 @ 16")
    // The layer the tensor belongs to in per-layer summaries; empty: derived from
    // the name ("a/b.c.weight" -> "a/b.c").
    std::string layer;
    // Optimizer state or a step counter, not the model's weights (hidden from
    // weight diffs by default).
    bool optimizerState = false;
};

// A model file that is not HDF5 (torch zip, MindSpore protobuf, Caffe2 minidb,
// Synalinks variables JSON): its tensors listed up front, their elements read
// on demand in blocks, so statistics and diffs stream with bounded memory just
// as the HDF5 path does. Implementations are opened by TensorSources::open and
// are safe to read from one thread at a time.
class TensorSource
{
public:
    virtual ~TensorSource() = default;

    // Short format name for display and JSON ("torch", "mindspore", ...).
    virtual std::string_view format() const = 0;
    virtual const std::string& path() const = 0;
    virtual const std::vector<TensorInfo>& tensors() const = 0;
    // File-level facts worth showing (MindSpore epoch_num, torch archive
    // version, CRC trailer state, ...), in display order.
    virtual std::vector<std::pair<std::string, std::string>> attributes() const { return {}; }
    // Problems found while listing that do not stop the rest from being read
    // (a truncated last record, a bad CRC trailer), each naming the file.
    virtual std::vector<std::string> problems() const { return {}; }

    // Reads elements [first, first + count) of tensors()[index] into `out`
    // (count * dtype.size bytes) in native byte order, undecoded (float16 and
    // bfloat16 stay raw; ElementDecoder turns them into doubles).
    virtual Status read(std::size_t index, std::uint64_t first, std::uint64_t count,
                        void* out) const = 0;
};

// How a format is recognised and opened. `sniff` looks at the first bytes and
// the file name only; `open` reads the tensor list (never all the data).
struct TensorFormat
{
    std::string_view name;
    bool (*sniff)(std::string_view head, std::string_view fileName);
    Result<std::unique_ptr<TensorSource>> (*open)(const std::string& path);
};

class TensorSources
{
public:
    // Every non-HDF5 tensor format the core reads.
    static const std::vector<TensorFormat>& formats();
    // Opens `path` with the first format whose sniff accepts its first 4 KiB.
    // Error naming the file when none does or the file cannot be read.
    static Result<std::unique_ptr<TensorSource>> open(const std::string& path);
    // Would open() find a format for `path`? (reads its first 4 KiB)
    static bool recognises(const std::string& path);
};

} // namespace ckpt
