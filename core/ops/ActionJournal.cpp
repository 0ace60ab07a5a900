#include "ops/ActionJournal.h"

#include "io/AtomicFile.h"
#include "ops/RunLock.h"

#include <cerrno>
#include <chrono>
#include <ctime>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json optionalText(const std::optional<std::string>& s)
{
    return s ? json(*s) : json(nullptr);
}

std::optional<std::string> readOptionalText(const json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return std::nullopt;
    return it->get<std::string>();
}

std::string readText(const json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

ActionJournal::ActionJournal(const fs::path& runRoot)
    : m_path(RunLock::stateDir(runRoot) / "journal.jsonl")
{}

std::string ActionJournal::toJsonLine(const JournalEntry& e)
{
    json j = json::object();
    j["id"] = e.id;
    j["time"] = e.time;
    j["actor"] = e.actor;
    j["action"] = e.action;
    j["link"] = e.link;
    j["from"] = optionalText(e.from);
    j["to"] = optionalText(e.to);
    j["epoch"] = e.epoch ? json(*e.epoch) : json(nullptr);
    if (!e.ref.empty())
        j["ref"] = e.ref;
    if (!e.forced.empty())
        j["forced"] = e.forced;
    // Strict UTF-8: a link text that JSON cannot hold exactly throws here and
    // the action is refused before anything changes.
    return j.dump(-1, ' ', false, json::error_handler_t::strict);
}

Result<JournalEntry> ActionJournal::fromJsonLine(std::string_view line)
{
    try {
        const json j = json::parse(line);
        if (!j.is_object())
            return Error{"not a JSON object", {}};
        JournalEntry e;
        e.id = readText(j, "id");
        e.time = readText(j, "time");
        e.actor = readText(j, "actor");
        e.action = readText(j, "action");
        e.link = readText(j, "link");
        e.from = readOptionalText(j, "from");
        e.to = readOptionalText(j, "to");
        if (auto it = j.find("epoch"); it != j.end() && it->is_number_integer())
            e.epoch = it->get<int>();
        e.ref = readText(j, "ref");
        if (auto it = j.find("forced"); it != j.end() && it->is_array())
            for (const auto& f : *it)
                if (f.is_string())
                    e.forced.push_back(f.get<std::string>());
        if (e.id.empty() || e.action.empty())
            return Error{"entry without id or action", {}};
        return e;
    } catch (const std::exception& ex) {
        return Error{ex.what(), {}};
    }
}

Status ActionJournal::append(const JournalEntry& entry) const
{
    std::string line;
    try {
        line = toJsonLine(entry) + "\n";
    } catch (const std::exception& ex) {
        return Error::at(m_path.string(), std::string("cannot record the action: ") + ex.what());
    }
    const fs::path dir = m_path.parent_path();
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
        return Error{"cannot create " + osError(dir, errno), dir.string()};
    const int fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{"cannot open the journal " + osError(m_path, errno), m_path.string()};
    // A write that fails part-way (a full disk) is cut back off, and a journal
    // that this append created is removed: no torn line, no empty file.
    struct stat before
    {};
    const bool sized = ::fstat(fd, &before) == 0;
    const char* p = line.data();
    std::size_t left = line.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int err = errno;
            if (sized && before.st_size == 0)
                ::unlink(m_path.c_str());
            else if (sized)
                (void)::ftruncate(fd, before.st_size);
            ::close(fd);
            return Error{"cannot write the journal " + osError(m_path, err), m_path.string()};
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    const bool synced = ::fdatasync(fd) == 0;
    const int err = errno;
    ::close(fd);
    if (!synced)
        return Error{"cannot flush the journal " + osError(m_path, err), m_path.string()};
    return {};
}

Result<ActionJournal::Contents> ActionJournal::read() const
{
    Contents out;
    struct stat st
    {};
    if (::stat(m_path.c_str(), &st) != 0 && errno == ENOENT)
        return out;
    auto text = readFile(m_path);
    if (!text)
        return text.error();
    std::size_t lineNo = 0;
    std::size_t pos = 0;
    const std::string& s = *text;
    while (pos < s.size()) {
        std::size_t end = s.find('\n', pos);
        if (end == std::string::npos)
            end = s.size();
        ++lineNo;
        const std::string_view line(s.data() + pos, end - pos);
        pos = end + 1;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        auto entry = fromJsonLine(line);
        if (entry)
            out.entries.push_back(std::move(*entry));
        else
            out.skipped.push_back(m_path.string() + ":" + std::to_string(lineNo) + ": " +
                                  entry.error().message);
    }
    return out;
}

std::optional<JournalEntry> ActionJournal::lastUndoable(const std::vector<JournalEntry>& entries)
{
    std::set<std::string> aborted;
    for (const auto& e : entries)
        if (e.action == "abort")
            aborted.insert(e.ref);
    std::set<std::string> undone;
    for (const auto& e : entries)
        if (e.action == "undo" && !aborted.count(e.id))
            undone.insert(e.ref);
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        if (it->action != "relink" && it->action != "repair")
            continue;
        if (!aborted.count(it->id) && !undone.count(it->id))
            return *it;
    }
    return std::nullopt;
}

std::string ActionJournal::utcNow()
{
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    char out[48];
    std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms));
    return out;
}

std::string ActionJournal::newId()
{
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id;
    auto bits = rng();
    for (int i = 0; i < 16; ++i, bits >>= 4)
        id += kHex[bits & 0xf];
    return id;
}

} // namespace ckpt
