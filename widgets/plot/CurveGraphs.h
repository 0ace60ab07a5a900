#pragma once

#include "plot/CurveReduction.h"
#include "plot/PlotModel.h"

#include <QList>
#include <QPen>
#include <QPointF>
#include <QStringList>

#include <utility>
#include <vector>

class QCPGraph;
class QCustomPlot;

namespace ckpt {

class PlotTheme;

// The QCustomPlot graphs behind MetricPlot: per curve of the PlotModel a line
// (or, for a dead end or a branch, its faded part) and a faint raw copy under
// smoothing; best/last markers per run; one marker where each restart resumed;
// and the legend, which names only what is drawn.
//
// How each kind of curve looks: the run's own segments in the run's colour; the
// dead end of a restarted segment and a superseded branch (the epochs a restart
// moved aside) faded, with a legend entry per branch; a fork's lead-in (its
// parent's epochs) thin and faint, without an entry, the fork's line growing
// out of its end.
class CurveGraphs
{
public:
    struct Look
    {
        bool smoothing = false;
        bool logScale = false;
    };

    CurveGraphs(QCustomPlot* plot, const PlotModel& model);

    // New graphs for the model's curves (the old ones are removed).
    void rebuild();
    // The data of curve `i`; long series reduced to the visible window
    // (CurveReduction: O(pixels log n)).
    void setData(std::size_t i, Look look);
    // The same, reduced already (off the GUI thread, for the current window).
    void setData(std::size_t i, const ReducedCurve& reduced, Look look);
    // Buckets of a reduction: about one per pixel of the plot's width.
    int buckets() const;
    // setData() again for the series long enough to be reduced (the window moved).
    void redecimate(Look look);
    // Appends entries [from, end) of curve `i`'s series (a live run grew).
    void grow(std::size_t i, int from, Look look);
    void updateMarkers(Look look);
    void applyTheme(const PlotTheme& theme);

    QStringList legendEntries() const;
    int restartMarkerCount() const;
    // Markers of epochs with a checkpoint on disk, over all runs.
    int checkpointMarkerCount() const;
    // The pen curve `i`'s line is drawn with, and how many entries it holds.
    QPen pen(std::size_t i) const;
    int dataCount(std::size_t i) const;
    // The entries curve `i`'s line and faded part hold, in key order.
    QList<QPointF> data(std::size_t i) const;
    // The key window on screen.
    std::pair<double, double> keyWindow() const;

private:
    void updateLegend(Look look);
    QCPGraph* lineOf(std::size_t i) const;

    QCustomPlot* m_plot;
    const PlotModel& m_model;
    std::vector<QCPGraph*> m_raw;    // parallel to m_model.curves()
    std::vector<QCPGraph*> m_smooth; // parallel to m_model.curves()
    std::vector<QCPGraph*> m_tail;   // the faded part: a dead end, a whole branch
    std::vector<QCPGraph*> m_best;   // per run, then one for the legend
    std::vector<QCPGraph*> m_last;   // per run, then one for the legend
    std::vector<QCPGraph*> m_kept;   // epochs with a checkpoint on disk, likewise
    QCPGraph* m_restart = nullptr;   // one marker where each restart resumed
};

} // namespace ckpt
