#pragma once

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ckpt::test {

// Runs the part of a test that must be denied by permission bits as an
// unprivileged user. Root bypasses permission bits, and CI runs the tests as
// root: there the scope hands `tree` (recursively, symlinks not followed) to
// nobody:nogroup and switches the process's effective user and group (all
// threads: glibc applies set*id to every thread) to them, dropping the
// supplementary groups, until restore() or destruction. Root's capabilities
// leave the effective set with the user, so the kernel denies as it denies any
// user. Not root: nothing to do, the test's own user is denied already.
//
//     UnprivilegedScope asUser(base);
//     QVERIFY2(asUser.ok(), asUser.error().c_str());
//     auto result = Scanner::scan(base);   // runs as nobody
//     asUser.restore();                    // root again, to clean up
class UnprivilegedScope
{
public:
    explicit UnprivilegedScope(const std::filesystem::path& tree);
    ~UnprivilegedScope();
    UnprivilegedScope(const UnprivilegedScope&) = delete;
    UnprivilegedScope& operator=(const UnprivilegedScope&) = delete;

    // Gives `tree` (recursively, symlinks not followed) to nobody:nogroup, for a
    // test that runs a child process as nobody (setpriv); the error, or empty.
    static std::string handToNobody(const std::filesystem::path& tree);

    bool ok() const { return m_error.empty(); }
    // Why the switch failed (the test must fail, not skip); empty when ok().
    const std::string& error() const { return m_error; }
    // True while the process runs as nobody (false when it was not root).
    bool dropped() const { return m_dropped; }
    void restore();

private:
    bool m_switched = false; // some set*id call made: restore() undoes it
    bool m_dropped = false;
    std::string m_error;
    gid_t m_gid = 0;
    std::vector<gid_t> m_groups;
};

} // namespace ckpt::test
