#include "Trainer.h"
#include "config/IniConfig.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    using ckpt::trainer::Trainer;
    std::vector<std::string> args(argv + 1, argv + argc);
    for (const auto& a : args) {
        if (a == "--help" || a == "-h") {
            std::cout << Trainer::usage();
            return Trainer::Ok;
        }
    }
    ckpt::HyperParams params = Trainer::defaults();
    auto positional = params.applyCommandLine(args);
    if (!positional) {
        std::cerr << "ckpt-demo-train: error: " << positional.error().message << "\n"
                  << "Try 'ckpt-demo-train --help'." << std::endl;
        return Trainer::Usage;
    }
    if (!positional->empty()) {
        std::cerr << "ckpt-demo-train: error: unexpected argument '" << positional->front()
                  << "' (options are --key value)" << std::endl;
        return Trainer::Usage;
    }
    if (auto file = params.getOptionalString("config_file")) {
        auto config = ckpt::IniConfig::readFile(*file);
        if (!config) {
            std::cerr << "ckpt-demo-train: error: " << config.error().message << std::endl;
            return Trainer::Usage;
        }
        params.applyConfig(*config);
    }
    return Trainer(std::move(params)).run();
}
