#include "launch/LogTailWorker.h"

namespace ckpt {

LogTailWorker::LogTailWorker(const QString& path, int intervalMs)
    : m_tail(path.toStdString()), m_interval(intervalMs)
{}

void LogTailWorker::begin()
{
    m_timer = new QTimer(this);
    connect(m_timer, &QTimer::timeout, this, &LogTailWorker::poll);
    m_timer->start(m_interval);
    poll();
}

void LogTailWorker::poll()
{
    for (;;) {
        auto text = m_tail.readMore();
        if (!text) {
            emit failed(QString::fromStdString(text.error().message));
            return;
        }
        if (text->empty())
            return;
        // Hold back a trailing partial UTF-8 sequence until the rest arrives.
        std::size_t keep = text->size();
        std::size_t back = 0;
        while (back < 3 && back < keep &&
               (static_cast<unsigned char>((*text)[keep - 1 - back]) & 0xC0) == 0x80)
            ++back;
        if (back < keep) {
            const auto lead = static_cast<unsigned char>((*text)[keep - 1 - back]);
            const std::size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
            if (need > back + 1)
                keep -= back + 1;
        }
        if (keep > 0)
            emit appended(QString::fromUtf8(text->data(), static_cast<qsizetype>(keep)));
        if (keep < text->size()) {
            m_tail = LogTail(m_tail.path(), m_tail.offset() - (text->size() - keep));
            return;
        }
    }
}

} // namespace ckpt
