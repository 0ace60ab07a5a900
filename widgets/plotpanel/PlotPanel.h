#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QSlider;
class QVBoxLayout;

namespace ckpt {

class MetricPlot;

// The metric plot (MetricPlot) with its controls: which metrics to draw
// (checkable list), smoothing, log scale, superseded epochs shown or not, x
// axis and export.
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
    QLabel* smoothingValueLabel() const { return m_smoothingValue; }
    QCheckBox* logScaleBox() const { return m_logScale; }
    QCheckBox* supersededBox() const { return m_superseded; }
    QComboBox* xAxisBox() const { return m_xAxis; }

    MetricPlot* plot() const { return m_plot; }
    // Writes the plot to `path` (format from the suffix) in the background;
    // exportFinished() follows, and a failure is shown in a message box.
    void exportTo(const QString& path);

signals:
    void checkedMetricsChanged(const QStringList& metrics);
    void smoothingChanged(double weight); // 0 (off) .. 0.99
    void logScaleChanged(bool on);
    void xAxisChanged(int mode); // 0 epoch, 1 wall time, 2 relative time
    void exportRequested();
    void exportFinished(const QString& path, const QString& error); // error empty: written

private:
    void exportPlot();
    void showSmoothing(int value);
    void reportExport(const QString& path, const QString& error);

    QListWidget* m_metrics;
    QSlider* m_smoothing;
    QLabel* m_smoothingValue;
    QCheckBox* m_logScale;
    QCheckBox* m_superseded;
    QComboBox* m_xAxis;
    QVBoxLayout* m_plotLayout;
    MetricPlot* m_plot;
    bool m_userChose = false;
};

} // namespace ckpt
