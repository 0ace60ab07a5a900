#include "torch/TorchZipSource.h"

#include "io/RegularFile.h"

#include <algorithm>
#include <zip.h>

namespace ckpt {

namespace {

constexpr std::uint64_t kSmallEntryLimit = 4096;

Result<std::string> readEntry(zip_t* archive, zip_int64_t index, std::uint64_t limit,
                              const std::string& where)
{
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive, static_cast<zip_uint64_t>(index), 0, &st) != 0 ||
        !(st.valid & ZIP_STAT_SIZE))
        return Error::at(where, "cannot stat the entry");
    if (st.size > limit)
        return Error::at(where, "entry is " + RegularFile::sizeText(st.size) + ", over the " +
                                    RegularFile::sizeText(limit) + " this version reads");
    zip_file_t* f = zip_fopen_index(archive, static_cast<zip_uint64_t>(index), 0);
    if (!f)
        return Error::at(where, "cannot open the entry (archive corrupted?)");
    std::string out(st.size, '\0');
    const zip_int64_t n = zip_fread(f, out.data(), st.size);
    zip_fclose(f);
    if (n < 0 || static_cast<zip_uint64_t>(n) != st.size)
        return Error::at(where, "entry is shorter than the archive says (archive corrupted?)");
    return out;
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

} // namespace

TorchZipSource::~TorchZipSource()
{
    closeCursor();
    if (m_zip)
        zip_discard(m_zip);
}

void TorchZipSource::closeCursor() const
{
    if (m_cursor)
        zip_fclose(m_cursor);
    m_cursor = nullptr;
    m_cursorEntry = -1;
    m_cursorPos = 0;
}

bool TorchZipSource::sniff(std::string_view head, std::string_view)
{
    if (!head.starts_with(std::string_view("PK\x03\x04", 4)) || head.size() < 30)
        return false;
    const auto u16 = [&](std::size_t at) {
        return static_cast<std::size_t>(static_cast<unsigned char>(head[at]) |
                                        (static_cast<unsigned char>(head[at + 1]) << 8));
    };
    // torch.save writes data.pkl first: the first local header names it.
    const std::size_t nameLen = u16(26);
    if (30 + nameLen > head.size())
        return false;
    const std::string_view name = head.substr(30, nameLen);
    return name.ends_with("/data.pkl") && name.find('/') == name.size() - 9;
}

Result<std::unique_ptr<TensorSource>> TorchZipSource::open(const std::string& path)
{
    // Refuse FIFOs and devices before libzip opens anything.
    auto fd = RegularFile::open(path);
    if (!fd)
        return fd.error();
    std::unique_ptr<TorchZipSource> src(new TorchZipSource);
    src->m_path = path;
    int err = 0;
    src->m_zip = zip_open(path.c_str(), ZIP_RDONLY, &err);
    if (!src->m_zip) {
        zip_error_t ze;
        zip_error_init_with_code(&ze, err);
        std::string what = std::string("not a readable torch zip: ") + zip_error_strerror(&ze);
        zip_error_fini(&ze);
        if (err == ZIP_ER_NOZIP || err == ZIP_ER_INCONS)
            what += " (a truncated file: torch.save still writing, or interrupted)";
        return Error::at(path, what);
    }
    zip_t* z = src->m_zip;
    const zip_int64_t n = zip_get_num_entries(z, 0);
    zip_int64_t pkl = -1;
    for (zip_int64_t i = 0; i < n; ++i) {
        const char* name = zip_get_name(z, static_cast<zip_uint64_t>(i), 0);
        if (!name)
            continue;
        const std::string_view s(name);
        const auto slash = s.find('/');
        if (slash != std::string_view::npos && s.substr(slash) == "/data.pkl") {
            pkl = i;
            src->m_root = std::string(s.substr(0, slash));
            break;
        }
    }
    if (pkl < 0)
        return Error::at(path, "zip without a <folder>/data.pkl entry: not a torch.save archive");
    const std::string root = src->m_root;
    src->m_attributes.emplace_back("archive", root);
    for (const char* small : {"version", "byteorder"}) {
        const zip_int64_t at = zip_name_locate(z, (root + "/" + small).c_str(), 0);
        if (at < 0)
            continue;
        auto text = readEntry(z, at, kSmallEntryLimit, path + ": " + root + "/" + small);
        if (!text)
            return text.error();
        const std::string value = trimmed(*text);
        if (std::string_view(small) == "byteorder" && value != "little")
            return Error::at(path, "byteorder is \"" + value +
                                       "\": only little-endian archives are read");
        src->m_attributes.emplace_back(small, value);
    }
    auto pickle = readEntry(z, pkl, kPickleLimit, path + ": " + root + "/data.pkl");
    if (!pickle)
        return pickle.error();
    auto parsed = TorchPickle::parse(*pickle, path + ": " + root + "/data.pkl");
    if (!parsed)
        return parsed.error();
    for (const auto& [key, value] : parsed->scalars)
        if (src->m_attributes.size() < 40)
            src->m_attributes.emplace_back(key, value.substr(0, 200));
    for (const std::string& note : parsed->notes)
        src->m_problems.push_back(path + ": " + note);

    src->m_infos.reserve(parsed->tensors.size());
    for (TorchTensorRef& ref : parsed->tensors) {
        TensorInfo& info = src->m_infos.emplace_back();
        info.name = ref.name;
        info.dtype = ref.dtype;
        info.shape = ref.shape;
        info.elements = ref.elements;
        info.bytes = ref.elements * static_cast<std::uint64_t>(std::max(ref.dtype.size, 0));
        info.optimizerState = ref.name.starts_with("optimizer_states/") ||
                              ref.name.starts_with("optimizer/") ||
                              ref.name.starts_with("lr_schedulers/");
        const std::string entry = root + "/data/" + ref.storageKey;
        const zip_int64_t at = ref.storageKey.find('/') == std::string::npos
                                   ? zip_name_locate(z, entry.c_str(), 0)
                                   : -1;
        if (ref.note.empty() && at < 0)
            ref.note = "storage " + entry + " is missing from the archive: not read";
        if (ref.note.empty() && ref.elements > 0) {
            zip_stat_t st;
            zip_stat_init(&st);
            const std::uint64_t need = (ref.storageOffset + ref.span) * info.dtype.size;
            if (zip_stat_index(z, static_cast<zip_uint64_t>(at), 0, &st) != 0 ||
                !(st.valid & ZIP_STAT_SIZE) || st.size < need)
                ref.note = "storage " + entry + " holds " + std::to_string(st.size) +
                           " bytes, fewer than the " + std::to_string(need) +
                           " the tensor needs: not read";
        }
        if (ref.note.empty()) {
            info.note = "storage " + ref.storageKey + " @ " + std::to_string(ref.storageOffset);
            if (!ref.contiguous) {
                info.note += ", strided view (strides";
                for (std::int64_t st : ref.stride)
                    info.note.append(" ").append(std::to_string(st));
                info.note += "): read element by element";
            }
        } else {
            info.note = ref.note;
            src->m_problems.push_back(path + ": " + ref.name + ": " + ref.note);
        }
        src->m_entryOf.push_back(ref.note.empty() ? at : -1);
        src->m_refs.push_back(std::move(ref));
    }
    return std::unique_ptr<TensorSource>(std::move(src));
}

Status TorchZipSource::read(std::size_t index, std::uint64_t first, std::uint64_t count,
                            void* out) const
{
    if (index >= m_infos.size())
        return Error::at(m_path, "no tensor #" + std::to_string(index));
    const TensorInfo& info = m_infos[index];
    const TorchTensorRef& ref = m_refs[index];
    if (m_entryOf[index] < 0)
        return Error::at(m_path, info.name + ": " + ref.note);
    if (first > info.elements || count > info.elements - first)
        return Error::at(m_path, info.name + ": elements " + std::to_string(first) + "+" +
                                     std::to_string(count) + " past its " +
                                     std::to_string(info.elements));
    auto* dst = static_cast<char*>(out);
    if (ref.contiguous)
        return readStorage(index, ref.storageOffset + first, count, dst);
    // A strided view: each element's place in the storage from its coordinates.
    const std::size_t size = static_cast<std::size_t>(info.dtype.size);
    for (std::uint64_t j = 0; j < count; ++j) {
        std::uint64_t rest = first + j;
        std::uint64_t at = ref.storageOffset;
        for (std::size_t d = ref.shape.size(); d-- > 0;) {
            const std::uint64_t dim = std::max<std::uint64_t>(ref.shape[d], 1);
            at += (rest % dim) * static_cast<std::uint64_t>(ref.stride[d]);
            rest /= dim;
        }
        if (Status st = readStorage(index, at, 1, dst + j * size); !st)
            return st;
    }
    return {};
}

Status TorchZipSource::readStorage(std::size_t index, std::uint64_t element, std::uint64_t count,
                                   char* dst) const
{
    const TensorInfo& info = m_infos[index];
    const std::uint64_t size = static_cast<std::uint64_t>(info.dtype.size);
    const std::uint64_t offset = element * size;
    const std::uint64_t bytes = count * size;
    const zip_int64_t entry = m_entryOf[index];

    if (m_cursorEntry != entry || m_cursorPos > offset) {
        closeCursor();
        m_cursor = zip_fopen_index(m_zip, static_cast<zip_uint64_t>(entry), 0);
        if (!m_cursor)
            return Error::at(m_path, info.name + ": cannot open its storage (archive corrupted?)");
        m_cursorEntry = entry;
    }
    if (m_cursorPos != offset) {
        // Stored entries seek; compressed ones cannot and are read forward.
        if (zip_fseek(m_cursor, static_cast<zip_int64_t>(offset), SEEK_SET) == 0) {
            m_cursorPos = offset;
        } else {
            char skip[65536];
            while (m_cursorPos < offset) {
                const std::uint64_t step =
                    std::min<std::uint64_t>(sizeof skip, offset - m_cursorPos);
                const zip_int64_t got = zip_fread(m_cursor, skip, step);
                if (got <= 0) {
                    closeCursor();
                    return Error::at(m_path,
                                     info.name + ": storage ends early (archive corrupted?)");
                }
                m_cursorPos += static_cast<std::uint64_t>(got);
            }
        }
    }
    std::uint64_t done = 0;
    while (done < bytes) {
        const zip_int64_t got = zip_fread(m_cursor, dst + done, bytes - done);
        if (got <= 0) {
            closeCursor();
            return Error::at(m_path, info.name + ": storage ends early or is corrupted (CRC)");
        }
        done += static_cast<std::uint64_t>(got);
    }
    m_cursorPos += bytes;
    return {};
}

} // namespace ckpt
