#pragma once

#include "config/HyperParams.h"

#include <string>

namespace ckpt::trainer {

// The demo training program: CANDLE-style hyperparameters in, a spiral MLP
// trained for real, training.log (Keras CSVLogger) and CANDLE checkpoints out,
// resumable from <root>/last.
class Trainer
{
public:
    enum ExitCode
    {
        Ok = 0,
        Failed = 1,
        Usage = 2,
        RestartFailed = 3,
        CheckpointFailed = 4
    };

    explicit Trainer(HyperParams params);

    // Defaults for every parameter the trainer reads (Source::Default).
    static HyperParams defaults();
    static std::string usage();

    // Runs the whole training; messages to stdout, errors to stderr.
    int run();

private:
    HyperParams m_params;
};

} // namespace ckpt::trainer
