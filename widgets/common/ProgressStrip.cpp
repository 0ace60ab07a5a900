#include "common/ProgressStrip.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace ckpt {

ProgressStrip::ProgressStrip(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_bar(new QProgressBar(this)),
      m_rateLabel(new QLabel(this)), m_cancel(new QToolButton(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_bar);
    layout->addWidget(m_rateLabel);
    layout->addWidget(m_cancel);
    m_bar->setFixedWidth(220);
    m_bar->setTextVisible(true);
    m_rateLabel->setMinimumWidth(80);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the running task (Esc)"));
    m_cancel->setAccessibleName(tr("Cancel task"));
    connect(m_cancel, &QToolButton::clicked, this, &ProgressStrip::cancelRequested);
    setVisible(false);
}

void ProgressStrip::start(const QString& title)
{
    m_running = true;
    m_rate = 0.0;
    m_clock.start();
    m_title->setText(title);
    m_bar->setRange(0, 0);
    m_rateLabel->clear();
    m_cancel->setEnabled(true);
    setVisible(true);
}

void ProgressStrip::setProgress(quint64 done, quint64 total, const QString& unit)
{
    if (!m_running)
        return;
    if (total > 0) {
        // QProgressBar holds ints: show per mille.
        m_bar->setRange(0, 1000);
        m_bar->setValue(
            static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)));
    }
    const double seconds = m_clock.elapsed() / 1000.0;
    if (unit == QLatin1String("bytes") && seconds > 0.05) {
        m_rate = static_cast<double>(done) / seconds;
        m_rateLabel->setText(tr("%1 MB/s").arg(m_rate / 1e6, 0, 'f', 1));
    } else if (total > 0) {
        m_rateLabel->setText(tr("%1 / %2 %3").arg(done).arg(total).arg(unit));
    }
}

void ProgressStrip::finish(const QString& message)
{
    m_running = false;
    m_title->setText(message);
    m_bar->setRange(0, 1000);
    m_bar->setValue(1000);
    m_cancel->setEnabled(false);
    setVisible(false);
}

} // namespace ckpt
