#pragma once

#include "model/Epoch.h"

#include <optional>
#include <string>

namespace ckpt {

// Reads what one ModelCheckpoint file is without parsing it: one open, one fstat
// and two small reads (the head and the tail), the same cost per epoch as CANDLE's
// ckpt-info.json. Keras writes its files in place (h5py, zipfile, json.dump), so
// a save in progress or cut short is a file that is there but not whole:
// - HDF5: the superblock's end-of-file address differs from the file size (a
//   closed file is exactly that long; while h5py writes, the data runs past the
//   address recorded at creation; a cut copy stops before it);
// - .keras (zip): no end-of-central-directory record at the end;
// - JSON: the text does not end with the closing brace.
class KerasFileCheck
{
public:
    struct Outcome
    {
        EpochFile file;       // name, bytes, mtime, inode; present when it exists
        bool whole = false;   // the file is complete
        std::string problem;  // why it is not, naming the file; empty when whole
        bool missing = false; // the file is gone (ENOENT)
        bool unreadable = false;
    };

    // `dir` is the folder, `name` the file name in it.
    static Outcome check(const std::string& dir, const std::string& name);
    // The same, the file opened relative to `dirFd`, an open descriptor of `dir`
    // (no path lookup from the root per file).
    static Outcome checkAt(int dirFd, const std::string& dir, const std::string& name);

    // The end-of-file address an HDF5 superblock records (relative to its
    // base address), std::nullopt when `head` is no superblock it can read.
    static std::optional<std::uint64_t> hdf5EndOfFile(std::string_view head);
};

} // namespace ckpt
