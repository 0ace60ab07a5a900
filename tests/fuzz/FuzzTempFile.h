#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

// The file-level parsers (HDF5, libzip, the protobuf readers) take a path: each
// input is written to one scratch file per process, rewritten in place for every
// run. A `relative` name puts it at <dir>/<relative> instead, for parsers that
// care about the file's name or look for it inside a folder (Orbax's
// <root>/<step>/_CHECKPOINT_METADATA); at most one folder level.
class FuzzTempFile
{
public:
    explicit FuzzTempFile(const std::string& relative = {})
    {
        const char* tmp = std::getenv("TMPDIR");
        const std::string base =
            std::string(tmp && *tmp ? tmp : "/tmp") + "/ckpt-fuzz-" + std::to_string(::getpid());
        if (relative.empty()) {
            m_path = base + ".bin";
            return;
        }
        m_dir = base + ".d";
        ::mkdir(m_dir.c_str(), 0700);
        const auto slash = relative.find('/');
        if (slash != std::string::npos) {
            m_sub = m_dir + "/" + relative.substr(0, slash);
            ::mkdir(m_sub.c_str(), 0700);
        }
        m_path = m_dir + "/" + relative;
    }
    ~FuzzTempFile()
    {
        ::unlink(m_path.c_str());
        if (!m_sub.empty())
            ::rmdir(m_sub.c_str());
        if (!m_dir.empty())
            ::rmdir(m_dir.c_str());
    }
    FuzzTempFile(const FuzzTempFile&) = delete;
    FuzzTempFile& operator=(const FuzzTempFile&) = delete;

    // The folder holding `relative` (empty without one).
    const std::string& dir() const { return m_dir; }

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
    std::string m_dir;
    std::string m_sub;
    std::string m_path;
};
