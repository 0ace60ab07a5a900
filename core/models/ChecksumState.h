#pragma once

#include <QString>

namespace ckpt {

// What the UI knows about an epoch's model checksum. Ordered by severity so a
// run's summary is the maximum over its epochs.
enum class ChecksumState : int
{
    Unknown = 0, // not verified (yet)
    NoChecksum,  // the format (or this file) records no checksum: nothing to verify
    Ok,
    Disabled,  // ckpt-info says "__DISABLED__": a CANDLE restart would refuse it
    Changed,   // the file changed on disk since its verdict: verified again at once
    Verifying, // queued or in progress
    Missing,   // no model file, or no record to compare with
    BadInfo,   // the record (ckpt-info.json) cannot be read: nothing to compare with
    Error,     // the file could not be read
    Mismatch,  // CRC differs from ckpt-info.json
};

// A verdict with the values compared, for tooltips and the compare view.
struct ChecksumVerdict
{
    ChecksumState state = ChecksumState::Unknown;
    QString expected; // recorded in ckpt-info.json
    QString actual;   // computed CRC-32
};

QString checksumStateLabel(ChecksumState state);
// "expected 123, computed 456" (as `ckpt verify` prints them), empty when unknown.
QString checksumNote(const ChecksumVerdict& verdict);
// The summary of a run: the most severe state among its epochs, where Ok only
// when every epoch with a model was verified (or records no checksum), and "no
// checksum" only when no epoch has one.
ChecksumState combineChecksumStates(ChecksumState a, ChecksumState b);

} // namespace ckpt
