#pragma once

#include "common/Result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// One line of a run's action journal. Link texts are kept exactly as read by
// readlink (absolute, relative, dangling); an absent optional means "no link".
struct JournalEntry
{
    std::string id;
    std::string time;   // UTC, "2026-11-23T03:20:00.123Z"
    std::string actor;  // "user@host"
    std::string action; // "relink", "repair", "undo", "abort"
    std::string link;   // "last" or "best"
    std::optional<std::string> from;
    std::optional<std::string> to;
    std::optional<int> epoch;        // the epoch `to` designates, when known
    std::string ref;                 // undo: the id undone; abort: the id that did not happen
    std::vector<std::string> forced; // refusals overridden by force, as messages
};

// Append-only journal of the link changes Ckpt Studio made to one run
// (<root>/.ckpt-studio/journal.jsonl, one JSON object per line), from which undo
// restores the previous targets. Entries are never rewritten: an undo or a
// failed change is a new line referring to the earlier one, so the file is
// also a complete history.
class ActionJournal
{
public:
    explicit ActionJournal(const std::filesystem::path& runRoot);

    const std::filesystem::path& path() const { return m_path; }

    // Appends one line and flushes it to disk before returning: the journal is
    // written before the link changes, so the previous target is never lost.
    Status append(const JournalEntry& entry) const;

    struct Contents
    {
        std::vector<JournalEntry> entries; // in file order
        std::vector<std::string> skipped;  // "journal.jsonl:7: <why>" for unreadable lines
    };
    // A missing journal is empty. Unreadable lines (a torn last line after a
    // crash) are skipped and reported, not fatal.
    Result<Contents> read() const;

    // The most recent relink or repair that is neither undone nor aborted.
    static std::optional<JournalEntry> lastUndoable(const std::vector<JournalEntry>& entries);

    static std::string newId();
    static std::string utcNow();

    static std::string toJsonLine(const JournalEntry& entry);
    static Result<JournalEntry> fromJsonLine(std::string_view line);

private:
    std::filesystem::path m_path;
};

} // namespace ckpt
