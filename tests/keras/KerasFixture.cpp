#include "KerasFixture.h"

#include "writer/KerasH5Writer.h"

#include <ModelFixtures.h>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ckpt::test {

namespace fs = std::filesystem;

void KerasFixture::h5(const fs::path& file, int seed, bool weightsOnly)
{
    KerasModel model;
    KerasDense dense;
    dense.name = "dense";
    dense.inputs = 2;
    dense.units = 2;
    for (int i = 0; i < 4; ++i)
        dense.kernel.push_back(float(seed) * 0.5f + float(i));
    dense.bias = {float(seed), -float(seed)};
    model.layers.push_back(dense);
    fs::create_directories(file.parent_path());
    model.optimizerConfig = {{"class_name", "Adam"}, {"config", {{"learning_rate", 0.001}}}};
    const Status written = KerasH5Writer::write(file, model, weightsOnly);
    if (!written)
        throw std::runtime_error(written.error().message);
}

void KerasFixture::keras(const fs::path& file, int seed)
{
    fs::create_directories(file.parent_path());
    const fs::path weights = file.parent_path() / (".tmp-" + file.filename().string() + ".h5");
    ModelFixtures::keras3Weights(weights, std::uint32_t(seed));
    const std::string bytes = read(weights);
    fs::remove(weights);
    ModelFixtures::zip(file, {{"metadata.json", R"({"keras_version": "3.6.0"})"},
                              {"config.json", R"({"class_name": "Sequential"})"},
                              {"model.weights.h5", bytes}});
}

std::string KerasFixture::variablesJson(double temperature, const std::vector<double>& scores)
{
    std::ostringstream s;
    s << "{\n  \"trainable_variables\": {\n    \"generator\": {\n      \"state\": {\n"
      << "        \"instructions\": \"Answer in one word.\",\n"
      << "        \"examples\": [{\"query\": \"2+2\", \"answer\": \"4\"}],\n"
      << "        \"temperature\": " << temperature << ",\n        \"scores\": [[";
    for (std::size_t i = 0; i < scores.size(); ++i)
        s << (i == 0 ? "" : i % 2 == 0 ? "], [" : ", ") << scores[i];
    s << "]]\n      }\n    }\n  },\n  \"non_trainable_variables\": {},\n"
      << "  \"optimizer_non_trainable_variables\": {\"random_few_shot\": {\"iterations\": "
         "{\"value\": 3}}},\n"
      << "  \"metrics_variables\": {\"mean\": {\"total\": {\"value\": 2.5}}}\n}\n";
    return s.str();
}

void KerasFixture::variables(const fs::path& file, double temperature,
                             const std::vector<double>& scores)
{
    write(file, variablesJson(temperature, scores));
}

void KerasFixture::program(const fs::path& file)
{
    write(file, R"({"module": "synalinks.src.programs.program", "class_name": "Program",)"
                R"( "config": {"name": "chain_of_thought"}, "variables": {}})"
                "\n");
}

std::string KerasFixture::read(const fs::path& file)
{
    return ModelFixtures::readBytes(file);
}

void KerasFixture::write(const fs::path& file, const std::string& bytes)
{
    fs::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << bytes;
}

void KerasFixture::truncate(const fs::path& file, std::uintmax_t bytes)
{
    fs::resize_file(file, bytes);
}

} // namespace ckpt::test
