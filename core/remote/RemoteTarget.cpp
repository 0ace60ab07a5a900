#include "remote/RemoteTarget.h"

#include <algorithm>
#include <charconv>

namespace ckpt {

namespace {

Error bad(std::string_view text, const std::string& why)
{
    std::string message(1, '\'');
    message += text;
    message += "' is not a remote folder: ";
    message += why;
    message += " (expected ssh://[user@]host[:port]/path or [user@]host:/path)";
    return Error{std::move(message), {}};
}

bool validHost(std::string_view host)
{
    return !host.empty() && host.front() != '-' &&
           std::all_of(host.begin(), host.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ||
                      c == '_' || c == ':' || c == '%';
           });
}

bool validUser(std::string_view user)
{
    return user.front() != '-' && std::none_of(user.begin(), user.end(), [](char c) {
               return c == '/' || c == ':' || c == '@' ||
                      std::isspace(static_cast<unsigned char>(c));
           });
}

} // namespace

bool RemoteTarget::looksRemote(std::string_view text)
{
    if (text.starts_with("ssh://"))
        return true;
    // scp form: a colon before the first slash, and not a Windows-like "C:".
    const auto colon = text.find(':');
    const auto slash = text.find('/');
    return colon != std::string_view::npos && colon > 1 &&
           (slash == std::string_view::npos || colon < slash);
}

Result<RemoteTarget> RemoteTarget::parse(std::string_view text)
{
    RemoteTarget t;
    std::string_view authority;
    if (text.starts_with("ssh://")) {
        const std::string_view rest = text.substr(6);
        const auto slash = rest.find('/');
        if (slash == std::string_view::npos)
            return bad(text, "no path after the host");
        authority = rest.substr(0, slash);
        t.path = std::string(rest.substr(slash));
        // ssh://host/~/exp names a folder below the home directory.
        if (t.path.starts_with("/~"))
            t.path.erase(0, 1);
        if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
            t.user = std::string(authority.substr(0, at));
            authority = authority.substr(at + 1);
        }
        std::string_view host = authority;
        std::string_view port;
        if (authority.starts_with("[")) {
            const auto close = authority.find(']');
            if (close == std::string_view::npos)
                return bad(text, "unclosed [ in the host");
            host = authority.substr(1, close - 1);
            if (close + 1 < authority.size()) {
                if (authority[close + 1] != ':')
                    return bad(text, "unexpected text after ]");
                port = authority.substr(close + 2);
            }
        } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
            host = authority.substr(0, colon);
            port = authority.substr(colon + 1);
        }
        t.host = std::string(host);
        if (!port.empty() || authority.ends_with(":")) {
            int value = 0;
            const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
            if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535)
                return bad(text, "the port must be a number from 1 to 65535");
            t.port = value;
        }
    } else {
        const auto colon = text.find(':');
        if (colon == std::string_view::npos || !looksRemote(text))
            return bad(text, "no host");
        authority = text.substr(0, colon);
        t.path = std::string(text.substr(colon + 1));
        if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
            t.user = std::string(authority.substr(0, at));
            authority = authority.substr(at + 1);
        }
        t.host = std::string(authority);
        // scp's relative paths start at the home folder: say so, as ssh:// must.
        if (t.path.empty())
            t.path = "~";
        else if (!t.path.starts_with("/") && !t.path.starts_with("~"))
            t.path.insert(0, "~/", 2);
    }
    if (!validHost(t.host))
        return bad(text, "the host name is empty or has characters a host cannot have");
    if (!t.user.empty() && !validUser(t.user))
        return bad(text, "the user name has characters a user cannot have");
    if (t.path.empty())
        return bad(text, "no path");
    return t;
}

std::string RemoteTarget::destination() const
{
    return user.empty() ? host : user + "@" + host;
}

std::string RemoteTarget::url() const
{
    // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on "literal" + string.
    const bool v6 = host.find(':') != std::string::npos;
    std::string s = "ssh://";
    if (!user.empty()) {
        s += user;
        s += '@';
    }
    if (v6)
        s += '[';
    s += host;
    if (v6)
        s += ']';
    if (port) {
        s += ':';
        s += std::to_string(*port);
    }
    s += '/';
    s += path.starts_with("/") ? path.substr(1) : path;
    return s;
}

std::string RemoteTarget::display() const
{
    std::string s = destination();
    if (port) {
        s += ':';
        s += std::to_string(*port);
    }
    return s;
}

std::string shellQuote(std::string_view text)
{
    const bool safe = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '-' ||
               c == '_' || c == '=' || c == ',' || c == ':' || c == '+' || c == '@' || c == '%';
    });
    if (safe)
        return std::string(text);
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

} // namespace ckpt
