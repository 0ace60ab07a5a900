#pragma once

#include "watch/DirSnapshot.h"

#include <QObject>

#include <functional>
#include <map>
#include <string>
#include <vector>

class QFileSystemWatcher;

namespace ckpt {

class InotifyNotifier;

// The paths the watcher watches and how: QFileSystemWatcher, raw inotify with
// entry names (for epochs/), or lstat polling (network file systems). Each path
// carries the key to report when it changes, so several paths (a root and its
// last/best links) can feed one handler.
class WatchSet final : public QObject
{
    Q_OBJECT

public:
    struct Callbacks
    {
        std::function<void(const std::string& notify)> changed;
        // Named watches: the entry that changed; empty name: the directory itself.
        std::function<void(const std::string& dir, const std::string& name)> entryChanged;
        // The kernel dropped events: every named directory must be listed whole.
        std::function<void()> overflow;
    };

    WatchSet(bool polling, Callbacks callbacks, QObject* parent = nullptr);
    ~WatchSet() override;

    // A path that does not exist yet is kept (polling sees it appear); with
    // inotify it is armed by a later add() after remove(), once it exists.
    void add(const std::string& path, const std::string& notify, bool named = false);
    void remove(const std::string& path);
    bool isNamed(const std::string& path) const;
    bool contains(const std::string& path) const { return m_watched.count(path) != 0; }
    // Watches the files inside directory `path` (inotify only; a no-op when
    // polling): a file written, truncated or touched there reports `path`.
    // False when the kernel refuses more watches.
    bool addContents(const std::string& path);
    void removeContents(const std::string& path);
    // Watches a named directory anew after it was replaced.
    void rearm(const std::string& path);
    // Polling mode: lstat every path, report those that changed.
    void poll();
    std::vector<std::string> paths() const;

private:
    struct Watched
    {
        std::string notify;
        DirSnapshot::StatKey key;
        bool named = false;
    };

    void onPathChanged(const QString& path);

    bool m_polling = false;
    Callbacks m_callbacks;
    QFileSystemWatcher* m_fsw = nullptr;
    InotifyNotifier* m_inotify = nullptr;
    InotifyNotifier* m_contents = nullptr;
    std::map<std::string, Watched> m_watched;
};

} // namespace ckpt
