#pragma once

#include <QObject>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>

class QSocketNotifier;

namespace ckpt {

// inotify with entry names, for directories with many entries (epochs/ of a long
// run): QFileSystemWatcher only says "the directory changed", which costs a
// readdir of every entry per save; the names make the work proportional to the
// change. Linux only; isValid() is false elsewhere or when inotify is exhausted,
// and the caller then falls back to QFileSystemWatcher.
class InotifyNotifier final : public QObject
{
    Q_OBJECT

public:
    // `name` is the entry that changed, empty when the directory itself went
    // away or moved. `overflow` is called when the kernel dropped events.
    using Callback = std::function<void(const std::string& dir, const std::string& name)>;

    // `contents`: report changes to the files in the directory (written,
    // truncated, touched) instead of entries appearing and going away.
    InotifyNotifier(Callback onChange, std::function<void()> onOverflow, QObject* parent = nullptr,
                    bool contents = false);
    ~InotifyNotifier() override;

    bool isValid() const { return m_fd >= 0; }
    bool addPath(const std::string& dir);
    void removePath(const std::string& dir);

private:
    void readEvents();

    int m_fd = -1;
    std::uint32_t m_mask = 0;
    QSocketNotifier* m_notifier = nullptr;
    Callback m_onChange;
    std::function<void()> m_onOverflow;
    std::unordered_map<int, std::string> m_byWatch;
    std::unordered_map<std::string, int> m_byPath;
};

} // namespace ckpt
