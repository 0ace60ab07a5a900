#include "model/TensorHistogramPlot.h"

#include "plot/PlotTheme.h"

#include <QEvent>
#include <QLabel>
#include <QStackedLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace ckpt {

TensorHistogramPlot::TensorHistogramPlot(QWidget* parent)
    : QWidget(parent), m_stack(new QStackedLayout(this)), m_plot(new QCustomPlot(this)),
      m_message(new QLabel(this))
{
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setForegroundRole(QPalette::PlaceholderText);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->xAxis->setLabel(tr("value"));
    m_plot->yAxis->setLabel(tr("count"));
    m_plot->legend->setVisible(false);
    m_stack->addWidget(m_message);
    m_stack->addWidget(m_plot);
    setMinimumSize(240, 160);
    applyTheme();
    setMessage(tr("Select a numeric dataset"));
}

int TensorHistogramPlot::seriesCount() const
{
    return m_plot->plottableCount();
}

void TensorHistogramPlot::setMessage(const QString& message)
{
    m_series.clear();
    rebuild();
    m_message->setText(message);
    m_stack->setCurrentWidget(m_message);
}

QString TensorHistogramPlot::message() const
{
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

void TensorHistogramPlot::setSeries(std::vector<Series> series)
{
    m_series = std::move(series);
    rebuild();
    const bool any = std::any_of(m_series.begin(), m_series.end(),
                                 [](const Series& s) { return s.histogram.bins() > 0; });
    if (!any) {
        m_message->setText(tr("No finite values to plot"));
        m_stack->setCurrentWidget(m_message);
        return;
    }
    m_stack->setCurrentWidget(m_plot);
}

void TensorHistogramPlot::setLogY(bool on)
{
    if (on == m_logY)
        return;
    m_logY = on;
    rebuild();
}

void TensorHistogramPlot::rebuild()
{
    m_plot->clearPlottables();
    m_bars.clear();
    QCPAxis* y = m_plot->yAxis;
    y->setScaleType(m_logY ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    y->setTicker(m_logY ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                        : QSharedPointer<QCPAxisTicker>::create());
    for (const Series& s : m_series) {
        const Histogram& h = s.histogram;
        if (h.bins() == 0)
            continue;
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(s.name);
        bars->setWidthType(QCPBars::wtPlotCoords);
        bars->setWidth(h.binWidth());
        // On a log axis a bar cannot start at 0; below one count nothing is drawn.
        bars->setBaseValue(m_logY ? 0.5 : 0.0);
        QVector<double> keys, values;
        for (int i = 0; i < h.bins(); ++i) {
            keys << h.binCenter(i);
            values << double(h.counts[std::size_t(i)]);
        }
        bars->setData(keys, values, true);
        m_bars.push_back(bars);
    }
    m_plot->legend->setVisible(m_bars.size() > 1);
    applyTheme();
    rescale();
    m_plot->replot();
}

void TensorHistogramPlot::rescale()
{
    if (m_bars.empty())
        return;
    double lo = 0, hi = 0, top = 1;
    bool first = true;
    for (const Series& s : m_series) {
        if (s.histogram.bins() == 0)
            continue;
        lo = first ? s.histogram.lo : std::min(lo, s.histogram.lo);
        hi = first ? s.histogram.hi : std::max(hi, s.histogram.hi);
        first = false;
        for (auto c : s.histogram.counts)
            top = std::max(top, double(c));
    }
    const double pad = (hi - lo) * 0.02;
    m_plot->xAxis->setRange(lo - pad, hi + pad);
    if (m_logY)
        m_plot->yAxis->setRange(0.5, top * 2.0);
    else
        m_plot->yAxis->setRange(0.0, top * 1.05);
}

void TensorHistogramPlot::applyTheme()
{
    const PlotTheme theme(palette());
    m_plot->setBackground(theme.background());
    m_plot->axisRect()->setBackground(theme.background());
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setBasePen(QPen(theme.axis()));
        axis->setTickPen(QPen(theme.axis()));
        axis->setSubTickPen(QPen(theme.axis()));
        axis->setTickLabelColor(theme.text());
        axis->setLabelColor(theme.text());
        axis->grid()->setPen(QPen(theme.grid(), 0, Qt::DotLine));
        axis->grid()->setZeroLinePen(QPen(theme.grid()));
    }
    m_plot->legend->setBrush(theme.legendBackground());
    m_plot->legend->setBorderPen(QPen(theme.legendBorder()));
    m_plot->legend->setTextColor(theme.text());
    const bool overlay = m_bars.size() > 1;
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        QColor colour = theme.runColour(int(i));
        m_bars[i]->setPen(QPen(colour, 1.0));
        colour.setAlpha(overlay ? 110 : 190);
        m_bars[i]->setBrush(colour);
    }
}

void TensorHistogramPlot::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyTheme();
        m_plot->replot();
    }
}

} // namespace ckpt
