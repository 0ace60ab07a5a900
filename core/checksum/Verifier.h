#pragma once

#include "checksum/CrcReader.h"
#include "checksum/VerifyResult.h"
#include "common/Progress.h"
#include "common/Result.h"
#include "model/Run.h"

#include <cstdint>
#include <vector>

namespace ckpt {

// Recomputes the CRC-32 of the files whose layout records an expected checksum
// (EpochFile::algo; CANDLE: ckpt-info.json's "checksum", as its restart does);
// epochs of a layout without checksums get "no checksum". Files are checked in parallel; a file
// larger than `splitBytes` is cut into parts checked in parallel and joined with
// Crc32::combine, so one huge model also uses every core.
//
// Progress: unit "bytes", total = the sum of the sizes of the files to check,
// reported from the workers one call at a time. Cancellation stops every worker
// within one block and fails with "cancelled".
class Verifier
{
public:
    struct Options
    {
        int threads = 0; // 0: one per core
        std::uint64_t splitBytes = std::uint64_t{64}
                                   << 20; // part size for big files; 0: never split
        // mmap: no copy per block; measured faster than read() in tests/bench/verify.
        CrcReader::Options reader{CrcReader::Strategy::Mmap, std::size_t{1} << 20};
    };

    static Result<EpochVerdict> verifyEpoch(const Run& run, const Epoch& epoch,
                                            const Options& options,
                                            const Progress& progress = Progress::none());
    static Result<VerifyReport> verifyRun(const Run& run, const Options& options,
                                          const Progress& progress = Progress::none());
    static Result<VerifyReport> verifyRuns(const std::vector<Run>& runs, const Options& options,
                                           const Progress& progress = Progress::none());

    // The verdict that needs no reading (BadInfo, Disabled, NoChecksum, Missing),
    // or std::nullopt when the file must be read. Exposed for the watcher and UI,
    // which show it before any verification has run.
    static std::optional<EpochVerdict> precheck(const Run& run, const Epoch& epoch);

    // Does the epoch record no checksum to compare with (its layout records
    // none, or its record has none for the model file: a MindSpore file without
    // crc_num trailer)? Exactly when precheck() says NoChecksum, without
    // building a verdict: the window asks it for every row.
    static bool recordsNoChecksum(const Run& run, const Epoch& epoch);

    // Compares a computed CRC with the recorded text and fills status/message.
    static void judge(EpochVerdict& verdict, std::uint32_t actual);
};

} // namespace ckpt
