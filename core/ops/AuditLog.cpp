#include "ops/AuditLog.h"

#include "io/AtomicFile.h"
#include "io/CandleLog.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

AuditLog::AuditLog(const fs::path& runRoot) : m_path(locate(runRoot)) {}

fs::path AuditLog::locate(const fs::path& runRoot)
{
    const fs::path own = runRoot / "ckpt.log";
    struct stat st
    {};
    if (::stat(own.c_str(), &st) == 0)
        return own;
    const fs::path above = runRoot.parent_path() / "ckpt.log";
    if (!runRoot.parent_path().empty() && ::stat(above.c_str(), &st) == 0 && S_ISREG(st.st_mode))
        return above;
    return own;
}

Status AuditLog::checkWritable() const
{
    const int fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{"cannot write the audit log " + osError(m_path, errno), m_path.string()};
    ::close(fd);
    return {};
}

Status AuditLog::write(std::string_view message) const
{
    return CandleLog(m_path, std::string(kTag)).write(message);
}

std::string AuditLog::defaultActor()
{
    std::string user;
    passwd pwd{};
    passwd* found = nullptr;
    char buf[4096];
    if (::getpwuid_r(::geteuid(), &pwd, buf, sizeof buf, &found) == 0 && found && found->pw_name)
        user = found->pw_name;
    else if (const char* env = std::getenv("USER"))
        user = env;
    else
        user = "uid" + std::to_string(::geteuid());
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0')
        return user;
    return user + "@" + host;
}

} // namespace ckpt
