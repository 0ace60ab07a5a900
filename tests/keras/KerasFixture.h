#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ckpt::test {

// Writes the files Keras' ModelCheckpoint and Synalinks' ProgramCheckpoint leave:
// real Keras 2 HDF5 files (the project's KerasH5Writer), Keras 3 .keras zips
// (libzip), Synalinks program and variables JSON; and the broken ones.
class KerasFixture
{
public:
    // A small real Keras 2 HDF5 model whose weights depend on `seed`.
    static void h5(const std::filesystem::path& file, int seed = 1, bool weightsOnly = false);
    // A Keras 3 .keras archive (metadata.json, config.json, model.weights.h5).
    static void keras(const std::filesystem::path& file, int seed = 1);
    // A Synalinks state tree whose numbers depend on `seed`.
    static std::string variablesJson(double temperature, const std::vector<double>& scores);
    static void variables(const std::filesystem::path& file, double temperature = 0.5,
                          const std::vector<double>& scores = {1, 2, 3, 4});
    static void program(const std::filesystem::path& file);

    static std::string read(const std::filesystem::path& file);
    static void write(const std::filesystem::path& file, const std::string& bytes);
    // Keeps the first `bytes` bytes (a copy cut short, a save interrupted).
    static void truncate(const std::filesystem::path& file, std::uintmax_t bytes);
};

} // namespace ckpt::test
