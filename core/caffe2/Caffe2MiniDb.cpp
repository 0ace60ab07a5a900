#include "caffe2/Caffe2MiniDb.h"

#include "io/ProtoCursor.h"
#include "io/RegularFile.h"

#include <algorithm>
#include <cstring>
#include <fcntl.h>

namespace ckpt {

namespace {

constexpr std::uint64_t kKeyLimit = 64 * 1024;
constexpr int kMaxDims = 64;

std::int32_t int32At(std::string_view s, std::size_t at)
{
    std::int32_t v = 0;
    std::memcpy(&v, s.data() + at, 4);
    return v;
}

} // namespace

// One record's blob as found: its tensor's facts and where its elements lie.
struct Caffe2MiniDb::Record
{
    std::string key;
    std::string name;
    std::string type;
    bool hasTensor = false;
    int dataType = 1;   // FLOAT, the proto default
    int dataFormat = 0; // FMT_PROTOBUF
    std::vector<std::uint64_t> dims;
    std::int64_t segBegin = -1, segEnd = -1;
    std::vector<Part> data; // the element fields present (normally one)
    std::uint64_t strings = 0;
};

DType Caffe2MiniDb::dtypeOf(int t)
{
    switch (t) {
    case 1:
        return DType::of(DTypeKind::Float32);
    case 2:
        return DType::of(DTypeKind::Int32);
    case 3:
        return DType::of(DTypeKind::UInt8); // BYTE
    case 4:
        return DType::of(DTypeKind::String);
    case 5:
        return DType::of(DTypeKind::Bool);
    case 6:
        return DType::of(DTypeKind::UInt8);
    case 7:
        return DType::of(DTypeKind::Int8);
    case 8:
        return DType::of(DTypeKind::UInt16);
    case 9:
        return DType::of(DTypeKind::Int16);
    case 10:
        return DType::of(DTypeKind::Int64);
    case 12:
        return DType::of(DTypeKind::Float16);
    case 13:
        return DType::of(DTypeKind::Float64);
    default: {
        DType d = DType::of(DTypeKind::Other);
        d.name = "caffe2 data_type " + std::to_string(t);
        return d;
    }
    }
}

bool Caffe2MiniDb::sniff(std::string_view head, std::string_view)
{
    // [key_len][value_len][printable key][BlobProto starting with its name (field 1)].
    if (head.size() < 10)
        return false;
    const std::int32_t kl = int32At(head, 0);
    const std::int32_t vl = int32At(head, 4);
    if (kl <= 0 || kl > 4000 || vl < 2 || std::size_t(8 + kl) >= head.size())
        return false;
    for (std::size_t i = 8; i < std::size_t(8 + kl); ++i)
        if (static_cast<unsigned char>(head[i]) < 0x20)
            return false;
    return head[std::size_t(8 + kl)] == '\x0a';
}

Result<std::unique_ptr<TensorSource>> Caffe2MiniDb::open(const std::string& path)
{
    std::unique_ptr<Caffe2MiniDb> db(new Caffe2MiniDb);
    db->m_path = path;
    const auto outcome = RegularFile::openAt(AT_FDCWD, path.c_str(), db->m_fd, &db->m_size);
    if (!outcome.ok())
        return Error{outcome.message(path), path};
    if (Status s = db->list(); !s)
        return s.error();
    return std::unique_ptr<TensorSource>(std::move(db));
}

Status Caffe2MiniDb::list()
{
    std::uint64_t pos = 0;
    std::string failure;
    while (pos < m_size) {
        char lens[8];
        if (m_size - pos < 8 || !ProtoCursor::readAt(m_fd.get(), lens, 8, pos)) {
            failure =
                "at byte " + std::to_string(pos) + ": a record header is cut short (truncated?)";
            break;
        }
        const std::int32_t kl = int32At(std::string_view(lens, 8), 0);
        const std::int32_t vl = int32At(std::string_view(lens, 8), 4);
        // MiniDBCursor::Next insists on both lengths being positive.
        if (kl <= 0 || vl <= 0 || std::uint64_t(kl) > kKeyLimit) {
            failure = "at byte " + std::to_string(pos) + ": record lengths " + std::to_string(kl) +
                      "/" + std::to_string(vl) + " are not a minidb record";
            break;
        }
        const std::uint64_t valueAt = pos + 8 + std::uint64_t(kl);
        if (valueAt + std::uint64_t(vl) > m_size) {
            failure = "at byte " + std::to_string(pos) + ": a record of " +
                      std::to_string(8 + std::uint64_t(kl) + std::uint64_t(vl)) +
                      " bytes runs past the end of the file (truncated?)";
            break;
        }
        Record record;
        record.key.resize(std::size_t(kl));
        if (!ProtoCursor::readAt(m_fd.get(), record.key.data(), record.key.size(), pos + 8)) {
            failure = "at byte " + std::to_string(pos) + ": cannot read the key";
            break;
        }
        ProtoCursor c(m_fd.get(), valueAt, valueAt + std::uint64_t(vl));
        if (!readBlob(c, record)) {
            failure = "in the record \"" + record.key + "\", " + c.error();
            break;
        }
        ++m_records;
        add(std::move(record));
        pos = valueAt + std::uint64_t(vl);
    }
    if (!failure.empty()) {
        const std::string what = "not a readable Caffe2 minidb, " + failure;
        if (m_tensors.empty())
            return Error::at(m_path, what);
        m_problems.push_back(m_path + ": " + what + "; the blobs after it are not listed");
    }
    if (m_tensors.empty())
        return Error::at(m_path, "not a Caffe2 minidb: no blobs in its " + std::to_string(m_size) +
                                     " bytes");
    finish();
    return {};
}

bool Caffe2MiniDb::readBlob(ProtoCursor& c, Record& r)
{
    std::uint32_t field = 0, wire = 0;
    std::uint64_t len = 0, v = 0;
    while (!c.atEnd()) {
        if (!c.readKey(field, wire))
            return false;
        if ((field == 1 || field == 2) && wire == ProtoCursor::Bytes) {
            if (!c.readLength(len) || !c.readString(len, kKeyLimit, field == 1 ? r.name : r.type))
                return false;
            continue;
        }
        if (field != 3 || wire != ProtoCursor::Bytes) {
            if (!c.skipValue(wire)) // content, qtensor, chunk counters
                return false;
            continue;
        }
        r.hasTensor = true;
        if (!c.readLength(len))
            return false;
        const std::uint64_t blobEnd = c.enter(len);
        while (!c.atEnd()) {
            if (!c.readKey(field, wire))
                return false;
            const bool packed = wire == ProtoCursor::Bytes;
            if (field == 1 && wire == ProtoCursor::Varint) {
                if (!c.readVarint(v))
                    return false;
                r.dims.push_back(v);
            } else if (field == 1 && packed) {
                if (!c.readLength(len))
                    return false;
                const std::uint64_t end = c.enter(len);
                while (!c.atEnd() && c.readVarint(v))
                    r.dims.push_back(v);
                c.leave(end);
            } else if ((field == 2 || field == 15) && wire == ProtoCursor::Varint) {
                if (!c.readVarint(v))
                    return false;
                (field == 2 ? r.dataType : r.dataFormat) = static_cast<int>(v & 0x7fffffff);
            } else if (packed && (field == 3 || field == 4 || field == 5 || field == 9 ||
                                  field == 10 || field == 13)) {
                if (!c.readLength(len))
                    return false;
                Part p;
                p.offset = c.pos();
                p.bytes = len;
                p.encoding = field == 4    ? Encoding::Varint32
                             : field == 10 ? Encoding::Varint64
                                           : Encoding::Fixed;
                if (len > 0)
                    r.data.push_back(p);
                c.skip(len);
            } else if (field == 6 && packed) {
                ++r.strings;
                if (!c.skipValue(wire))
                    return false;
            } else if (field == 11 && packed) {
                if (!c.readLength(len))
                    return false;
                const std::uint64_t end = c.enter(len);
                while (!c.atEnd()) {
                    if (!c.readKey(field, wire))
                        return false;
                    if ((field == 1 || field == 2) && wire == ProtoCursor::Varint) {
                        if (!c.readVarint(v))
                            return false;
                        (field == 1 ? r.segBegin : r.segEnd) = static_cast<std::int64_t>(v);
                    } else if (!c.skipValue(wire)) {
                        return false;
                    }
                }
                c.leave(end);
            } else {
                // name, device_detail, unpacked elements and later additions.
                if (!(field == 7 || field == 8))
                    ++m_skipped;
                if (!c.skipValue(wire))
                    return false;
            }
            if (c.failed())
                return false;
            if (r.dims.size() > kMaxDims)
                return c.fail("more than " + std::to_string(kMaxDims) + " dimensions");
        }
        c.leave(blobEnd);
    }
    return !c.failed();
}

void Caffe2MiniDb::add(Record&& r)
{
    if (!r.hasTensor) {
        m_problems.push_back(m_path + ": blob \"" + (r.name.empty() ? r.key : r.name) + "\" is a " +
                             (r.type.empty() ? "non-tensor" : r.type) +
                             " blob: listed nowhere, not read");
        return;
    }
    const std::string name = r.name.empty() ? r.key : r.name;
    auto it = std::find_if(m_tensors.begin(), m_tensors.end(),
                           [&](const TensorInfo& t) { return t.name == name; });
    if (it == m_tensors.end()) {
        TensorInfo t;
        t.name = name;
        t.dtype = dtypeOf(r.dataType);
        // FMT_BFLOAT16 (1): a FLOAT tensor kept as bfloat16 in raw_data. Any other
        // format, or bfloat16 of another type, Caffe2 itself refuses to load.
        if (r.dataFormat == 1 && r.dataType == 1) {
            t.dtype = DType::of(DTypeKind::BFloat16);
            t.note = "float32 saved as bfloat16 (data_format FMT_BFLOAT16)";
        } else if (r.dataFormat != 0) {
            m_problems.push_back(m_path + ": blob \"" + name + "\" uses serialization format " +
                                 std::to_string(r.dataFormat) +
                                 ", which this version does not read: its values are not read");
            t.dtype = DType{DTypeKind::Other, 0, "data_format " + std::to_string(r.dataFormat)};
        }
        t.shape = r.dims;
        t.elements = 1;
        for (auto d : r.dims)
            t.elements = d != 0 && t.elements > UINT64_MAX / d ? UINT64_MAX : t.elements * d;
        t.optimizerState = name.find("_momentum") != std::string::npos ||
                           name.find("iteration_mutex") != std::string::npos ||
                           name == "optimizer_iteration";
        m_tensors.push_back(std::move(t));
        m_parts.emplace_back();
        it = std::prev(m_tensors.end());
    }
    const std::size_t index = static_cast<std::size_t>(it - m_tensors.begin());
    if (r.data.size() > 1)
        m_problems.push_back(m_path + ": blob \"" + name +
                             "\" stores its elements in several fields; only the first is read");
    if (r.data.empty())
        return;
    Part p = r.data.front();
    const auto size = static_cast<std::uint64_t>(std::max(1, it->dtype.size));
    // Element count of this record: fixed-size fields tell it by their bytes; varint
    // fields by the segment (or the whole tensor).
    if (p.encoding == Encoding::Fixed)
        p.count = p.bytes / size;
    else
        p.count = r.segBegin >= 0 && r.segEnd >= r.segBegin ? std::uint64_t(r.segEnd - r.segBegin)
                                                            : it->elements;
    p.begin = r.segBegin >= 0 ? std::uint64_t(r.segBegin) : 0;
    m_parts[index].push_back(p);
}

void Caffe2MiniDb::finish()
{
    for (std::size_t i = 0; i < m_tensors.size(); ++i) {
        TensorInfo& t = m_tensors[i];
        auto& parts = m_parts[i];
        std::sort(parts.begin(), parts.end(),
                  [](const Part& a, const Part& b) { return a.begin < b.begin; });
        std::uint64_t next = 0, bytes = 0;
        bool contiguous = true;
        for (const Part& p : parts) {
            contiguous = contiguous && p.begin == next;
            next = p.begin + p.count;
            bytes += p.bytes;
        }
        t.bytes = bytes;
        if (parts.size() > 1)
            t.note = "joined from " + std::to_string(parts.size()) + " segments";
        if (!t.dtype.numeric()) {
            t.elements = 0;
            continue;
        }
        if (!contiguous || next != t.elements) {
            m_problems.push_back(
                m_path + ": blob \"" + t.name + "\" declares " + std::to_string(t.elements) +
                " elements but its data covers " +
                (contiguous ? std::to_string(next) : std::string("gapped ranges")));
            // Only the gap-free start is readable.
            std::uint64_t upTo = 0;
            for (const Part& p : parts) {
                if (p.begin != upTo)
                    break;
                upTo = p.begin + p.count;
            }
            t.elements = std::min(t.elements, upTo);
        }
    }
    if (m_skipped > 0)
        m_problems.push_back(m_path + ": " + std::to_string(m_skipped) +
                             " tensor fields this version does not read were skipped");
}

std::vector<std::pair<std::string, std::string>> Caffe2MiniDb::attributes() const
{
    return {{"records", std::to_string(m_records)}};
}

Status Caffe2MiniDb::readPart(const TensorInfo& t, const Part& p, std::uint64_t first,
                              std::uint64_t count, char* out) const
{
    const auto size = static_cast<std::uint64_t>(t.dtype.size);
    if (p.encoding == Encoding::Fixed) {
        if ((first + count) * size > p.bytes ||
            !ProtoCursor::readAt(m_fd.get(), out, count * size, p.offset + first * size))
            return Error::at(m_path, "cannot read blob \"" + t.name + "\" at byte " +
                                         std::to_string(p.offset + first * size));
        return {};
    }
    // Varints have no fixed stride: continue from the last read when it stopped
    // at or before `first` (sequential block reads), else walk from the start.
    const bool resume = m_resume.part == &p && m_resume.element <= first;
    ProtoCursor c(m_fd.get(), resume ? m_resume.offset : p.offset, p.offset + p.bytes);
    std::uint64_t v = 0;
    for (std::uint64_t i = resume ? m_resume.element : 0; i < first; ++i)
        if (!c.readVarint(v))
            return Error::at(m_path, "blob \"" + t.name + "\": " + c.error());
    for (std::uint64_t i = 0; i < count; ++i) {
        if (!c.readVarint(v))
            return Error::at(m_path, "blob \"" + t.name + "\": " + c.error());
        // Narrow types are stored widened to int32 (float16 as its bit pattern).
        const std::int64_t s = static_cast<std::int64_t>(v);
        switch (size) {
        case 1:
            out[i] = static_cast<char>(s);
            break;
        case 2: {
            const auto h = static_cast<std::uint16_t>(s);
            std::memcpy(out + i * 2, &h, 2);
            break;
        }
        case 4: {
            const auto w = static_cast<std::int32_t>(s);
            std::memcpy(out + i * 4, &w, 4);
            break;
        }
        default:
            std::memcpy(out + i * 8, &s, 8);
            break;
        }
    }
    m_resume = Resume{&p, first + count, c.pos()};
    return {};
}

Status Caffe2MiniDb::read(std::size_t index, std::uint64_t first, std::uint64_t count,
                          void* out) const
{
    if (index >= m_tensors.size())
        return Error::at(m_path, "no blob #" + std::to_string(index));
    const TensorInfo& t = m_tensors[index];
    if (!t.dtype.numeric() || first > t.elements || count > t.elements - first)
        return Error::at(m_path, "elements " + std::to_string(first) + "+" + std::to_string(count) +
                                     " are outside blob \"" + t.name + "\" (" +
                                     std::to_string(t.elements) + " elements)");
    auto* dst = static_cast<char*>(out);
    const auto size = static_cast<std::uint64_t>(t.dtype.size);
    for (const Part& p : m_parts[index]) {
        if (count == 0)
            break;
        if (first >= p.begin + p.count)
            continue;
        const std::uint64_t from = first - p.begin;
        const std::uint64_t n = std::min(count, p.count - from);
        if (Status s = readPart(t, p, from, n, dst); !s)
            return s;
        dst += n * size;
        first += n;
        count -= n;
    }
    if (count != 0)
        return Error::at(m_path, "blob \"" + t.name + "\" holds fewer elements than it declares");
    return {};
}

} // namespace ckpt
