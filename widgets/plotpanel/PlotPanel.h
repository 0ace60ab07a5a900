#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QListWidget;
class QSlider;
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
    QSlider* smoothingSlider() const { return m_smoothing; }
    QCheckBox* logScaleBox() const { return m_logScale; }
    QComboBox* xAxisBox() const { return m_xAxis; }

    void setPlotWidget(QWidget* plot);
    QWidget* plotWidget() const { return m_plot; }

signals:
    void checkedMetricsChanged(const QStringList& metrics);
    void smoothingChanged(double weight); // 0 (off) .. 0.99
    void logScaleChanged(bool on);
    void xAxisChanged(int mode); // 0 epoch, 1 wall time, 2 relative time
    void exportRequested();

private:
    QListWidget* m_metrics;
    QSlider* m_smoothing;
    QCheckBox* m_logScale;
    QComboBox* m_xAxis;
    QVBoxLayout* m_plotLayout;
    QWidget* m_plot = nullptr;
    bool m_userChose = false;
};

} // namespace ckpt
