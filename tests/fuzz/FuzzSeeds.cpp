// ckpt-fuzz-seeds DEST: writes the seed inputs of the fuzz targets for the
// torch, MindSpore, Caffe2, Lightning, Keras/Synalinks and Orbax parsers into
// DEST/<target>/, made by the same fixture writers the tests use (real protobuf
// encoding, torch.save's zip layout via libzip). scripts/fuzz-seeds.sh runs it.
#include "KerasFixture.h"
#include "OrbaxFixture.h"
#include "ProtobufFixture.h"
#include "TorchZipWriter.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace ckpt::test;

namespace {

fs::path g_dest;

void put(const std::string& target, const std::string& name, const std::string& bytes)
{
    fs::create_directories(g_dest / target);
    std::ofstream(g_dest / target / name, std::ios::binary | std::ios::trunc) << bytes;
}

std::string readFile(const fs::path& p)
{
    // Sized read: istreambuf_iterator trips GCC 12's -Wnull-dereference at -O2.
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    std::string bytes(ec ? 0 : static_cast<std::size_t>(size), '\0');
    std::ifstream in(p, std::ios::binary);
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return bytes;
}

void torch()
{
    using W = TorchZipWriter;
    // A transposed (strided) view and a view at a storage offset sharing one storage.
    W::Tensor base = W::floats({1, 2, 3, 4, 5, 6}, {2, 3});
    base.key.assign(1, '0');
    W::Tensor transposed = base;
    transposed.shape = {3, 2};
    transposed.stride = {1, 3};
    W::Tensor tail = base;
    tail.shape = {2};
    tail.storageOffset = 4;
    const W::Value views = W::dict({{W::str("w"), W::tensor(base)},
                                    {W::str("w_t"), W::tensor(transposed)},
                                    {W::str("tail"), W::tensor(tail)},
                                    {W::str("n"), W::integer(-3)},
                                    {W::str("ok"), W::boolean(true)}});
    const std::vector<std::pair<std::string, W::Value>> seeds{
        {"lightning-e1", W::lightningCheckpoint(1, 20)}, {"views", views}};
    const fs::path tmp = g_dest / ".torch-tmp.ckpt";
    for (const auto& [name, value] : seeds) {
        put("fuzz_torch_pickle", name + ".pkl", W::pickle(value, nullptr));
        if (!W::write(tmp, value))
            std::fprintf(stderr, "ckpt-fuzz-seeds: cannot write %s\n", tmp.c_str());
        put("fuzz_torch_zip", name + ".ckpt", readFile(tmp));
    }
    fs::remove(tmp);
}

void mindspore()
{
    put("fuzz_mindspore", "net-1_1-crc.ckpt",
        ProtobufFixture::mindspore(ProtobufFixture::network(1, 1), true));
    put("fuzz_mindspore", "net-2_10.ckpt",
        ProtobufFixture::mindspore(ProtobufFixture::network(2, 10, 0.5f), false));
}

void caffe2()
{
    std::vector<float> big(10);
    for (std::size_t i = 0; i < big.size(); ++i)
        big[i] = float(i) * 0.25f;
    const C2Blob w{"fc_w", {2, 2}, {1, 2, 3, 4}, {}, -1, -1, {}, 0, {}};
    const C2Blob it{"iter", {1}, {}, {-7}, -1, -1, {}, 0, {}};
    const C2Blob s2{"emb", {2, 5}, {big.begin() + 6, big.end()}, {}, 6, 10, {}, 0, {}};
    const C2Blob s1{"emb", {2, 5}, {big.begin(), big.begin() + 6}, {}, 0, 6, {}, 0, {}};
    // DOUBLE (TensorProto.DataType 8) as byte_data; a FLOAT saved as bfloat16.
    const C2Blob d{
        "scale", {2}, {}, {}, -1, -1, std::string("\0\0\0\0\0\0\xf0?\0\0\0\0\0\0\0@", 16), 8, {}};
    const C2Blob bf{"bf", {3}, {}, {}, -1, -1, {}, 0, {0x3f80, 0x4000, 0xbf00}};
    put("fuzz_caffe2_minidb", "trainer_0.1", ProtobufFixture::minidb({w, it, s2, s1}));
    put("fuzz_caffe2_minidb", "encodings.minidb", ProtobufFixture::minidb({d, bf, w}));
}

void lightning()
{
    put("fuzz_lightning_metrics", "epochs.csv",
        "epoch,step,train_loss,val_loss\n0,49,0.9,\n0,99,0.8,\n0,99,,0.7\n1,149,0.6,\n"
        "1,199,0.5,\n1,199,,0.45\n");
    put("fuzz_lightning_metrics", "steps.csv",
        "lr-Adam,step,train_loss_step,epoch,val_acc,train_loss_epoch\n0.001,9,1.5,0,,\n"
        "0.001,19,1.2,0,,\n,19,,0,0.61,1.31\n0.0005,29,nan,1,,\n,39,,1,inf,1e-3\n");
    put("fuzz_lightning_hparams", "plain.yaml", "lr: 0.001\nbatch_size: 32\nmodel_name: tiny\n");
    put("fuzz_lightning_hparams", "nested.yaml",
        "# saved by save_hyperparameters\nlr: 1.0e-3\noptimizer:\n  name: adam\n  betas:\n"
        "  - 0.9\n  - 0.999\nlayers: [64, 32]\nname: 'resnet: 18'\nflag: true\nnone: null\n"
        "obj: !!python/object:argparse.Namespace\n  x: 1\nmulti: |\n  line one\n  line two\n");
}

void keras()
{
    put("fuzz_keras_template", "keras.txt",
        "weights.01-0.52.weights.h5\nweights.02-0.47.weights.h5\nweights.03-0.41.weights.h5\n"
        "model_01_1000.keras\nmodel_01_2000.keras\nbest.h5\n");
    put("fuzz_keras_template", "metrics.txt",
        "ep003-loss0.512-val_loss0.601.h5\nep004-loss0.480-val_loss0.590.h5\n"
        "ep010-loss1.2e-05-val_loss-inf.h5\n");
    put("fuzz_keras_template", "synalinks.txt",
        "01-0.60.variables.json\n02-0.70.variables.json\nprogram_e01.json\nprogram_e02.json\n");
    put("fuzz_synalinks_variables", "program.variables.json",
        KerasFixture::variablesJson(0.5, {0.1, 0.2, 0.3, 0.4}));
    put("fuzz_synalinks_variables", "empty.variables.json",
        "{\"trainable_variables\": {}, \"non_trainable_variables\": {\"x\": {\"v\": [[], "
        "[[1]]]}}}");
}

void orbax()
{
    put("fuzz_orbax_metadata", "step-7",
        OrbaxFixture::metadataJson(7, {{"loss", 0.25}, {"accuracy", 0.9}}, 1763800000));
    put("fuzz_orbax_metadata", "array-metric",
        "{\"metrics\": {\"loss\": [0.5], \"nan\": NaN, \"big\": 1e308}, "
        "\"commit_timestamp_nsecs\": -9223372036854775807, \"custom_metadata\": null}");
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: ckpt-fuzz-seeds DEST\n");
        return 2;
    }
    g_dest = argv[1];
    torch();
    mindspore();
    caffe2();
    lightning();
    keras();
    orbax();
    return 0;
}
