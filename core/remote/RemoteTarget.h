#pragma once

#include "common/Result.h"

#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Where a far folder lives: `ssh://[user@]host[:port]/path` or scp's
// `[user@]host:/path`. The host may be a Host alias of ~/.ssh/config: the
// system ssh resolves it (ProxyJump, keys, ControlMaster as the user set up).
struct RemoteTarget
{
    std::string user; // empty: ssh's default (config or local user)
    std::string host; // name, alias or address (IPv6 without brackets)
    std::optional<int> port;
    std::string path; // on the far side, as given ("/data/exp", "~/exp", "exp")

    static Result<RemoteTarget> parse(std::string_view text);
    // Does `text` name a remote folder (rather than a local path)?
    static bool looksRemote(std::string_view text);

    // What ssh takes as destination: "user@host" or "host".
    std::string destination() const;
    // The canonical ssh:// form.
    std::string url() const;
    // "host" or "user@host:port" for messages.
    std::string display() const;

    bool operator==(const RemoteTarget&) const = default;
};

// `text` quoted for a POSIX shell (what sshd hands the command to): left as
// is when it is made of safe characters only, else in single quotes with
// each ' written as '\''.
std::string shellQuote(std::string_view text);

} // namespace ckpt
