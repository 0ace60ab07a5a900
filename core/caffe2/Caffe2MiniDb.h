#pragma once

#include "common/Result.h"
#include "layout/UniqueFd.h"
#include "tensor/TensorSource.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// A Caffe2 minidb (caffe2/core/db.cc MiniDB), as CheckpointManager saves a
// node's blobs: records `[int key_len][int value_len][key][value]` in native
// (little-endian) byte order, both lengths positive, each value a serialised
// BlobProto{name = 1; type = 2; tensor = 3: TensorProto{dims = 1; data_type = 2;
// float_data = 3; int32_data = 4; byte_data = 5; string_data = 6; name = 7;
// double_data = 9; int64_data = 10; segment = 11; raw_data = 13;
// data_format = 15}} (caffe2/proto/caffe2.proto). Which field holds which type
// follows caffe2/core/blob_serialization.cc: narrow types in int32_data or, as
// raw bytes, in byte_data; a FLOAT as bfloat16 in raw_data when data_format is
// FMT_BFLOAT16.
//
// open() walks the records and the protobuf wire format through a small buffer,
// recording where each tensor's elements lie; read() seeks there (packed varint
// fields are decoded as they are read). A blob saved in chunks (records with a
// `segment`, keys `<name>#%<chunk index>`) is one tensor joined from its segments.
class Caffe2MiniDb final : public TensorSource
{
public:
    static bool sniff(std::string_view head, std::string_view fileName);
    static Result<std::unique_ptr<TensorSource>> open(const std::string& path);

    std::string_view format() const override { return "caffe2"; }
    const std::string& path() const override { return m_path; }
    const std::vector<TensorInfo>& tensors() const override { return m_tensors; }
    std::vector<std::pair<std::string, std::string>> attributes() const override;
    std::vector<std::string> problems() const override { return m_problems; }
    Status read(std::size_t index, std::uint64_t first, std::uint64_t count,
                void* out) const override;

    // Caffe2's TensorProto.DataType number as a DType.
    static DType dtypeOf(int dataType);

private:
    enum class Encoding
    {
        Fixed,    // elements back to back, little-endian (float_data, raw_data, ...)
        Varint32, // packed int32_data: one varint per element
        Varint64, // packed int64_data
    };
    struct Part
    {
        std::uint64_t begin = 0; // first element of the tensor this part holds
        std::uint64_t count = 0;
        Encoding encoding = Encoding::Fixed;
        std::uint64_t offset = 0; // file offset of the field's bytes
        std::uint64_t bytes = 0;
    };
    struct Record;

    Caffe2MiniDb() = default;
    Status list();
    bool readBlob(class ProtoCursor& c, Record& record);
    void add(Record&& record);
    void finish();
    Status readPart(const TensorInfo& t, const Part& p, std::uint64_t first, std::uint64_t count,
                    char* out) const;

    std::string m_path;
    UniqueFd m_fd;
    std::uint64_t m_size = 0;
    std::uint64_t m_records = 0;
    std::vector<TensorInfo> m_tensors;
    std::vector<std::vector<Part>> m_parts;
    std::vector<std::string> m_problems;
    std::uint64_t m_skipped = 0;
    // Where the last varint read stopped: block-by-block reads of a varint field
    // continue from there instead of walking it from its start each time.
    struct Resume
    {
        const Part* part = nullptr;
        std::uint64_t element = 0;
        std::uint64_t offset = 0;
    };
    mutable Resume m_resume;
};

} // namespace ckpt
