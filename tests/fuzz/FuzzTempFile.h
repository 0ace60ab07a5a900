#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

// The file-level parsers (HDF5, libzip) take a path: each input is written to
// one scratch file per process, rewritten in place for every run.
class FuzzTempFile
{
public:
    FuzzTempFile()
    {
        const char* dir = std::getenv("TMPDIR");
        m_path = std::string(dir && *dir ? dir : "/tmp") + "/ckpt-fuzz-" +
                 std::to_string(::getpid()) + ".bin";
    }
    ~FuzzTempFile() { ::unlink(m_path.c_str()); }
    FuzzTempFile(const FuzzTempFile&) = delete;
    FuzzTempFile& operator=(const FuzzTempFile&) = delete;

    const std::string& write(const std::uint8_t* data, std::size_t size)
    {
        std::FILE* f = std::fopen(m_path.c_str(), "wb");
        if (!f)
            std::abort();
        if (size > 0 && std::fwrite(data, 1, size, f) != size)
            std::abort();
        std::fclose(f);
        return m_path;
    }

private:
    std::string m_path;
};
