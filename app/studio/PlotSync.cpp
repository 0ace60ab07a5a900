#include "PlotSync.h"

#include "plot/MetricPlot.h"
#include "plot/MetricPreference.h"
#include "plotpanel/PlotPanel.h"
#include "session/Workspace.h"

namespace ckpt {

PlotSync::PlotSync(Workspace* workspace, PlotPanel* panel, QObject* parent)
    : QObject(parent), m_workspace(workspace), m_panel(panel)
{
    connect(workspace, &Workspace::historyChanged, this, &PlotSync::onHistory);
    // Every change to a run's state ends in runChanged: markers follow links.
    connect(workspace, &Workspace::runChanged, this, &PlotSync::updateMarkers);
    // Long histories are built off the GUI thread: their metrics are known then.
    connect(panel->plot(), &MetricPlot::loaded, this, &PlotSync::refreshMetrics);
}

void PlotSync::refresh()
{
    std::vector<MetricPlot::RunHistory> runs;
    const QStringList shown = m_workspace->shownRuns();
    for (const QString& root : shown)
        if (const auto* s = m_workspace->state(root); s && s->history)
            runs.push_back({root, m_workspace->runName(root), s->history});
    // "Drop a folder" only while there is none: with runs loaded, say what is missing.
    QString why;
    if (!m_workspace->runRoots().isEmpty() && shown.isEmpty())
        why = tr("Pick a run in the list on the left to plot its metrics");
    else if (!shown.isEmpty() && runs.empty())
        why = shown.size() == 1
                  ? tr("%1 has no metric log yet").arg(m_workspace->runName(shown[0]))
                  : tr("None of the %1 selected runs has a metric log yet").arg(shown.size());
    m_panel->plot()->setNoRunsMessage(why);
    m_panel->plot()->setRuns(std::move(runs));
    for (const QString& root : m_workspace->shownRuns())
        updateMarkers(root);
    refreshMetrics();
}

void PlotSync::onHistory(const QString& root)
{
    const auto* s = m_workspace->state(root);
    if (!m_workspace->shownRuns().contains(root) || !s || !s->history)
        return;
    // The live path: the plot extends the run's curves in place.
    m_panel->plot()->updateRun(root, m_workspace->runName(root), s->history);
    updateMarkers(root);
    refreshMetrics();
}

void PlotSync::updateMarkers(const QString& root)
{
    const Run* run = m_workspace->run(root);
    if (!run || !m_workspace->shownRuns().contains(root))
        return;
    const auto epochOf = [&](const char* name) {
        return run->linkedEpoch(name).value_or(MetricPlot::NoEpoch);
    };
    m_panel->plot()->setMarkers(root, epochOf("last"), epochOf("best"));
    std::vector<int> kept;
    for (const Epoch& e : run->epochs)
        if (e.hasModel())
            kept.push_back(e.number);
    m_panel->plot()->setCheckpoints(root, kept);
}

void PlotSync::refreshMetrics()
{
    const QStringList metrics = m_panel->plot()->availableMetrics();
    m_panel->setMetrics(metrics, MetricPreference::preferred(metrics));
}

} // namespace ckpt
