#include "launch/LogTailWorker.h"

#include <filesystem>

namespace ckpt {

LogTailWorker::LogTailWorker(const QString& path, int intervalMs, qint64 backlog)
    : m_tail(path.toStdString()), m_interval(intervalMs), m_backlog(backlog)
{}

void LogTailWorker::begin()
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(m_tail.path(), ec);
    if (!ec && m_backlog > 0 && size > std::uint64_t(m_backlog)) {
        m_tail = LogTail(m_tail.path(), size - std::uint64_t(m_backlog));
        m_dropPartialLine = true;
    }
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
        if (m_dropPartialLine) {
            // Started mid-file: the first line is a fragment.
            const auto newline = text->find('\n');
            if (newline == std::string::npos)
                continue;
            m_dropPartialLine = false;
            text->erase(0, newline + 1);
            emit skipped(qint64(m_tail.offset() - text->size()));
            if (text->empty())
                continue;
        }
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
