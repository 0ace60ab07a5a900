#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ckpt {

// The host names a user can pick in "Connect to Cluster...": every concrete
// `Host` alias of an OpenSSH client config (~/.ssh/config), in file order,
// following `Include` (globs; relative paths below ~/.ssh as ssh resolves
// them). Patterns (*, ?, negations) are not hosts and are left out.
class SshConfigHosts
{
public:
    // `sshDir` is where relative Includes resolve (~/.ssh).
    static std::vector<std::string> read(const std::filesystem::path& config,
                                         const std::filesystem::path& sshDir);
    // ~/.ssh/config of the current user.
    static std::vector<std::string> readUserConfig();
};

} // namespace ckpt
