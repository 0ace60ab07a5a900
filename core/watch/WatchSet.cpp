#include "watch/WatchSet.h"

#include "watch/InotifyNotifier.h"
#include "watch/WatchPaths.h"

#include <QFile>
#include <QFileSystemWatcher>

namespace ckpt {

WatchSet::WatchSet(bool polling, Callbacks callbacks, QObject* parent)
    : QObject(parent), m_polling(polling), m_callbacks(std::move(callbacks))
{
    if (m_polling)
        return;
    m_fsw = new QFileSystemWatcher(this);
    connect(m_fsw, &QFileSystemWatcher::directoryChanged, this, &WatchSet::onPathChanged);
    connect(m_fsw, &QFileSystemWatcher::fileChanged, this, &WatchSet::onPathChanged);
    m_inotify = new InotifyNotifier(
        [this](const std::string& dir, const std::string& name) {
            m_callbacks.entryChanged(dir, name);
        },
        [this] { m_callbacks.overflow(); }, this);
    if (!m_inotify->isValid()) {
        delete m_inotify;
        m_inotify = nullptr;
    }
    m_contents = new InotifyNotifier(
        [this](const std::string& dir, const std::string&) { m_callbacks.changed(dir); },
        [this] { m_callbacks.overflow(); }, this, true);
    if (!m_contents->isValid()) {
        delete m_contents;
        m_contents = nullptr;
    }
}

bool WatchSet::addContents(const std::string& path)
{
    return m_contents && m_contents->addPath(path);
}

void WatchSet::removeContents(const std::string& path)
{
    if (m_contents)
        m_contents->removePath(path);
}

WatchSet::~WatchSet() = default;

void WatchSet::add(const std::string& path, const std::string& notify, bool named)
{
    if (auto old = m_watched.find(path); old != m_watched.end() && old->second.named != named)
        remove(path); // switching between QFileSystemWatcher and named inotify
    auto [it, inserted] = m_watched.try_emplace(path, Watched{notify, {}, false});
    it->second.notify = notify;
    if (m_polling) {
        it->second.key = DirSnapshot::stat(path);
        return;
    }
    if (named && m_inotify && m_inotify->addPath(path)) {
        it->second.named = true;
        return;
    }
    // inotify cannot watch a missing path: the folder holding it is watched instead.
    if (inserted && DirSnapshot::stat(path).exists)
        m_fsw->addPath(qpath(path));
}

void WatchSet::remove(const std::string& path)
{
    auto it = m_watched.find(path);
    if (it == m_watched.end())
        return;
    if (it->second.named)
        m_inotify->removePath(path);
    else if (m_fsw)
        m_fsw->removePath(qpath(path));
    m_watched.erase(it);
}

bool WatchSet::isNamed(const std::string& path) const
{
    auto it = m_watched.find(path);
    return it != m_watched.end() && it->second.named;
}

void WatchSet::rearm(const std::string& path)
{
    if (isNamed(path))
        m_inotify->addPath(path);
}

void WatchSet::poll()
{
    for (auto& [path, w] : m_watched) {
        const DirSnapshot::StatKey key = DirSnapshot::stat(path);
        if (key != w.key) {
            w.key = key;
            m_callbacks.changed(w.notify);
        }
    }
}

std::vector<std::string> WatchSet::paths() const
{
    std::vector<std::string> out;
    out.reserve(m_watched.size());
    for (const auto& [path, w] : m_watched)
        out.push_back(path);
    return out;
}

void WatchSet::onPathChanged(const QString& path)
{
    const std::string p = QFile::encodeName(path).toStdString();
    auto it = m_watched.find(p);
    if (it == m_watched.end())
        return;
    const std::string notify = it->second.notify;
    // inotify forgets a directory that was deleted or replaced; watch it anew.
    if (!m_fsw->directories().contains(path) && DirSnapshot::isDirectory(p))
        m_fsw->addPath(path);
    m_callbacks.changed(notify);
}

} // namespace ckpt
