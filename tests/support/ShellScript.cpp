#include "ShellScript.h"

#include "CandleFixture.h"

namespace ckpt::test {

void writeShellScript(const std::filesystem::path& path, const std::string& body)
{
    namespace fs = std::filesystem;
    CandleFixture::writeText(path, "#!/bin/sh\n" + body);
    fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
}

} // namespace ckpt::test
