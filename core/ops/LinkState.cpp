#include "ops/LinkState.h"

#include "common/SingleQuoted.h"
#include "io/AtomicFile.h"
#include "layout/Layout.h"

#include <cerrno>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace ckpt {

namespace fs = std::filesystem;

std::set<int> LinkState::designatedEpochs() const
{
    std::set<int> out;
    if (resolvedEpoch)
        out.insert(*resolvedEpoch);
    if (namedEpoch)
        out.insert(*namedEpoch);
    return out;
}

std::optional<std::string> LinkState::textOrAbsent() const
{
    if (kind == Kind::Symlink)
        return text;
    return std::nullopt;
}

Status LinkState::checkName(const Layout& layout, std::string_view name)
{
    const auto names = layout.linkNames();
    if (!layout.linksMovable() || names.empty())
        return Error{std::string(layout.name()) + " runs have no movable links", {}};
    std::string known;
    for (std::string_view n : names) {
        if (n == name)
            return {};
        known += (known.empty() ? "'" : " and '") + std::string(n) + "'";
    }
    return Error{singleQuoted(name) + " is not a link Ckpt Studio changes: only " + known +
                     " can be relinked",
                 {}};
}

std::optional<int> LinkState::trailingEpoch(const Layout& layout, std::string_view text)
{
    const std::string folder = layout.watchHints().epochsDir;
    std::vector<std::string> parts;
    for (const auto& part : fs::path(text)) {
        const std::string s = part.string();
        if (!s.empty() && s != "." && s != "/")
            parts.push_back(s);
    }
    if (parts.empty() ||
        (!folder.empty() && (parts.size() < 2 || parts[parts.size() - 2] != folder)))
        return std::nullopt;
    return layout.epochNumberOf(parts.back());
}

Result<LinkState> LinkState::read(const fs::path& root, const Layout& layout, std::string_view name)
{
    LinkState state;
    state.name = std::string(name);
    state.path = root / state.name;
    struct stat st
    {};
    if (::lstat(state.path.c_str(), &st) != 0) {
        if (errno == ENOENT)
            return state;
        return Error{osError(state.path, errno), state.path.string()};
    }
    if (!S_ISLNK(st.st_mode)) {
        state.kind = Kind::Other;
        return state;
    }
    state.kind = Kind::Symlink;
    std::string buf(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 255) + 1, '\0');
    for (;;) {
        const ssize_t n = ::readlink(state.path.c_str(), buf.data(), buf.size());
        if (n < 0)
            return Error{"cannot read link " + osError(state.path, errno), state.path.string()};
        if (static_cast<std::size_t>(n) < buf.size()) {
            buf.resize(static_cast<std::size_t>(n));
            break;
        }
        buf.resize(buf.size() * 2); // the link grew between lstat and readlink
    }
    state.text = std::move(buf);
    state.namedEpoch = trailingEpoch(layout, state.text);

    std::error_code ec;
    const fs::path target = fs::canonical(state.path, ec);
    if (ec)
        return state;
    state.resolves = true;
    const std::string folder = layout.watchHints().epochsDir;
    const fs::path epochs = fs::canonical(folder.empty() ? root : root / folder, ec);
    if (!ec && target.parent_path() == epochs && fs::is_directory(target, ec))
        state.resolvedEpoch = layout.epochNumberOf(target.filename().string());
    return state;
}

} // namespace ckpt
