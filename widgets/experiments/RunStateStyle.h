#pragma once

#include "launch/LaunchRecord.h"

#include <QColor>
#include <QString>

namespace ckpt {

// How a launched run's state looks in the Experiments panel and the lineage
// graph, in the sidebar's badge colours: running is the live green.
class RunStateStyle
{
public:
    static QColor color(RunState state);
    // Superseded generations and runs we know nothing about.
    static QColor neutral();
    static QString label(RunState state) { return QLatin1String(runStateName(state)); }
};

} // namespace ckpt
