#include "modelfile/ZipArchive.h"

#include <fstream>
#include <memory>
#include <vector>
#include <zip.h>

namespace ckpt {

Status ZipArchive::extract(const std::string& zipPath, const std::string& entry,
                           const std::string& dest)
{
    int err = 0;
    std::unique_ptr<zip_t, decltype(&zip_discard)> archive(
        zip_open(zipPath.c_str(), ZIP_RDONLY, &err), &zip_discard);
    if (!archive)
        return Error::at(zipPath, "zip archive unreadable");
    std::unique_ptr<zip_file_t, decltype(&zip_fclose)> in(
        zip_fopen(archive.get(), entry.c_str(), 0), &zip_fclose);
    if (!in)
        return Error::at(zipPath, "entry " + entry + ": not found or unreadable");
    std::ofstream out(dest, std::ios::binary | std::ios::trunc);
    if (!out)
        return Error::at(dest, "cannot create");
    std::vector<char> buffer(1 << 20);
    for (;;) {
        const zip_int64_t n = zip_fread(in.get(), buffer.data(), buffer.size());
        if (n < 0)
            return Error::at(zipPath, "entry " + entry + ": read failed (archive corrupted?)");
        if (n == 0)
            break;
        out.write(buffer.data(), static_cast<std::streamsize>(n));
        if (!out)
            return Error::at(dest, "write failed (disk full?)");
    }
    return {};
}

} // namespace ckpt
