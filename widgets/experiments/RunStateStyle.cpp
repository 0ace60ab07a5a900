#include "experiments/RunStateStyle.h"

#include "common/Badges.h"

namespace ckpt {

QColor RunStateStyle::color(RunState state)
{
    switch (state) {
    case RunState::Running:
        return Badges::liveColor();
    case RunState::Completed:
        return Badges::lastColor();
    case RunState::Pending:
    case RunState::Requeued:
        return Badges::bestColor();
    case RunState::Failed:
    case RunState::Lost:
        return Badges::checksumColor(ChecksumState::Mismatch);
    case RunState::Stopped:
        return Badges::problemColor();
    }
    return neutral();
}

QColor RunStateStyle::neutral()
{
    return Badges::checksumColor(ChecksumState::Disabled);
}

} // namespace ckpt
