#include "LaunchedRunArgument.h"

#include "RunArgument.h"
#include "launch/LaunchRecord.h"

#include <QDir>

#include <filesystem>

namespace ckpt::cli {

Result<std::string> launchedRunRoot(const QString& argument)
{
    const std::string path = QDir(argument).absolutePath().toStdString();
    std::error_code ec;
    if (std::filesystem::exists(LaunchRecord::pathFor(path), ec))
        return path;
    auto run = loadRunArgument(argument);
    if (!run)
        return run.error();
    return run->root;
}

} // namespace ckpt::cli
