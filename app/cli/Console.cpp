#include "Console.h"

#include "report/Format.h"

#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace ckpt::cli {

void Console::out(const QString& text)
{
    out(text.toStdString());
}

void Console::out(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

void Console::err(const QString& text)
{
    err(text.toStdString());
}

void Console::err(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

void Console::json(const nlohmann::ordered_json& value)
{
    // Invalid UTF-8 in file names must not abort the dump: replace it.
    out(value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

bool Console::stderrIsTerminal()
{
    return ::isatty(STDERR_FILENO) == 1;
}

TerminalProgress::TerminalProgress(std::string label)
    : m_label(std::move(label)), m_enabled(Console::stderrIsTerminal()),
      m_start(std::chrono::steady_clock::now())
{
    if (m_enabled)
        m_progress = Progress([this](const ProgressUpdate& u) { draw(u); });
}

TerminalProgress::~TerminalProgress()
{
    if (m_drawn)
        Console::err(std::string("\r\033[K"));
}

void TerminalProgress::draw(const ProgressUpdate& update)
{
    const auto now = std::chrono::steady_clock::now();
    if (m_drawn && now - m_lastDraw < std::chrono::milliseconds(100))
        return;
    m_lastDraw = now;
    m_drawn = true;
    std::string line = "\r\033[K" + m_label;
    const bool bytes = update.unit == "bytes";
    if (update.total > 0) {
        char pct[16];
        std::snprintf(pct, sizeof pct, " %3.0f%%",
                      100.0 * static_cast<double>(update.done) / static_cast<double>(update.total));
        line += pct;
    }
    if (bytes) {
        line += " " + Format::bytes(static_cast<double>(update.done));
        if (update.total > 0)
            line += " of " + Format::bytes(static_cast<double>(update.total));
        const double secs = std::chrono::duration<double>(now - m_start).count();
        if (secs > 0.05)
            line += ", " + Format::bytes(static_cast<double>(update.done) / secs) + "/s";
    } else {
        line += " " + std::to_string(update.done);
        if (update.total > 0)
            line += "/" + std::to_string(update.total);
        line += " " + update.unit;
    }
    Console::err(line);
}

} // namespace ckpt::cli
