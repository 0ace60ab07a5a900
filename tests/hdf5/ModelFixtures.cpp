#include "ModelFixtures.h"

#include "H5Writer.h"

#include <bit>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <zip.h>

namespace ckpt::test {

std::vector<float> ModelFixtures::values(std::size_t n, std::uint32_t seed, float scale)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-scale, scale);
    std::vector<float> out(n);
    for (float& v : out)
        v = dist(gen);
    return out;
}

std::string ModelFixtures::modelConfigJson()
{
    return R"({"class_name": "Sequential", "config": {"name": "sequential", "layers": [)"
           R"({"class_name": "Dense", "config": {"name": "dense", "units": 3}}, )"
           R"({"class_name": "Dropout", "config": {"name": "dropout", "rate": 0.5}}, )"
           R"({"class_name": "Dense", "config": {"name": "dense_1", "units": 2}}]}})";
}

namespace {

void keras2Layers(H5Writer& w, const std::string& root, std::uint32_t seed)
{
    // Split form, as Keras writes attributes over 64 KiB (here forced small).
    w.attrStrings(root, "layer_names0", {"dense", "dropout"});
    w.attrStrings(root, "layer_names1", {"dense_1"});
    w.attrFixedString(root, "backend", "tensorflow");
    w.attrFixedString(root, "keras_version", "2.12.0");
    const std::string base = root == "/" ? "" : root;
    w.attrStrings(base + "/dense", "weight_names", {"dense/kernel:0", "dense/bias:0"});
    w.floats(base + "/dense/dense/kernel:0", {4, 3}, ModelFixtures::values(12, seed));
    w.floats(base + "/dense/dense/bias:0", {3}, ModelFixtures::values(3, seed + 1));
    w.attrStrings(base + "/dropout", "weight_names", std::vector<std::string>{});
    w.attrStrings(base + "/dense_1", "weight_names", {"dense_1/kernel:0", "dense_1/bias:0"});
    w.floats(base + "/dense_1/dense_1/kernel:0", {3, 2}, ModelFixtures::values(6, seed + 2));
    w.floats(base + "/dense_1/dense_1/bias:0", {2}, ModelFixtures::values(2, seed + 3));
}

} // namespace

void ModelFixtures::keras2Model(const std::filesystem::path& file, std::uint32_t seed)
{
    H5Writer w(file);
    w.attrFixedString("/", "keras_version", "2.12.0");
    w.attrFixedString("/", "backend", "tensorflow");
    w.attrVarString("/", "model_config", modelConfigJson());
    w.attrVarString("/", "training_config",
                    R"({"loss": "mse", "optimizer_config": {"class_name": "Adam", "config": )"
                    R"({"learning_rate": 0.001}}})");
    keras2Layers(w, "/model_weights", seed);
    w.attrStrings("/optimizer_weights", "weight_names", {"Adam/iter:0", "Adam/dense/kernel/m:0"},
                  true);
    const std::int64_t iter = 42;
    w.dataset("/optimizer_weights/Adam/iter:0", H5T_STD_I64LE, H5T_NATIVE_INT64, {}, &iter);
    w.floats("/optimizer_weights/Adam/dense/kernel/m:0", {4, 3}, values(12, seed + 10));
}

void ModelFixtures::keras2Weights(const std::filesystem::path& file, std::uint32_t seed)
{
    H5Writer w(file);
    keras2Layers(w, "/", seed);
}

void ModelFixtures::keras3Weights(const std::filesystem::path& file, std::uint32_t seed)
{
    H5Writer w(file);
    w.floats("/layers/dense/vars/0", {4, 3}, values(12, seed));
    w.floats("/layers/dense/vars/1", {3}, values(3, seed + 1));
    std::vector<std::uint16_t> bf16;
    for (float v : values(6, seed + 2))
        bf16.push_back(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(v) >> 16));
    w.dataset("/layers/dense_1/vars/0", H5T_STD_U16LE, H5T_NATIVE_UINT16, {3, 2}, bf16.data());
    w.attrFixedString("/layers/dense_1/vars/0", "dtype", "bfloat16");
    w.floats("/layers/dense_1/vars/1", {2}, values(2, seed + 3));
    const std::int64_t iterations = 7;
    w.dataset("/optimizer/vars/0", H5T_STD_I64LE, H5T_NATIVE_INT64, {}, &iterations);
    w.floats("/optimizer/vars/1", {4, 3}, values(12, seed + 10));
}

std::filesystem::path ModelFixtures::crasher(const std::string& name)
{
    return std::filesystem::path(CKPT_HDF5_CRASHERS_DIR) / name;
}

void ModelFixtures::denseModel(const std::filesystem::path& file, float kernel, float biasLast,
                               bool torn)
{
    H5Writer w(file);
    const std::vector<float> values(64, kernel);
    w.dataset("/dense/kernel", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {64}, values.data(), {16}, 4);
    w.floats("/dense/bias", {3}, {1, 2, biasLast});
    if (torn)
        w.corruptChunk("/dense/kernel", {16});
}

void ModelFixtures::writeBytes(const std::filesystem::path& file, const std::string& bytes)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string ModelFixtures::readBytes(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void ModelFixtures::zip(const std::filesystem::path& file,
                        const std::vector<std::pair<std::string, std::string>>& entries)
{
    int err = 0;
    zip_t* archive = zip_open(file.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!archive)
        throw std::runtime_error("cannot create zip");
    for (const auto& [name, content] : entries) {
        zip_source_t* src = zip_source_buffer(archive, content.data(), content.size(), 0);
        zip_file_add(archive, name.c_str(), src, ZIP_FL_OVERWRITE);
    }
    zip_close(archive);
}

} // namespace ckpt::test
