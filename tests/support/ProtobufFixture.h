#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ckpt::test {

// One MindSpore parameter as save_checkpoint writes it.
struct MsTensor
{
    std::string tag;
    std::string type; // "Float32", "Float16", "Int64", ...
    std::vector<std::int64_t> dims;
    std::string content; // raw little-endian elements
    int parts = 1;       // > 1: split across Values of the same tag, as for > 512 MiB
};

// One Caffe2 blob as a minidb record value (a serialised BlobProto).
struct C2Blob
{
    std::string name;
    std::vector<std::int64_t> dims;
    std::vector<float> floats;
    std::vector<std::int32_t> ints; // used instead of floats when not empty (INT32)
    // > 0: a segment [begin, end) of a tensor saved in chunks.
    std::int64_t segmentBegin = -1, segmentEnd = -1;
    // Used instead of both when not empty: elements of `dataType` (a
    // TensorProto.DataType number) as raw little-endian bytes in byte_data, as
    // Caffe2 writes them with caffe2_serialize_using_bytes_as_holder.
    std::string byteData;
    int dataType = 0;
    // Used instead of all when not empty: a FLOAT tensor saved as bfloat16 bit
    // patterns in raw_data with data_format FMT_BFLOAT16.
    std::vector<std::uint16_t> bfloat16;
};

// Writes MindSpore checkpoints and Caffe2 minidb files with real protobuf
// encoding (the classes generated from core's own .proto files).
class ProtobufFixture
{
public:
    static std::string floats(const std::vector<float>& v);
    static std::string halfs(const std::vector<std::uint16_t>& bits);
    static std::string int64s(const std::vector<std::int64_t>& v);

    // The bytes of a MindSpore .ckpt: one Checkpoint per Value (as MindSpore
    // writes them), then the `crc_num` trailer when `crc`.
    static std::string mindspore(const std::vector<MsTensor>& tensors, bool crc);
    // A small network: conv.weight (2x3 float32), conv.bias (4 float16),
    // fc.weight split in 3 parts, epoch_num and step_num; `shift` moves
    // conv.weight's values (two epochs differ by it).
    static std::vector<MsTensor> network(int epoch, int step, float shift = 0.0f);
    // Writes bytes (mode 0400 when `readOnly`, as MindSpore leaves its files).
    static void write(const std::filesystem::path& path, const std::string& bytes,
                      bool readOnly = false);

    // A minidb: records [int32 key_len][int32 value_len][key][value].
    static std::string minidb(const std::vector<C2Blob>& blobs);
};

} // namespace ckpt::test
