#include "UnprivilegedScope.h"

#include <cerrno>
#include <cstring>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

namespace ckpt::test {

namespace {

std::string failure(const std::string& what)
{
    return what + ": " + std::strerror(errno);
}

} // namespace

std::string UnprivilegedScope::handToNobody(const std::filesystem::path& tree)
{
    const passwd* user = ::getpwnam("nobody");
    const group* grp = ::getgrnam("nogroup");
    if (!user || !grp)
        return "no user nobody or no group nogroup to run the denied part as";
    const uid_t uid = user->pw_uid;
    const gid_t gid = grp->gr_gid;
    std::error_code ec;
    if (::lchown(tree.c_str(), uid, gid) != 0)
        return failure("chown " + tree.string());
    for (std::filesystem::recursive_directory_iterator it(tree, ec), end; !ec && it != end;
         it.increment(ec)) {
        if (::lchown(it->path().c_str(), uid, gid) != 0)
            return failure("chown " + it->path().string());
    }
    if (ec)
        return "walking " + tree.string() + ": " + ec.message();
    return {};
}

UnprivilegedScope::UnprivilegedScope(const std::filesystem::path& tree)
{
    if (::geteuid() != 0)
        return;
    // Hand the fixture to nobody: a QTemporaryDir is 0700, and the permission
    // bits the test sets must be the owner's to deny anything.
    m_error = handToNobody(tree);
    if (!m_error.empty())
        return;
    const uid_t uid = ::getpwnam("nobody")->pw_uid;
    const gid_t gid = ::getgrnam("nogroup")->gr_gid;
    const int count = ::getgroups(0, nullptr);
    m_groups.resize(static_cast<std::size_t>(count > 0 ? count : 0));
    if (count > 0 && ::getgroups(count, m_groups.data()) < 0) {
        m_error = failure("getgroups");
        return;
    }
    m_gid = ::getegid();
    m_switched = true;
    if (::setgroups(0, nullptr) != 0 || ::setegid(gid) != 0) {
        m_error = failure("dropping root's groups");
        restore();
        return;
    }
    if (::seteuid(uid) != 0) {
        m_error = failure("switching to user nobody");
        restore();
        return;
    }
    m_dropped = true;
    if (::access(tree.c_str(), R_OK | X_OK) != 0) {
        m_error = failure("user nobody cannot reach " + tree.string());
        restore();
    }
}

UnprivilegedScope::~UnprivilegedScope()
{
    restore();
}

void UnprivilegedScope::restore()
{
    if (!m_switched)
        return;
    // The saved set-user-ID is still root's: these cannot fail.
    (void)::seteuid(0);
    (void)::setegid(m_gid);
    (void)::setgroups(m_groups.size(), m_groups.data());
    m_switched = false;
    m_dropped = false;
}

} // namespace ckpt::test
