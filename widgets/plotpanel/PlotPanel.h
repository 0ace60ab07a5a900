#pragma once

#include <QWidget>

class QListWidget;
class QVBoxLayout;

namespace ckpt {

// The controls around the metric plot: which metrics to draw (checkable list)
// next to the plot itself. The plot widget is supplied by the caller
// (setPlotWidget) so this panel never depends on the plotting library.
class PlotPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit PlotPanel(QWidget* parent = nullptr);

    // Offers these metrics; keeps the checked ones that still exist. When
    // nothing was chosen yet, `preferred` (e.g. the monitored metric) is checked.
    void setMetrics(const QStringList& metrics, const QStringList& preferred);
    QStringList checkedMetrics() const;
    void setCheckedMetrics(const QStringList& metrics);
    QListWidget* metricList() const { return m_metrics; }

    void setPlotWidget(QWidget* plot);
    QWidget* plotWidget() const { return m_plot; }

signals:
    void checkedMetricsChanged(const QStringList& metrics);

private:
    QListWidget* m_metrics;
    QVBoxLayout* m_plotLayout;
    QWidget* m_plot = nullptr;
    bool m_userChose = false;
};

} // namespace ckpt
