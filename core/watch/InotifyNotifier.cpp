#include "watch/InotifyNotifier.h"

#include <QSocketNotifier>

#include <cerrno>
#include <sys/inotify.h>
#include <unistd.h>

namespace ckpt {

namespace {

constexpr std::uint32_t kMask = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
                                IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;
constexpr std::uint32_t kContentMask = kMask | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE;

} // namespace

InotifyNotifier::InotifyNotifier(Callback onChange, std::function<void()> onOverflow,
                                 QObject* parent, bool contents)
    : QObject(parent), m_mask(contents ? kContentMask : kMask), m_onChange(std::move(onChange)),
      m_onOverflow(std::move(onOverflow))
{
    m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m_fd < 0)
        return;
    m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &InotifyNotifier::readEvents);
}

InotifyNotifier::~InotifyNotifier()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool InotifyNotifier::addPath(const std::string& dir)
{
    if (m_fd < 0)
        return false;
    if (m_byPath.count(dir))
        return true;
    const int wd = ::inotify_add_watch(m_fd, dir.c_str(), m_mask);
    if (wd < 0)
        return false;
    // The same directory under two names shares one watch descriptor.
    if (auto old = m_byWatch.find(wd); old != m_byWatch.end())
        m_byPath.erase(old->second);
    m_byWatch[wd] = dir;
    m_byPath[dir] = wd;
    return true;
}

void InotifyNotifier::removePath(const std::string& dir)
{
    auto it = m_byPath.find(dir);
    if (it == m_byPath.end())
        return;
    ::inotify_rm_watch(m_fd, it->second);
    m_byWatch.erase(it->second);
    m_byPath.erase(it);
}

void InotifyNotifier::readEvents()
{
    alignas(inotify_event) char buf[64 * 1024];
    for (;;) {
        const ssize_t n = ::read(m_fd, buf, sizeof buf);
        if (n <= 0)
            return; // EAGAIN: drained
        for (ssize_t off = 0; off < n;) {
            const auto* ev = reinterpret_cast<const inotify_event*>(buf + off);
            off += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
            if (ev->mask & IN_Q_OVERFLOW) {
                m_onOverflow();
                continue;
            }
            auto it = m_byWatch.find(ev->wd);
            if (it == m_byWatch.end())
                continue;
            const std::string dir = it->second;
            if (ev->mask & IN_IGNORED) {
                // The kernel dropped the watch (directory deleted or unmounted).
                m_byPath.erase(dir);
                m_byWatch.erase(it);
                m_onChange(dir, {});
                continue;
            }
            if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
                m_onChange(dir, {});
                continue;
            }
            m_onChange(dir, ev->len ? std::string(ev->name) : std::string());
        }
    }
}

} // namespace ckpt
