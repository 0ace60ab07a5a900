#pragma once

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace ckpt {

// A slim strip for the status bar: what is running, a progress bar, the
// throughput in MB/s when the unit is bytes, and a Cancel button.
class ProgressStrip final : public QWidget
{
    Q_OBJECT
public:
    explicit ProgressStrip(QWidget* parent = nullptr);

    void start(const QString& title);
    void setProgress(quint64 done, quint64 total, const QString& unit);
    void finish(const QString& message);
    bool isRunning() const { return m_running; }
    double bytesPerSecond() const { return m_rate; }

signals:
    void cancelRequested();

private:
    QLabel* m_title;
    QProgressBar* m_bar;
    QLabel* m_rateLabel;
    QToolButton* m_cancel;
    QElapsedTimer m_clock;
    bool m_running = false;
    double m_rate = 0.0;
};

} // namespace ckpt
