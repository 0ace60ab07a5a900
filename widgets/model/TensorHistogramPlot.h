#pragma once

#include "hdf5/Histogram.h"

#include <QString>
#include <QWidget>

#include <vector>

class QCPBars;
class QCustomPlot;
class QLabel;
class QStackedLayout;

namespace ckpt {

// Bars of one or more histograms sharing the same bins (QCustomPlot
// underneath). Overlaid series are semi-transparent so both stay visible;
// counts can be shown on a log axis, where empty bins simply vanish.
class TensorHistogramPlot final : public QWidget
{
    Q_OBJECT
    Q_PROPERTY(bool logY READ logY WRITE setLogY)
public:
    struct Series
    {
        QString name;
        Histogram histogram;
    };

    explicit TensorHistogramPlot(QWidget* parent = nullptr);

    void setSeries(std::vector<Series> series);
    void setMessage(const QString& message); // shown instead of the plot
    void clear() { setMessage(QString()); }
    // The message shown instead of the plot; empty while a plot is shown.
    QString message() const;
    bool logY() const { return m_logY; }
    void setLogY(bool on);

    int seriesCount() const;
    QCustomPlot* plot() const { return m_plot; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void applyTheme();
    void rescale();

    QStackedLayout* m_stack;
    QCustomPlot* m_plot;
    QLabel* m_message;
    std::vector<Series> m_series;
    std::vector<QCPBars*> m_bars;
    bool m_logY = false;
};

} // namespace ckpt
