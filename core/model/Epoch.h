#pragma once

#include "model/KeyValues.h"
#include "model/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// How an expected checksum of a file is computed.
enum class ChecksumAlgo : std::uint8_t
{
    None,     // the format records no checksum for this file
    Disabled, // the writer was told not to compute one (CANDLE "__DISABLED__")
    Crc32,    // zlib CRC-32 (init 0, unsigned), recorded as decimal text
};
std::string_view toString(ChecksumAlgo algo);

// One file of a saved epoch.
struct EpochFile
{
    std::string name;        // relative to the epoch directory; absolute when it lives elsewhere
    std::uint64_t bytes = 0; // size on disk when present
    bool present = false;    // false: the epoch's record names it but it is not there
    bool model = false;      // the model/checkpoint file (inspect, diff, restart)
    ChecksumAlgo algo = ChecksumAlgo::None;
    std::string checksum; // the expected value as recorded, empty when none
    // > 0: the checksum covers only the first checkedBytes bytes, the format
    // keeping it in a trailer after them (MindSpore's crc_num); 0: the whole file.
    std::uint64_t checkedBytes = 0;
    // With bytes, the file's identity when present: a verdict on its content
    // (verify cache, watcher) holds only while all three match.
    std::int64_t mtimeNs = 0;
    std::uint64_t inode = 0;
};

// The metric a writer's running best is stored as (CANDLE best_metric_last):
// not this epoch's value but the best up to it.
inline constexpr std::string_view kBestSoFar = "best_so_far";

struct EpochMetric
{
    std::string name;   // "val_loss", "best_so_far", ...
    double value = 0.0; // may be NaN or +/-inf (as written)
};

// One saved checkpoint of a run, whatever the layout: CANDLE's epochs/NNN,
// an Orbax step folder. Small on purpose (a run may have 100,000): paths are
// relative, metadata is one packed string.
struct Epoch
{
    int number = 0;                   // the checkpoint's number (CANDLE epoch, Orbax step)
    bool firstSave = false;           // first save of a training process (a restart boundary)
    bool recorded = false;            // the epoch's record was read (CANDLE ckpt-info.json)
    std::optional<std::int64_t> step; // the training step, where the format has one
    std::optional<double> elapsed;    // seconds since the previous save of the same process
    std::string dir;                  // relative to the run root ("epochs/012", "1200")
    std::string savedAt;              // local time "YYYY-MM-DD HH:MM:SS" when known
    std::string monitored;            // the metric the writer tracked as "best", if any
    std::vector<EpochFile> files;     // the model file first
    std::vector<EpochMetric> metrics;
    KeyValues metadata; // the format's own record of the epoch (CANDLE: ckpt-info.json)
    Problems problems;  // problems of this epoch only

    // The model/checkpoint file, present or not; nullptr when the epoch names none.
    const EpochFile* modelFile() const;
    // Size of the model file when it is present.
    std::optional<std::uint64_t> modelBytes() const;
    bool hasModel() const { return modelBytes().has_value(); }
    std::optional<double> metric(std::string_view name) const;
    void setMetric(std::string_view name, double value);
    // Has the epoch a readable record (CANDLE: a parsed ckpt-info.json)?
    bool hasRecord() const { return recorded; }
    // The first file with an expected checksum (or a disabled one).
    const EpochFile* checksummedFile() const;

    // Back to a default-constructed Epoch's state, keeping the room its
    // strings, vectors and record hold: an epoch read into after clear()
    // allocates nothing it already had room for (EpochList::recycle).
    void clear();
};

} // namespace ckpt
