#include "plotpanel/PlotPanel.h"

#include "plot/MetricPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

namespace ckpt {

PlotPanel::PlotPanel(QWidget* parent)
    : QWidget(parent), m_metrics(new QListWidget(this)),
      m_smoothing(new QSlider(Qt::Horizontal, this)),
      m_logScale(new QCheckBox(tr("&Log scale"), this)), m_xAxis(new QComboBox(this)),
      m_plotLayout(new QVBoxLayout), m_plot(new MetricPlot(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* side = new QVBoxLayout;
    auto* title = new QLabel(tr("Metrics"), this);
    QFont f = title->font();
    f.setBold(true);
    title->setFont(f);
    side->addWidget(title);
    side->addWidget(m_metrics, 1);
    auto* smoothLabel = new QLabel(tr("&Smoothing"), this);
    smoothLabel->setBuddy(m_smoothing);
    side->addWidget(smoothLabel);
    m_smoothing->setRange(0, 99);
    m_smoothing->setToolTip(tr("Exponential moving average weight (0 = off)"));
    m_smoothing->setAccessibleName(tr("Smoothing"));
    side->addWidget(m_smoothing);
    side->addWidget(m_logScale);
    m_xAxis->addItems({tr("x: epoch"), tr("x: wall time"), tr("x: time since start")});
    m_xAxis->setAccessibleName(tr("X axis"));
    side->addWidget(m_xAxis);
    auto* exportButton = new QPushButton(tr("Export plot…"), this);
    side->addWidget(exportButton);
    connect(m_smoothing, &QSlider::valueChanged, m_plot,
            [this](int v) { m_plot->setSmoothing(v / 100.0); });
    connect(m_logScale, &QCheckBox::toggled, m_plot, &MetricPlot::setLogScale);
    connect(m_xAxis, &QComboBox::currentIndexChanged, m_plot,
            [this](int i) { m_plot->setXAxis(static_cast<MetricPlot::XAxis>(i)); });
    connect(exportButton, &QPushButton::clicked, this, &PlotPanel::exportPlot);
    m_metrics->setFixedWidth(170);
    m_metrics->setAccessibleName(tr("Metrics to plot"));
    m_metrics->setToolTip(tr("Check the metrics to plot; runs selected in the sidebar are "
                             "overlaid"));
    layout->addLayout(side);
    m_plotLayout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_plotLayout, 1);
    m_plotLayout->addWidget(m_plot);
    connect(m_metrics, &QListWidget::itemChanged, this, [this] {
        m_userChose = true;
        emit checkedMetricsChanged(checkedMetrics());
    });
    connect(this, &PlotPanel::checkedMetricsChanged, m_plot, &MetricPlot::setMetrics);
}

void PlotPanel::setMetrics(const QStringList& metrics, const QStringList& preferred)
{
    QStringList checked = checkedMetrics();
    if (!m_userChose && checked.isEmpty())
        checked = preferred;
    {
        const QSignalBlocker block(m_metrics);
        m_metrics->clear();
        for (const QString& m : metrics) {
            auto* item = new QListWidgetItem(m, m_metrics);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
            item->setCheckState(checked.contains(m) ? Qt::Checked : Qt::Unchecked);
        }
    }
    emit checkedMetricsChanged(checkedMetrics());
}

QStringList PlotPanel::checkedMetrics() const
{
    QStringList out;
    for (int i = 0; i < m_metrics->count(); ++i)
        if (m_metrics->item(i)->checkState() == Qt::Checked)
            out << m_metrics->item(i)->text();
    return out;
}

void PlotPanel::setCheckedMetrics(const QStringList& metrics)
{
    {
        const QSignalBlocker block(m_metrics);
        for (int i = 0; i < m_metrics->count(); ++i)
            m_metrics->item(i)->setCheckState(
                metrics.contains(m_metrics->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
    }
    m_userChose = true;
    emit checkedMetricsChanged(checkedMetrics());
}

void PlotPanel::exportPlot()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export plot"), QStringLiteral("metrics.png"),
                                     tr("PNG image (*.png);;PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        m_plot->savePdf(path);
    else
        m_plot->savePng(path);
}

} // namespace ckpt
