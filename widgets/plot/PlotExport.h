#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QSize>
#include <QString>

class QCustomPlot;

namespace ckpt {

// A QCustomPlot as a file's bytes (MetricPlot::render): PNG, JPG and BMP
// rendered at the size, PDF and SVG as vectors (1 px = 1 pt).
class PlotExport
{
public:
    // `requested` when valid, else the plot's size on screen, else 960 x 600.
    static QSize size(const QCustomPlot* plot, QSize requested);
    static Result<QByteArray> render(QCustomPlot* plot, const QString& fileName, QSize requested);
};

} // namespace ckpt
