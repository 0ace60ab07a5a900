#include "models/ChecksumState.h"

#include <algorithm>

namespace ckpt {

QString checksumStateLabel(ChecksumState state)
{
    switch (state) {
    case ChecksumState::Unknown:
        return QStringLiteral("not verified");
    case ChecksumState::NoChecksum:
        return QStringLiteral("no checksum");
    case ChecksumState::Ok:
        return QStringLiteral("ok");
    case ChecksumState::Disabled:
        return QStringLiteral("disabled");
    case ChecksumState::Changed:
        return QStringLiteral("changed since verified");
    case ChecksumState::Verifying:
        return QStringLiteral("verifying");
    case ChecksumState::Missing:
        return QStringLiteral("missing");
    case ChecksumState::BadInfo:
        return QStringLiteral("bad info");
    case ChecksumState::Error:
        return QStringLiteral("unreadable");
    case ChecksumState::Mismatch:
        return QStringLiteral("MISMATCH");
    }
    return {};
}

QString checksumNote(const ChecksumVerdict& verdict)
{
    if (verdict.expected.isEmpty() && verdict.actual.isEmpty())
        return {};
    return QStringLiteral("expected %1, computed %2")
        .arg(verdict.expected.isEmpty() ? QStringLiteral("-") : verdict.expected,
             verdict.actual.isEmpty() ? QStringLiteral("-") : verdict.actual);
}

ChecksumState combineChecksumStates(ChecksumState a, ChecksumState b)
{
    // Unknown beats Ok and NoChecksum: a run is only "ok" when everything that
    // can be checked was.
    auto unchecked = [](ChecksumState x, ChecksumState y) {
        return x == ChecksumState::Unknown &&
               (y == ChecksumState::Ok || y == ChecksumState::NoChecksum);
    };
    if (unchecked(a, b) || unchecked(b, a))
        return ChecksumState::Unknown;
    return static_cast<ChecksumState>(std::max(static_cast<int>(a), static_cast<int>(b)));
}

} // namespace ckpt
