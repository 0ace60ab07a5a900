#pragma once

#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <ctime>

// Longest interval between two ticks of a 1 ms timer: how long the GUI thread
// was busy without returning to the event loop.
class GapProbe
{
public:
    GapProbe()
    {
        m_timer.setInterval(1);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            const qint64 cpu = threadCpuNs();
            m_maxGap = std::max(m_maxGap, now - m_last);
            m_maxCpu = std::max(m_maxCpu, cpu - m_lastCpu);
            m_last = now;
            m_lastCpu = cpu;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_maxGap = 0;
        m_lastCpu = threadCpuNs();
        m_maxCpu = 0;
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    double maxGapMs() const { return m_maxGap / 1e6; }
    // The GUI thread's own CPU time within the longest busy stretch: tells our
    // work apart from waiting for a core on a loaded machine.
    double maxCpuMs() const { return m_maxCpu / 1e6; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_maxGap = 0;
    qint64 m_lastCpu = 0;
    qint64 m_maxCpu = 0;

    static qint64 threadCpuNs()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
    }
};
