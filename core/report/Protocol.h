#pragma once

namespace ckpt {

// The version of the JSON documents `ckpt` prints: every document (and every
// `watch --json` or `--progress-json` line) starts with "protocol": N. A client
// (the studio talking to `ckpt` over ssh) reads the documents of any protocol
// from kMinCliProtocol up to its own; added fields do not raise it, a field
// changing meaning or going away does.
inline constexpr int kCliProtocol = 1;
inline constexpr int kMinCliProtocol = 1;

} // namespace ckpt
