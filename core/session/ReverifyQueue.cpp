#include "session/ReverifyQueue.h"

namespace ckpt {

ReverifyQueue::ReverifyQueue(QObject* parent) : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(500);
    connect(&m_timer, &QTimer::timeout, this, &ReverifyQueue::due);
}

bool ReverifyQueue::isVerdict(ChecksumState state)
{
    switch (state) {
    case ChecksumState::Ok:
    case ChecksumState::Mismatch:
    case ChecksumState::Error:
    case ChecksumState::Missing:
    case ChecksumState::BadInfo:
    case ChecksumState::Changed:
        return true;
    case ChecksumState::Unknown:
    case ChecksumState::NoChecksum:
    case ChecksumState::Disabled:
    case ChecksumState::Verifying:
        break;
    }
    return false;
}

void ReverifyQueue::add(const QString& root, int epoch)
{
    m_waiting[root].insert(epoch);
    m_timer.start();
}

void ReverifyQueue::forget(const QString& root)
{
    m_waiting.erase(root);
    m_inFlight.erase(root);
}

std::map<QString, std::vector<int>> ReverifyQueue::take()
{
    std::map<QString, std::vector<int>> out;
    for (auto& [root, epochs] : m_waiting) {
        out[root].assign(epochs.begin(), epochs.end());
        m_inFlight[root].insert(epochs.begin(), epochs.end());
    }
    m_waiting.clear();
    return out;
}

bool ReverifyQueue::answers(const QString& root, int epoch)
{
    auto it = m_inFlight.find(root);
    if (it == m_inFlight.end() || !it->second.erase(epoch))
        return false;
    if (it->second.empty())
        m_inFlight.erase(it);
    return true;
}

} // namespace ckpt
