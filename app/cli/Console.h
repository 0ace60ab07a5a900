#pragma once

#include "common/Progress.h"

#include <chrono>
#include <concepts>
#include <nlohmann/json.hpp>
#include <string>

namespace ckpt::cli {

// Text with toStdString(), UTF-8 (a QString): the console takes it without
// naming Qt, so that `ckpt scan` links no Qt (ScanMain.h).
template <typename T>
concept StdStringConvertible = requires(const T& t)
{
    {
        t.toStdString()
        } -> std::same_as<std::string>;
};

// stdout/stderr for the commands: UTF-8, flushed, and a progress line on
// stderr only when it is a terminal (never in pipes, CI logs or --json runs).
class Console
{
public:
    static void out(const std::string& text);
    static void out(const char* text) { out(std::string(text)); }
    static void out(const StdStringConvertible auto& text) { out(text.toStdString()); }
    static void err(const std::string& text);
    static void err(const char* text) { err(std::string(text)); }
    static void err(const StdStringConvertible auto& text) { err(text.toStdString()); }
    // A JSON document on stdout (pretty): `value` is an object, and the
    // document starts with "protocol": kCliProtocol (the one place it is added).
    static void json(const nlohmann::ordered_json& value);
    // One compact line of JSON (a `watch --json` event) on stdout, or on
    // stderr (a --progress-json step), with the protocol first too.
    static void jsonLine(const nlohmann::ordered_json& value);
    static void jsonErrLine(const nlohmann::ordered_json& value);
    // The opening of a document streamed in pieces: `{"protocol": N, `.
    static std::string jsonOpening();
    static bool stderrIsTerminal();
    // --exit-on-eof: ends the process (exit status 2) once stdin reaches its
    // end. A client running `ckpt` over ssh keeps stdin open; when the
    // connection drops, sshd closes it, so a far `watch` or `verify` stops
    // instead of running on with nobody reading. Only for commands that change
    // nothing on disk.
    static void exitWhenStdinCloses();
    // Flushes stdout and stderr and ends the process with `code` at once: no
    // destructors, no atexit handlers. For a command whose output is complete.
    [[noreturn]] static void exitNow(int code);
};

// A Progress whose callback draws "\r<label> 45% 123 MB of 270 MB, 1.2 GB/s" on
// a terminal, at most ten times a second, and erases it when destroyed.
class TerminalProgress
{
public:
    explicit TerminalProgress(std::string label);
    ~TerminalProgress();
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;

    // With --progress-json: one JSON line per step on stderr, whatever stderr
    // is ({"protocol", "progress": label, "done", "total", "unit"}), at most
    // ten a second plus the last one, instead of the terminal line.
    void setJsonLines(bool on);
    const Progress& progress() const { return m_progress; }

private:
    void draw(const ProgressUpdate& update);
    void drawJson(const ProgressUpdate& update);

    std::string m_label;
    Progress m_progress;
    bool m_enabled;
    bool m_drawn = false;     // a terminal line to erase
    bool m_jsonDrawn = false; // a JSON line written (the next ones are throttled)
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastDraw;
};

} // namespace ckpt::cli
