#include "launch/LaunchPlan.h"

namespace ckpt {

const char* LaunchPlan::modeName(Mode mode)
{
    switch (mode) {
    case Mode::New:
        return "new";
    case Mode::Restart:
        return "restart";
    case Mode::Fork:
        return "fork";
    }
    return "new";
}

std::optional<LaunchPlan::Mode> LaunchPlan::modeFromName(const std::string& name)
{
    for (Mode m : {Mode::New, Mode::Restart, Mode::Fork})
        if (name == modeName(m))
            return m;
    return std::nullopt;
}

const char* LaunchPlan::backendName(Backend backend)
{
    return backend == Backend::Slurm ? "slurm" : "local";
}

std::optional<LaunchPlan::Backend> LaunchPlan::backendFromName(const std::string& name)
{
    if (name == "local")
        return Backend::Local;
    if (name == "slurm")
        return Backend::Slurm;
    return std::nullopt;
}

} // namespace ckpt
