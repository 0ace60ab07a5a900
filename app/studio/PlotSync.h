#pragma once

#include <QObject>
#include <QString>

namespace ckpt {

class PlotPanel;
class Workspace;

// Keeps the plot panel in step with the workspace's shown runs: curves from
// their histories (extended in place for a live run), last/best markers from
// their links, the metric list with core's default choice.
class PlotSync final : public QObject
{
    Q_OBJECT
public:
    PlotSync(Workspace* workspace, PlotPanel* panel, QObject* parent = nullptr);

    // The shown runs changed: redraw them all.
    void refresh();

private:
    void onHistory(const QString& root);
    void updateMarkers(const QString& root);
    void refreshMetrics();

    Workspace* m_workspace;
    PlotPanel* m_panel;
};

} // namespace ckpt
