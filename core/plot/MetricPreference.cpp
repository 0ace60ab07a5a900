#include "plot/MetricPreference.h"

namespace ckpt {

QStringList MetricPreference::preferred(const QStringList& available)
{
    QStringList out;
    for (const QString& name : {QStringLiteral("loss"), QStringLiteral("val_loss")})
        if (available.contains(name))
            out << name;
    if (out.isEmpty() && available.contains(QStringLiteral("best_so_far")))
        out << QStringLiteral("best_so_far");
    return out;
}

} // namespace ckpt
