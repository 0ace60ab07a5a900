#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QListWidget;
class QSlider;
class QVBoxLayout;

namespace ckpt {

class MetricPlot;

// The metric plot (MetricPlot) with its controls: which metrics to draw
// (checkable list), smoothing, log scale, x axis and export.
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

    MetricPlot* plot() const { return m_plot; }

signals:
    void checkedMetricsChanged(const QStringList& metrics);
    void smoothingChanged(double weight); // 0 (off) .. 0.99
    void logScaleChanged(bool on);
    void xAxisChanged(int mode); // 0 epoch, 1 wall time, 2 relative time
    void exportRequested();

private:
    void exportPlot();

    QListWidget* m_metrics;
    QSlider* m_smoothing;
    QCheckBox* m_logScale;
    QComboBox* m_xAxis;
    QVBoxLayout* m_plotLayout;
    MetricPlot* m_plot;
    bool m_userChose = false;
};

} // namespace ckpt
