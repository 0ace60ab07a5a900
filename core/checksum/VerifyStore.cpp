#include "checksum/VerifyStore.h"

#include "io/AtomicFile.h"

#include <nlohmann/json.hpp>
#include <system_error>

namespace ckpt {

namespace {
constexpr int kFormat = 1;
} // namespace

bool VerifyStore::sameFile(const Entry& entry, const EpochFile& file)
{
    return file.present && file.bytes == entry.size && file.mtimeNs == entry.mtimeNs &&
           file.inode == entry.inode;
}

Status VerifyStore::load(const std::filesystem::path& path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return {};
    auto text = readFile(path);
    if (!text)
        return text.error();
    std::unordered_map<std::string, Entry> entries;
    try {
        const auto j = nlohmann::json::parse(*text);
        if (j.value("format", 0) != kFormat)
            return Error::at(path.string(), "unknown verify cache format");
        for (const auto& [file, e] : j.at("files").items()) {
            const auto status = verifyStatusFromString(e.at("status").get<std::string>());
            if (!status)
                continue;
            entries[file] =
                Entry{e.at("size").get<std::uint64_t>(),  e.at("mtime_ns").get<std::int64_t>(),
                      e.at("inode").get<std::uint64_t>(), *status,
                      e.value("expected", std::string()), e.value("actual", std::string())};
        }
    } catch (const nlohmann::json::exception& ex) {
        return Error::at(path.string(), std::string("damaged verify cache (") + ex.what() + ")");
    }
    std::lock_guard lock(m_mutex);
    m_entries = std::move(entries);
    return {};
}

Status VerifyStore::save(const std::filesystem::path& path) const
{
    nlohmann::json files = nlohmann::json::object();
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [file, e] : m_entries)
            files[file] = {{"size", e.size},         {"mtime_ns", e.mtimeNs},
                           {"inode", e.inode},       {"status", std::string(toString(e.status))},
                           {"expected", e.expected}, {"actual", e.actual}};
    }
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    const nlohmann::json j{{"format", kFormat}, {"files", std::move(files)}};
    return writeFileAtomically(path, j.dump() + "\n");
}

void VerifyStore::record(const Run& run, const Epoch& epoch, const EpochVerdict& verdict)
{
    const EpochFile* file = epoch.checksummedFile();
    if (!file)
        return;
    const std::string path = run.pathOf(epoch, *file);
    std::lock_guard lock(m_mutex);
    if (!file->present || verdict.status == VerifyStatus::Missing ||
        verdict.status == VerifyStatus::Error || verdict.status == VerifyStatus::BadInfo) {
        m_entries.erase(path);
        return;
    }
    m_entries[path] = Entry{file->bytes,    file->mtimeNs,    file->inode,
                            verdict.status, verdict.expected, verdict.actual};
}

std::optional<VerifyStore::Entry> VerifyStore::lookup(const Run& run, const Epoch& epoch) const
{
    const EpochFile* file = epoch.checksummedFile();
    if (!file)
        return std::nullopt;
    const std::string path = run.pathOf(epoch, *file);
    std::lock_guard lock(m_mutex);
    auto it = m_entries.find(path);
    if (it == m_entries.end() || !sameFile(it->second, *file))
        return std::nullopt;
    return it->second;
}

std::size_t VerifyStore::size() const
{
    std::lock_guard lock(m_mutex);
    return m_entries.size();
}

} // namespace ckpt
