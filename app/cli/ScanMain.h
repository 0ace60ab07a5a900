#pragma once

#include <string>
#include <vector>

namespace ckpt::cli {

// `ckpt scan` without Qt: the command as the full program runs it (after
// CommandLine has parsed its options) and as the `ckpt` front end runs it on
// its own, so that a scan, the command scripts and remote clients call most,
// starts without loading Qt, ICU or OpenSSL (see FrontMain.cpp).
struct ScanRequest
{
    std::vector<std::string> dirs; // as given; made absolute as QDir does
    bool json = false;
    bool summary = false;
    bool stream = false;    // with json: each run printed as soon as it is loaded
    bool exitOnEof = false; // stop when stdin closes
};

// Scans, prints and ends the process (exit 0 fine, 1 problems, 2 a folder that
// cannot be scanned, its reason on stderr).
[[noreturn]] void scanMain(const ScanRequest& request);

// The scan's options, parsed as `ckpt scan` takes them when they are plain
// (the flags above, spelled in full, and folders not starting with '-');
// false for anything else (--help, an unknown or misspelt option), which the
// full program's parser answers.
bool parseScanArguments(int argc, const char* const* argv, ScanRequest& request);

// `dir` made absolute and clean ("..", "." and doubled '/' gone), without
// resolving links: what QDir(dir).absolutePath() gives.
std::string absolutePath(const std::string& dir);

// "runs of every known layout: candle, orbax" for "nothing found" messages.
std::string knownLayoutsText();

} // namespace ckpt::cli
