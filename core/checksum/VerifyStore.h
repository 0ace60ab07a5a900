#pragma once

#include "checksum/VerifyResult.h"
#include "common/Result.h"
#include "model/Run.h"

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace ckpt {

// Verification verdicts remembered across sessions, keyed by the checksummed
// file's path (CANDLE: the model) and
// valid only for the file they were computed on: size, mtime (ns) and inode
// must all still match, so a file rewritten, truncated or flipped in place
// since loses its verdict. Thread-safe; saved as one JSON file, atomically.
class VerifyStore
{
public:
    struct Entry
    {
        std::uint64_t size = 0;
        std::int64_t mtimeNs = 0;
        std::uint64_t inode = 0;
        VerifyStatus status = VerifyStatus::Error;
        std::string expected; // recorded CRC as written
        std::string actual;   // computed CRC, decimal
    };

    // A missing file is an empty store; a damaged one is an error naming it.
    Status load(const std::filesystem::path& path);
    Status save(const std::filesystem::path& path) const;

    // Remembers `verdict` for `epoch` as loaded (its identity); verdicts that
    // prove nothing about the bytes (missing file, unreadable) are forgotten.
    void record(const Run& run, const Epoch& epoch, const EpochVerdict& verdict);
    // The verdict for `epoch` if its checksummed file is still the one verified.
    std::optional<Entry> lookup(const Run& run, const Epoch& epoch) const;
    std::size_t size() const;

    static bool sameFile(const Entry& entry, const EpochFile& file);

private:
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, Entry> m_entries; // by file path
};

} // namespace ckpt
