#include "mindspore/MindSporeCheckpoint.h"

#include "checksum/CrcReader.h"
#include "io/ProtoCursor.h"
#include "io/RegularFile.h"

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <map>

namespace ckpt {

namespace {

constexpr std::uint64_t kTagLimit = 64 * 1024;
constexpr std::uint64_t kTypeLimit = 256;
constexpr int kMaxDims = 64;

// Reads a varint from a byte view (sniffing only); false when it does not fit.
bool viewVarint(std::string_view s, std::size_t& i, std::uint64_t& v)
{
    v = 0;
    for (int shift = 0; shift < 64 && i < s.size(); shift += 7) {
        const auto b = static_cast<unsigned char>(s[i++]);
        v |= std::uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

} // namespace

DType MindSporeCheckpoint::dtypeOf(std::string_view t)
{
    static const std::map<std::string_view, DTypeKind> kinds = {
        {"Float16", DTypeKind::Float16}, {"BFloat16", DTypeKind::BFloat16},
        {"Float32", DTypeKind::Float32}, {"Float64", DTypeKind::Float64},
        {"Int8", DTypeKind::Int8},       {"Int16", DTypeKind::Int16},
        {"Int32", DTypeKind::Int32},     {"Int64", DTypeKind::Int64},
        {"UInt8", DTypeKind::UInt8},     {"UInt16", DTypeKind::UInt16},
        {"UInt32", DTypeKind::UInt32},   {"UInt64", DTypeKind::UInt64},
        {"Bool", DTypeKind::Bool},       {"str", DTypeKind::String}};
    if (auto it = kinds.find(t); it != kinds.end()) {
        DType d = DType::of(it->second);
        if (it->second == DTypeKind::String)
            d.size = 1; // UTF-8 text stored as bytes
        return d;
    }
    DType other = DType::of(DTypeKind::Other);
    other.name = "MindSpore " + std::string(t);
    other.size = 1;
    return other;
}

std::optional<MindSporeCheckpoint::Trailer> MindSporeCheckpoint::readTrailer(int fd,
                                                                             std::uint64_t size)
{
    if (size < kTrailerBytes)
        return std::nullopt;
    char tail[kTrailerBytes];
    if (!ProtoCursor::readAt(fd, tail, kTrailerBytes, size - kTrailerBytes))
        return std::nullopt;
    const std::string_view t(tail, kTrailerBytes);
    if (t.substr(0, kCrcMark.size()) != kCrcMark)
        return std::nullopt;
    const std::string_view digits = t.substr(kCrcMark.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    // Python writes str(crc).zfill(10); our CRC text is the plain decimal.
    std::uint64_t value = 0;
    for (char c : digits)
        value = value * 10 + std::uint64_t(c - '0');
    return Trailer{size - kTrailerBytes, std::to_string(value)};
}

std::optional<MindSporeCheckpoint::Trailer>
MindSporeCheckpoint::readTrailer(const std::string& path)
{
    UniqueFd fd;
    std::uint64_t size = 0;
    if (!RegularFile::openAt(AT_FDCWD, path.c_str(), fd, &size).ok())
        return std::nullopt;
    return readTrailer(fd.get(), size);
}

bool MindSporeCheckpoint::sniff(std::string_view head, std::string_view)
{
    // Checkpoint.value (field 1, bytes) whose Value starts with its tag
    // (field 1, bytes) of printable text, followed by the tensor (field 2).
    std::size_t i = 0;
    std::uint64_t len = 0;
    if (head.size() < 4 || head[i++] != '\x0a' || !viewVarint(head, i, len) || len < 4)
        return false;
    if (i >= head.size() || head[i++] != '\x0a' || !viewVarint(head, i, len) || len == 0 ||
        len > kTagLimit)
        return false;
    const std::size_t tagEnd = i + static_cast<std::size_t>(len);
    for (; i < head.size() && i < tagEnd; ++i)
        if (static_cast<unsigned char>(head[i]) < 0x20)
            return false;
    return i < tagEnd || (i < head.size() && head[i] == '\x12');
}

Result<std::unique_ptr<TensorSource>> MindSporeCheckpoint::open(const std::string& path)
{
    std::unique_ptr<MindSporeCheckpoint> ckpt(new MindSporeCheckpoint);
    ckpt->m_path = path;
    const auto outcome = RegularFile::openAt(AT_FDCWD, path.c_str(), ckpt->m_fd, &ckpt->m_size);
    if (!outcome.ok())
        return Error{outcome.message(path), path};
    ckpt->m_trailer = readTrailer(ckpt->m_fd.get(), ckpt->m_size);
    if (Status s = ckpt->list(); !s)
        return s.error();
    return std::unique_ptr<TensorSource>(std::move(ckpt));
}

Status MindSporeCheckpoint::list()
{
    const std::uint64_t end = m_trailer ? m_trailer->dataBytes : m_size;
    ProtoCursor cursor(m_fd.get(), 0, end);
    while (!cursor.atEnd()) {
        std::uint32_t field = 0, wire = 0;
        if (!cursor.readKey(field, wire))
            break;
        if (field != 1 || wire != ProtoCursor::Bytes) {
            ++m_skippedFields;
            if (!cursor.skipValue(wire))
                break;
            continue;
        }
        if (!readValue(cursor))
            break;
    }
    if (cursor.failed()) {
        const std::string what = "not a readable MindSpore checkpoint, " + cursor.error();
        if (m_tensors.empty())
            return Error::at(m_path, what);
        // What was listed before the damage stays readable.
        m_problems.push_back(m_path + ": " + what + "; the tensors after it are not listed");
    }
    if (m_tensors.empty())
        return Error::at(m_path, "not a MindSpore checkpoint: no tensors in its " +
                                     std::to_string(end) + " bytes");
    finish();
    return {};
}

bool MindSporeCheckpoint::readValue(ProtoCursor& c)
{
    std::uint64_t len = 0;
    if (!c.readLength(len))
        return false;
    const std::uint64_t outer = c.enter(len);
    std::string tag;
    std::string type;
    std::vector<std::uint64_t> dims;
    std::optional<Part> content;
    bool sawTensor = false;
    while (!c.atEnd()) {
        std::uint32_t field = 0, wire = 0;
        if (!c.readKey(field, wire))
            return false;
        if (field == 1 && wire == ProtoCursor::Bytes) {
            if (!c.readLength(len) || !c.readString(len, kTagLimit, tag))
                return false;
        } else if (field == 2 && wire == ProtoCursor::Bytes) {
            sawTensor = true;
            if (!c.readLength(len))
                return false;
            const std::uint64_t valueEnd = c.enter(len);
            while (!c.atEnd()) {
                if (!c.readKey(field, wire))
                    return false;
                std::uint64_t v = 0;
                if (field == 1 && wire == ProtoCursor::Varint) {
                    if (!c.readVarint(v))
                        return false;
                    dims.push_back(v);
                } else if (field == 1 && wire == ProtoCursor::Bytes) {
                    if (!c.readLength(len))
                        return false;
                    const std::uint64_t packedEnd = c.enter(len);
                    while (!c.atEnd() && c.readVarint(v))
                        dims.push_back(v);
                    c.leave(packedEnd);
                } else if (field == 2 && wire == ProtoCursor::Bytes) {
                    if (!c.readLength(len) || !c.readString(len, kTypeLimit, type))
                        return false;
                } else if (field == 3 && wire == ProtoCursor::Bytes) {
                    if (!c.readLength(len))
                        return false;
                    content = Part{c.pos(), len};
                    c.skip(len);
                } else {
                    ++m_skippedFields;
                    if (!c.skipValue(wire))
                        return false;
                }
                if (c.failed())
                    return false;
                if (dims.size() > kMaxDims)
                    return c.fail("more than " + std::to_string(kMaxDims) + " dimensions");
            }
            c.leave(valueEnd);
        } else {
            ++m_skippedFields; // map tensors and later additions
            if (!c.skipValue(wire))
                return false;
        }
    }
    c.leave(outer);
    if (!sawTensor)
        return true;
    auto it = std::find_if(m_tensors.begin(), m_tensors.end(),
                           [&](const TensorInfo& t) { return t.name == tag; });
    if (it == m_tensors.end()) {
        TensorInfo t;
        t.name = tag;
        t.dtype = dtypeOf(type);
        t.shape = dims;
        t.elements = 1;
        for (auto d : dims)
            t.elements = d != 0 && t.elements > UINT64_MAX / d ? UINT64_MAX : t.elements * d;
        // "moments.x" and "global_step" are optimizer state in MindSpore's naming.
        t.optimizerState = tag.rfind("moment", 0) == 0 || tag.rfind("accum", 0) == 0 ||
                           tag == "global_step" || tag == "learning_rate" || tag == "epoch_num" ||
                           tag == "step_num";
        m_tensors.push_back(std::move(t));
        m_parts.emplace_back();
        it = std::prev(m_tensors.end());
    } else if (it->dtype.name != dtypeOf(type).name || it->shape != dims) {
        m_problems.push_back(m_path + ": the parts of tensor \"" + tag +
                             "\" disagree on type or shape; only the first part's are used");
    }
    const std::size_t index = static_cast<std::size_t>(it - m_tensors.begin());
    if (content)
        m_parts[index].parts.push_back(*content);
    return true;
}

void MindSporeCheckpoint::finish()
{
    for (std::size_t i = 0; i < m_tensors.size(); ++i) {
        TensorInfo& t = m_tensors[i];
        std::uint64_t bytes = 0;
        for (const Part& p : m_parts[i].parts)
            bytes += p.bytes;
        t.bytes = bytes;
        if (m_parts[i].parts.size() > 1)
            t.note = "split in " + std::to_string(m_parts[i].parts.size()) + " parts";
        const std::uint64_t size = static_cast<std::uint64_t>(t.dtype.size > 0 ? t.dtype.size : 1);
        if (t.dtype.kind == DTypeKind::String || t.dtype.kind == DTypeKind::Other) {
            t.elements = bytes / size;
            continue;
        }
        if (t.elements > bytes / size || t.elements * size != bytes) {
            m_problems.push_back(m_path + ": tensor \"" + t.name + "\" declares " +
                                 std::to_string(t.elements) + " elements of " + t.dtype.name +
                                 " but holds " + std::to_string(bytes) + " bytes");
            t.elements = std::min(t.elements, bytes / size);
        }
    }
    if (m_skippedFields > 0)
        m_problems.push_back(m_path + ": " + std::to_string(m_skippedFields) +
                             " fields this version does not read were skipped (map tensors?)");
}

std::optional<std::int64_t> MindSporeCheckpoint::scalar(std::string_view tag) const
{
    for (std::size_t i = 0; i < m_tensors.size(); ++i) {
        const TensorInfo& t = m_tensors[i];
        if (t.name != tag || t.elements != 1)
            continue;
        if (t.dtype.kind == DTypeKind::Int64) {
            std::int64_t v = 0;
            if (read(i, 0, 1, &v))
                return v;
        } else if (t.dtype.kind == DTypeKind::Int32) {
            std::int32_t v = 0;
            if (read(i, 0, 1, &v))
                return v;
        }
    }
    return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> MindSporeCheckpoint::attributes() const
{
    std::vector<std::pair<std::string, std::string>> out;
    if (auto e = scalar("epoch_num"))
        out.emplace_back("epoch_num", std::to_string(*e));
    if (auto s = scalar("step_num"))
        out.emplace_back("step_num", std::to_string(*s));
    out.emplace_back("crc_trailer", m_trailer ? m_trailer->expected : std::string("none"));
    return out;
}

Status MindSporeCheckpoint::read(std::size_t index, std::uint64_t first, std::uint64_t count,
                                 void* out) const
{
    if (index >= m_tensors.size())
        return Error::at(m_path, "no tensor #" + std::to_string(index));
    const TensorInfo& t = m_tensors[index];
    if (first > t.elements || count > t.elements - first)
        return Error::at(m_path, "elements " + std::to_string(first) + "+" + std::to_string(count) +
                                     " are outside tensor \"" + t.name + "\" (" +
                                     std::to_string(t.elements) + " elements)");
    const auto size = static_cast<std::uint64_t>(t.dtype.size > 0 ? t.dtype.size : 1);
    std::uint64_t skip = first * size;
    std::uint64_t want = count * size;
    auto* dst = static_cast<char*>(out);
    for (const Part& p : m_parts[index].parts) {
        if (want == 0)
            break;
        if (skip >= p.bytes) {
            skip -= p.bytes;
            continue;
        }
        const std::uint64_t n = std::min(want, p.bytes - skip);
        if (!ProtoCursor::readAt(m_fd.get(), dst, n, p.offset + skip))
            return Error::at(m_path, "cannot read tensor \"" + t.name + "\" at byte " +
                                         std::to_string(p.offset + skip) +
                                         ": the file changed or is unreadable");
        dst += n;
        want -= n;
        skip = 0;
    }
    if (want != 0)
        return Error::at(m_path, "tensor \"" + t.name + "\" holds fewer bytes than it declares");
    return {};
}

Result<std::optional<bool>> MindSporeCheckpoint::verifyCrc() const
{
    if (!m_trailer)
        return std::optional<bool>{};
    CrcReader reader;
    auto crc = reader.crcRange(m_fd.get(), m_path, 0, m_trailer->dataBytes);
    if (!crc)
        return crc.error();
    return std::optional<bool>(std::to_string(crc->crc) == m_trailer->expected);
}

} // namespace ckpt
