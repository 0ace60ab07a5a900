// `ckpt`, the front end: a plain `ckpt scan` (the command scripts and remote
// clients run most, often in loops) runs here, in a program that loads no Qt,
// ICU or OpenSSL: ~2 ms from exec to exit instead of ~12. Every other command,
// and a scan with options this parser leaves to the full one (--help), is the
// full program, ../libexec/ckpt/ckpt beside this one (the build tree and an
// installed prefix alike), exec'd in place with the same arguments.
#include "ExitCode.h"
#include "ScanMain.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

// The full program's path, from where this one is.
std::string fullProgram(const char* argv0)
{
    std::string self;
    char buffer[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer);
    if (n > 0 && static_cast<std::size_t>(n) < sizeof buffer)
        self.assign(buffer, static_cast<std::size_t>(n));
    else if (argv0 && std::strchr(argv0, '/'))
        self = argv0;
    const std::size_t slash = self.rfind('/');
    return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) +
           "/../libexec/ckpt/ckpt";
}

} // namespace

int main(int argc, char** argv)
{
    using namespace ckpt::cli;
    ScanRequest request;
    if (argc >= 2 && std::strcmp(argv[1], "scan") == 0 &&
        parseScanArguments(argc - 2, argv + 2, request))
        scanMain(request);
    const std::string full = fullProgram(argc > 0 ? argv[0] : nullptr);
    ::execv(full.c_str(), argv);
    std::fprintf(stderr, "ckpt: cannot run %s: %s\n", full.c_str(), std::strerror(errno));
    return ExitUsage;
}
