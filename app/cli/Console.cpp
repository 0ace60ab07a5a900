#include "Console.h"

#include "report/Format.h"
#include "report/Protocol.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>

namespace ckpt::cli {

void Console::out(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

void Console::err(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

namespace {

nlohmann::ordered_json withProtocol(const nlohmann::ordered_json& value)
{
    nlohmann::ordered_json doc{{"protocol", kCliProtocol}};
    for (const auto& [key, item] : value.items())
        doc[key] = item;
    return doc;
}

// Invalid UTF-8 in file names must not abort the dump: replace it.
constexpr auto kReplace = nlohmann::ordered_json::error_handler_t::replace;

} // namespace

void Console::json(const nlohmann::ordered_json& value)
{
    out(withProtocol(value).dump(2, ' ', false, kReplace) + "\n");
}

void Console::jsonLine(const nlohmann::ordered_json& value)
{
    out(withProtocol(value).dump(-1, ' ', false, kReplace) + "\n");
}

void Console::jsonErrLine(const nlohmann::ordered_json& value)
{
    err(withProtocol(value).dump(-1, ' ', false, kReplace) + "\n");
}

std::string Console::jsonOpening()
{
    return "{\"protocol\": " + std::to_string(kCliProtocol) + ", ";
}

bool Console::stderrIsTerminal()
{
    return ::isatty(STDERR_FILENO) == 1;
}

void Console::exitWhenStdinCloses()
{
    std::thread([] {
        char buffer[256];
        for (;;) {
            const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
            if (n == 0 || (n < 0 && errno != EINTR))
                break;
        }
        std::fflush(stdout);
        std::_Exit(2);
    }).detach();
}

void Console::exitNow(int code)
{
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code);
}

TerminalProgress::TerminalProgress(std::string label)
    : m_label(std::move(label)), m_enabled(Console::stderrIsTerminal()),
      m_start(std::chrono::steady_clock::now())
{
    if (m_enabled)
        m_progress = Progress([this](const ProgressUpdate& u) { draw(u); });
}

void TerminalProgress::setJsonLines(bool on)
{
    m_enabled = on || Console::stderrIsTerminal();
    if (on)
        m_progress = Progress([this](const ProgressUpdate& u) { drawJson(u); });
}

void TerminalProgress::drawJson(const ProgressUpdate& update)
{
    const auto now = std::chrono::steady_clock::now();
    const bool last = update.total > 0 && update.done >= update.total;
    if (m_jsonDrawn && !last && now - m_lastDraw < std::chrono::milliseconds(100))
        return;
    m_lastDraw = now;
    m_jsonDrawn = true;
    Console::jsonErrLine({{"progress", m_label},
                          {"done", update.done},
                          {"total", update.total},
                          {"unit", update.unit}});
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
        line.append(" ").append(Format::bytes(static_cast<double>(update.done)));
        if (update.total > 0)
            line.append(" of ").append(Format::bytes(static_cast<double>(update.total)));
        const double secs = std::chrono::duration<double>(now - m_start).count();
        if (secs > 0.05)
            line.append(", ")
                .append(Format::bytes(static_cast<double>(update.done) / secs))
                .append("/s");
    } else {
        line.append(" ").append(std::to_string(update.done));
        if (update.total > 0)
            line.append("/").append(std::to_string(update.total));
        line.append(" ").append(update.unit);
    }
    Console::err(line);
}

} // namespace ckpt::cli
