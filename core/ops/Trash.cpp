#include "ops/Trash.h"

#include "io/AtomicFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStorageInfo>

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

bool writable(const std::string& dir)
{
    return ::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) == 0;
}

// The device a path is on, or would be on once made: its nearest existing ancestor's.
std::optional<dev_t> deviceOf(fs::path path)
{
    for (;;) {
        struct stat st
        {};
        if (::stat(path.c_str(), &st) == 0)
            return st.st_dev;
        if (!path.has_parent_path() || path.parent_path() == path)
            return std::nullopt;
        path = path.parent_path();
    }
}

// $topdir/.Trash/$uid (an administrator's sticky .Trash) or $topdir/.Trash-$uid,
// where it exists or can be made: the two trashes of the freedesktop.org spec
// for a file outside the home file system, in the order Qt tries them.
std::optional<std::string> topdirTrash(const std::string& topdir)
{
    const std::string uid = std::to_string(::getuid());
    const std::string base = topdir == "/" ? std::string() : topdir;
    // A folder that is there, or one that can be made (as Qt makes it).
    const auto usable = [](const std::string& dir, const std::string& parent) {
        struct stat st
        {};
        if (::lstat(dir.c_str(), &st) == 0)
            return S_ISDIR(st.st_mode);
        return writable(parent);
    };
    const std::string shared = base + "/.Trash";
    struct stat st
    {};
    if (::lstat(shared.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX)) {
        const std::string mine = shared + "/" + uid;
        if (usable(mine, shared))
            return mine;
    }
    const std::string own = base + "/.Trash-" + uid;
    if (usable(own, topdir))
        return own;
    return std::nullopt;
}

} // namespace

Result<std::string> Trash::locationFor(const std::string& path)
{
    struct stat src
    {};
    if (::lstat(path.c_str(), &src) != 0)
        return Error{osError(path, errno), path};
    const QStorageInfo storage(QString::fromStdString(path));
    std::string topdir;
    if (storage.isValid() && storage != QStorageInfo(QDir::home())) {
        topdir = storage.rootPath().toStdString();
        if (auto trash = topdirTrash(topdir))
            return *trash;
    }
    const std::string home =
        QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation).toStdString() +
        "/Trash";
    const auto homeDevice = deviceOf(home);
    if (homeDevice && *homeDevice == src.st_dev)
        return home;
    std::string why = path + ": cannot be moved to the trash by a rename: ";
    if (!topdir.empty())
        why += "its file system (" + topdir + ") has no .Trash-" + std::to_string(::getuid()) +
               " folder and none can be made there, and ";
    why += "the home trash " + home + " is on another file system";
    return Error{why, path};
}

Result<TrashedItem> Trash::move(const std::string& path)
{
    auto where = locationFor(path);
    if (!where)
        return where.error();
    // Made here, as the spec says to: Qt's own attempt does not make missing
    // parents (a new $XDG_DATA_HOME), and when it fails Qt falls back to a
    // "trash" in the current directory.
    for (const char* sub : {"/files", "/info"}) {
        std::error_code ec;
        fs::create_directories(*where + sub, ec);
        if (ec)
            return Error{"cannot make the trash folder " + *where + sub + ": " + ec.message(),
                         path};
    }
    ::chmod(where->c_str(), 0700);
    QString inTrash;
    if (!QFile::moveToTrash(QString::fromStdString(path), &inTrash)) {
        // QFile keeps errno from the rename or mkdir that failed.
        const int err = errno;
        return Error{"cannot move " + path + " to the trash " + *where + ": " +
                         std::error_code(err, std::generic_category()).message(),
                     path};
    }
    TrashedItem item;
    item.original = path;
    item.trashed = QFileInfo(inTrash).absoluteFilePath().toStdString();
    if (!item.trashed.starts_with(*where + "/files/")) {
        // Not where it should be: back, and say so (never a trash of Qt's choosing).
        ::rename(item.trashed.c_str(), path.c_str());
        return Error{"the trash put " + path + " at " + item.trashed + ", not in " + *where +
                         ": moved back, nothing removed",
                     path};
    }
    const fs::path trashed(item.trashed);
    item.info =
        (trashed.parent_path().parent_path() / "info" / trashed.filename()).string() + ".trashinfo";
    return item;
}

Status Trash::restore(const TrashedItem& item)
{
    int moved = ::renameat2(AT_FDCWD, item.trashed.c_str(), AT_FDCWD, item.original.c_str(),
                            RENAME_NOREPLACE);
    if (moved != 0 && (errno == EINVAL || errno == ENOSYS)) {
        // A file system without RENAME_NOREPLACE: checked, then renamed.
        struct stat st
        {};
        if (::lstat(item.original.c_str(), &st) == 0)
            errno = EEXIST;
        else
            moved = ::rename(item.trashed.c_str(), item.original.c_str());
    }
    if (moved != 0) {
        const int err = errno;
        if (err == EEXIST)
            return Error{item.original + " exists again (saved anew?): the trashed copy stays at " +
                             item.trashed,
                         item.original};
        return Error{"cannot restore " + item.original + " from " + osError(item.trashed, err),
                     item.original};
    }
    ::unlink(item.info.c_str()); // a stale .trashinfo only lists a missing item
    return {};
}

} // namespace ckpt
