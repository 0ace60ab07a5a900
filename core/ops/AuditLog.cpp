#include "ops/AuditLog.h"

#include "io/AtomicFile.h"
#include "io/TaggedLog.h"
#include "layout/Layout.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

AuditLog::AuditLog(const Layout& layout, const fs::path& runRoot)
    : m_path(layout.auditLogPath(runRoot))
{}

Status AuditLog::checkWritable() const
{
    std::error_code ec;
    std::filesystem::create_directories(m_path.parent_path(), ec);
    const int fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{"cannot write the audit log " + osError(m_path, errno), m_path.string()};
    ::close(fd);
    return {};
}

Status AuditLog::write(std::string_view message) const
{
    return TaggedLog(m_path, std::string(kTag)).write(message);
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
