#include "ModelArgument.h"

#include "RunArgument.h"
#include "candle/CkptInfoReader.h"

#include <filesystem>
#include <system_error>

namespace ckpt::cli {

namespace fs = std::filesystem;

Result<std::string> resolveModelArgument(const QString& argument)
{
    const fs::path path = argument.toStdString();
    std::error_code ec;
    if (!fs::exists(path, ec))
        return Error::at(path.string(), "no such file or directory");
    if (!fs::is_directory(path, ec))
        return path.string();
    std::string name = "model.h5";
    const fs::path info = path / "ckpt-info.json";
    if (fs::exists(info, ec)) {
        auto read = CkptInfoReader::readFile(info);
        if (read && read->modelFile && !read->modelFile->empty())
            name = *read->modelFile;
    }
    const fs::path model = path / name;
    if (!fs::exists(model, ec))
        return Error::at(path.string(), "epoch directory without a model file (" + name + ")");
    return model.string();
}

Result<std::pair<std::string, std::string>> resolveRunEpochs(const QString& runArgument, int first,
                                                             int second)
{
    auto run = loadRunArgument(runArgument);
    if (!run)
        return run.error();
    std::string paths[2];
    const int numbers[2] = {first, second};
    for (int i = 0; i < 2; ++i) {
        const Epoch* epoch = run->findEpoch(numbers[i]);
        if (!epoch)
            return Error::at(run->root, "no epoch " + std::to_string(numbers[i]) + " in this run");
        if (epoch->modelPath.empty())
            return Error::at(epoch->dir,
                             "epoch " + std::to_string(numbers[i]) + " has no model file");
        paths[i] = epoch->modelPath;
    }
    return std::make_pair(paths[0], paths[1]);
}

} // namespace ckpt::cli
