#pragma once

#include <QStringList>

namespace ckpt {

// Which metrics a plot shows before the user picks: loss and val_loss when a
// log has them, else ckpt-info's running best (runs without logs).
class MetricPreference
{
public:
    static QStringList preferred(const QStringList& available);
};

} // namespace ckpt
