#pragma once

#include <filesystem>
#include <string>

namespace ckpt::test {

// Writes an executable `#!/bin/sh` script (everyone may read and run it: a far
// `ckpt` stand-in run by sshd or as nobody): `body` after the shebang line.
void writeShellScript(const std::filesystem::path& path, const std::string& body);

} // namespace ckpt::test
