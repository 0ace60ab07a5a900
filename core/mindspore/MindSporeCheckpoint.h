#pragma once

#include "common/Result.h"
#include "layout/UniqueFd.h"
#include "tensor/TensorSource.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// A MindSpore `.ckpt` file: protobuf `Checkpoint{repeated Value value = 1}`,
// `Value{tag = 1; TensorProto tensor = 2}`, `TensorProto{dims = 1;
// tensor_type = 2; tensor_content = 3}`, written as one serialised Checkpoint
// per parameter (so a file is a concatenation of them), with tensors over
// 512 MiB split into several Values of the same tag and the full dims, and an
// optional trailer `crc_num` + 10 decimal digits: the CRC-32 of all bytes before it.
//
// open() walks the wire format through a small buffer and records where each
// tensor_content lies; read() seeks there. Memory stays bounded whatever the
// file size. Unknown fields (map tensors, newer additions) are skipped and counted.
class MindSporeCheckpoint final : public TensorSource
{
public:
    static constexpr std::string_view kCrcMark = "crc_num";
    static constexpr std::uint64_t kTrailerBytes = 17; // "crc_num" + 10 digits

    struct Trailer
    {
        std::uint64_t dataBytes = 0; // bytes the CRC covers (the protobuf part)
        std::string expected;        // the 10 digits as written, leading zeros stripped
    };
    // The CRC trailer of an open file of `size` bytes, when it has one.
    static std::optional<Trailer> readTrailer(int fd, std::uint64_t size);
    static std::optional<Trailer> readTrailer(const std::string& path);

    static bool sniff(std::string_view head, std::string_view fileName);
    static Result<std::unique_ptr<TensorSource>> open(const std::string& path);

    // Recomputes the CRC of the protobuf part and compares it with the trailer:
    // true/false, std::nullopt when the file has no trailer; Error for I/O.
    Result<std::optional<bool>> verifyCrc() const;

    std::string_view format() const override { return "mindspore"; }
    const std::string& path() const override { return m_path; }
    const std::vector<TensorInfo>& tensors() const override { return m_tensors; }
    std::vector<std::pair<std::string, std::string>> attributes() const override;
    std::vector<std::string> problems() const override { return m_problems; }
    Status read(std::size_t index, std::uint64_t first, std::uint64_t count,
                void* out) const override;

    // MindSpore's element type name ("Float32", "BFloat16", ...) as a DType.
    static DType dtypeOf(std::string_view tensorType);

private:
    struct Part
    {
        std::uint64_t offset = 0;
        std::uint64_t bytes = 0;
    };
    struct Parts
    {
        std::vector<Part> parts;
    };

    MindSporeCheckpoint() = default;
    Status list();
    bool readValue(class ProtoCursor& cursor);
    void finish();
    std::optional<std::int64_t> scalar(std::string_view tag) const;

    std::string m_path;
    UniqueFd m_fd;
    std::uint64_t m_size = 0;
    std::optional<Trailer> m_trailer;
    std::vector<TensorInfo> m_tensors;
    std::vector<Parts> m_parts; // per tensor
    std::vector<std::string> m_problems;
    std::uint64_t m_skippedFields = 0;
};

} // namespace ckpt
