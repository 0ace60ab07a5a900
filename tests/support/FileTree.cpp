#include "FileTree.h"

#include "CandleFixture.h"

#include <QCryptographicHash>
#include <QFile>

namespace ckpt::test {

namespace fs = std::filesystem;

std::map<std::string, QByteArray> filesByHash(const fs::path& dir)
{
    std::map<std::string, QByteArray> out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->path().filename() == ".ckpt-studio") {
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file() || it->is_symlink())
            continue;
        QFile f(QString::fromStdString(it->path().string()));
        if (f.open(QIODevice::ReadOnly))
            out[it->path().string()] =
                QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    }
    return out;
}

FileTree treeOf(const fs::path& dir, const std::string& skip)
{
    FileTree t;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
         ++it) {
        const fs::path& p = it->path();
        const std::string rel = p.lexically_relative(dir).string();
        if (!skip.empty() && rel.starts_with(skip)) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_symlink())
            t[rel] = "-> " + fs::read_symlink(p).string();
        else if (it->is_directory())
            t[rel] = "dir";
        else
            t[rel] = std::to_string(it->file_size()) + ":" +
                     (it->file_size() < 65536 ? CandleFixture::readText(p) : std::string());
    }
    return t;
}

QByteArray diffOf(const FileTree& a, const FileTree& b)
{
    QByteArray out;
    for (const auto& [k, v] : a)
        if (!b.count(k) || b.at(k) != v)
            out += "  changed or gone: " + QByteArray::fromStdString(k) + "\n";
    for (const auto& [k, v] : b)
        if (!a.count(k))
            out += "  new: " + QByteArray::fromStdString(k) + "\n";
    return out;
}

bool sameButBookkeeping(const FileTree& before, const FileTree& after)
{
    for (const auto& [k, v] : before)
        if (!after.count(k))
            return false;
    for (const auto& [k, v] : after) {
        const bool journal = k.ends_with(".ckpt-studio/journal.jsonl") || k.ends_with("ckpt.log");
        if (before.count(k) && before.at(k) == v)
            continue;
        if (k.ends_with(".ckpt-studio") || k.ends_with("/lock") || k.ends_with(".lock"))
            continue;
        if (journal) {
            const std::string old =
                before.count(k) ? before.at(k).substr(before.at(k).find(':') + 1) : std::string();
            const std::string now = v.substr(v.find(':') + 1);
            if (now.starts_with(old) && now.ends_with('\n'))
                continue;
        }
        return false;
    }
    return true;
}

} // namespace ckpt::test
