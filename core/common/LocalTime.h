#pragma once

#include <cstdint>
#include <string>

namespace ckpt {

// `seconds` since the epoch as local time, "YYYY-MM-DD HH:MM:SS" (what CANDLE
// writes as a save's timestamp), for layouts that know a save only by its
// file's mtime. The last answer is kept per thread: a folder's checkpoints are
// often saved within one second, and localtime_r takes a lock.
std::string localTimeText(std::int64_t seconds);

} // namespace ckpt
