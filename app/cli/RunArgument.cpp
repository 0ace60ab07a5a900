#include "RunArgument.h"

#include "layout/Layout.h"
#include "scan/Scanner.h"

#include <QDir>

namespace ckpt::cli {

Result<Run> loadRunArgument(const QString& argument)
{
    const std::string path = QDir(argument).absolutePath().toStdString();
    auto outcome = Scanner::scan(path);
    if (!outcome)
        return outcome.error();
    auto& runs = outcome->runs;
    if (runs.empty())
        return Error::at(path, "no checkpoint run here (looked for " + knownLayoutsText() + ")");
    if (runs.size() > 1) {
        std::string message = std::to_string(runs.size()) + " runs below this folder; name one:";
        for (const auto& r : runs)
            message += "\n  " + r.root;
        return Error::at(path, message);
    }
    return std::move(runs.front());
}

Result<std::string> runRootArgument(const QString& argument)
{
    const std::string path = QDir(argument).absolutePath().toStdString();
    if (layoutAt(path))
        return path;
    auto run = loadRunArgument(argument);
    if (!run)
        return run.error();
    return run->root;
}

} // namespace ckpt::cli
