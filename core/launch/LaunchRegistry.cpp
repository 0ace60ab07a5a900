#include "launch/LaunchRegistry.h"

#include "io/AtomicFile.h"
#include "json/LenientJson.h"
#include "launch/LaunchRecord.h"

#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

std::string normalRoot(const std::string& root)
{
    std::string s = fs::path(root).lexically_normal().string();
    while (s.size() > 1 && s.back() == '/')
        s.pop_back();
    return s;
}

// An flock held for one read-modify-write of the registry.
class FileLock
{
public:
    explicit FileLock(int fd) : m_fd(fd) {}
    ~FileLock()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

private:
    int m_fd;
};

} // namespace

LaunchRegistry::LaunchRegistry(fs::path file)
    : m_file(file.empty() ? defaultPath() : std::move(file))
{}

fs::path LaunchRegistry::defaultPath()
{
    // One file for every program of the suite (ckpt-studio and ckpt have
    // different application names, hence different AppDataLocations).
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return fs::path(dir.toStdString()) / "ckpt-studio" / "launched-runs.json";
}

Result<LaunchRegistry::Content> LaunchRegistry::read() const
{
    Content content;
    std::error_code ec;
    if (!fs::exists(m_file, ec))
        return content;
    auto text = readFile(m_file);
    if (!text)
        return text.error();
    auto json = LenientJson::parse(*text, m_file.string());
    if (!json)
        return json.error();
    try {
        for (const Json& j : json->value("launched", Json::array()))
            content.launched.push_back({j.value("run_root", std::string()),
                                        j.value("name", std::string()),
                                        j.value("added", std::string())});
        for (const Json& j : json->value("external", Json::array()))
            content.external.push_back({j.value("run_root", std::string()),
                                        j.value("config_file", std::string()),
                                        j.value("command", std::string())});
    } catch (const std::exception& e) {
        return Error::at(m_file.string(), std::string("malformed run registry: ") + e.what());
    }
    return content;
}

template <typename Change> Status LaunchRegistry::modify(Change&& change) const
{
    std::error_code ec;
    fs::create_directories(m_file.parent_path(), ec);
    if (ec)
        return Error::at(m_file.parent_path().string(),
                         "cannot create the folder: " + ec.message());
    const fs::path lockPath = m_file.string() + ".lock";
    const int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{osError(lockPath, errno), lockPath.string()};
    FileLock lock(fd);
    while (::flock(fd, LOCK_EX) != 0)
        if (errno != EINTR)
            return Error{"cannot lock " + osError(lockPath, errno), lockPath.string()};
    auto content = read();
    if (!content)
        return content.error();
    change(*content);
    Json launched = Json::array();
    for (const Launched& l : content->launched)
        launched.push_back({{"run_root", l.runRoot}, {"name", l.name}, {"added", l.added}});
    Json external = Json::array();
    for (const External& x : content->external)
        external.push_back(
            {{"run_root", x.runRoot}, {"config_file", x.configFile}, {"command", x.command}});
    const Json doc = {{"ckpt_studio_registry", 1}, {"launched", launched}, {"external", external}};
    return writeFileAtomically(m_file, doc.dump(2) + "\n");
}

Status LaunchRegistry::checkWritable() const
{
    // Messages appended piece by piece: GCC 12 at -O3 warns falsely on
    // "literal" + temporary.
    const fs::path dir = m_file.parent_path();
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        std::string message = "cannot create the folder: ";
        message += ec.message();
        return Error::at(dir.string(), message);
    }
    const fs::path lockPath = m_file.string() + ".lock";
    const int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{osError(lockPath, errno), lockPath.string()};
    ::close(fd);
    if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
        std::string message = "cannot write ";
        message += osError(m_file, errno);
        return Error{message, m_file.string()};
    }
    return {};
}

Result<std::vector<LaunchRegistry::Launched>> LaunchRegistry::launched() const
{
    auto content = read();
    if (!content)
        return content.error();
    return std::move(content->launched);
}

Status LaunchRegistry::addLaunched(const Launched& entry) const
{
    Launched e = entry;
    e.runRoot = normalRoot(e.runRoot);
    if (e.added.empty())
        e.added = isoNow();
    return modify([&e](Content& c) {
        for (Launched& l : c.launched)
            if (l.runRoot == e.runRoot) {
                l.name = e.name;
                return;
            }
        c.launched.push_back(e);
    });
}

Status LaunchRegistry::forget(const std::string& runRoot) const
{
    const std::string root = normalRoot(runRoot);
    return modify([&root](Content& c) {
        std::erase_if(c.launched, [&](const Launched& l) { return l.runRoot == root; });
    });
}

Result<std::optional<LaunchRegistry::External>>
LaunchRegistry::external(const std::string& runRoot) const
{
    auto content = read();
    if (!content)
        return content.error();
    const std::string root = normalRoot(runRoot);
    for (const External& x : content->external)
        if (x.runRoot == root)
            return std::optional<External>(x);
    return std::optional<External>();
}

Status LaunchRegistry::rememberExternal(const External& entry) const
{
    External e = entry;
    e.runRoot = normalRoot(e.runRoot);
    return modify([&e](Content& c) {
        for (External& x : c.external)
            if (x.runRoot == e.runRoot) {
                if (!e.configFile.empty())
                    x.configFile = e.configFile;
                if (!e.command.empty())
                    x.command = e.command;
                return;
            }
        c.external.push_back(e);
    });
}

} // namespace ckpt
