#pragma once

namespace ckpt::cli {

// Exit status shared by every command.
enum ExitCode : int
{
    ExitOk = 0,
    ExitProblems = 1,
    ExitUsage = 2
};

} // namespace ckpt::cli
