#include "plotpanel/PlotPanel.h"

#include "io/AtomicFile.h"
#include "plot/MetricPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace ckpt {

PlotPanel::PlotPanel(QWidget* parent)
    : QWidget(parent), m_metrics(new QListWidget(this)),
      m_smoothing(new QSlider(Qt::Horizontal, this)), m_smoothingValue(new QLabel(this)),
      m_logScale(new QCheckBox(tr("&Log scale"), this)),
      m_superseded(new QCheckBox(tr("S&uperseded epochs"), this)), m_xAxis(new QComboBox(this)),
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
    auto* smoothRow = new QHBoxLayout;
    smoothRow->addWidget(smoothLabel);
    smoothRow->addStretch(1);
    m_smoothingValue->setObjectName(QStringLiteral("smoothingValue"));
    smoothRow->addWidget(m_smoothingValue);
    side->addLayout(smoothRow);
    showSmoothing(0);
    m_smoothing->setRange(0, 99);
    m_smoothing->setToolTip(tr("Exponential moving average weight (0 = off)"));
    m_smoothing->setAccessibleName(tr("Smoothing"));
    side->addWidget(m_smoothing);
    side->addWidget(m_logScale);
    m_superseded->setChecked(true);
    m_superseded->setToolTip(tr("Draw the epochs a restart replaced as faded branches (they are "
                                "kept under .ckpt-studio/superseded/)"));
    side->addWidget(m_superseded);
    m_xAxis->addItems({tr("x: epoch"), tr("x: wall time"), tr("x: time since start")});
    m_xAxis->setAccessibleName(tr("X axis"));
    side->addWidget(m_xAxis);
    auto* exportButton = new QPushButton(tr("Export plot…"), this);
    side->addWidget(exportButton);
    connect(m_smoothing, &QSlider::valueChanged, m_plot, [this](int v) {
        showSmoothing(v);
        m_plot->setSmoothing(v / 100.0);
    });
    connect(m_logScale, &QCheckBox::toggled, m_plot, &MetricPlot::setLogScale);
    connect(m_superseded, &QCheckBox::toggled, m_plot, &MetricPlot::setShowSuperseded);
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

void PlotPanel::showSmoothing(int value)
{
    m_smoothingValue->setText(value == 0 ? tr("off") : QString::number(value / 100.0, 'f', 2));
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
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export plot"), QStringLiteral("metrics.png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (!path.isEmpty())
        exportTo(path);
}

void PlotPanel::exportTo(const QString& path)
{
    // Drawn here (the plot lives on this thread), written off it: the folder
    // may be on a slow mount.
    auto bytes = m_plot->render(path);
    if (!bytes) {
        reportExport(path, QString::fromStdString(bytes.error().message));
        return;
    }
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        watcher->deleteLater();
        reportExport(path, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([path, data = std::move(*bytes)] {
        const Status written = writeFileAtomically(
            path.toStdString(), std::string_view(data.constData(), std::size_t(data.size())));
        return written ? QString() : QString::fromStdString(written.error().message);
    }));
}

void PlotPanel::reportExport(const QString& path, const QString& error)
{
    if (!error.isEmpty()) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Export plot"),
                                    tr("The plot could not be exported."), QMessageBox::Ok, this);
        box->setInformativeText(error);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit exportFinished(path, error);
}

} // namespace ckpt
