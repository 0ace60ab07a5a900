#include "Trainer.h"

#include "Mlp.h"
#include "Optimizer.h"
#include "Rng.h"
#include "SpiralData.h"
#include "json/PythonRepr.h"
#include "writer/CandleCheckpoint.h"
#include "writer/KerasH5Reader.h"
#include "writer/KerasH5Writer.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <thread>

namespace ckpt::trainer {

namespace fs = std::filesystem;

namespace {

// Keras logs float32 metrics; their double value is what Python prints.
double f32(double v)
{
    return static_cast<double>(static_cast<float>(v));
}

int fail(int code, const std::string& message)
{
    std::cerr << "ckpt-demo-train: error: " << message << std::endl;
    return code;
}

} // namespace

Trainer::Trainer(HyperParams params) : m_params(std::move(params)) {}

HyperParams Trainer::defaults()
{
    HyperParams p;
    p.setDefault("epochs", HyperValue::fromInt(20));
    p.setDefault("learning_rate", HyperValue::fromDouble(0.01));
    p.setDefault("batch_size", HyperValue::fromInt(32));
    p.setDefault("optimizer", HyperValue::fromString("adam"));
    p.setDefault("dense", HyperValue::fromList({HyperValue::fromInt(32), HyperValue::fromInt(32)}));
    p.setDefault("samples_per_class", HyperValue::fromInt(200));
    p.setDefault("classes", HyperValue::fromInt(3));
    p.setDefault("noise", HyperValue::fromDouble(0.2));
    p.setDefault("validation_split", HyperValue::fromDouble(0.2));
    p.setDefault("seed", HyperValue::fromInt(1));
    p.setDefault("output_dir", HyperValue::fromString("."));
    p.setDefault("epoch_delay", HyperValue::fromDouble(0.0));
    p.setDefault("ckpt_restart_mode", HyperValue::fromString("auto"));
    p.setDefault("ckpt_save_best", HyperValue::fromBool(true));
    p.setDefault("ckpt_save_best_metric", HyperValue::fromString("val_loss"));
    return p;
}

std::string Trainer::usage()
{
    return R"(Usage: ckpt-demo-train [--config_file F.ini] [--key value | --key=value]...

Trains a small MLP (ReLU hidden layers, softmax) on deterministic noisy spirals
and checkpoints it exactly as CANDLE's checkpoint callback does.
Precedence: command line > config file ([Global_Params] and other sections) > defaults.

Training:
  --epochs N              total epochs (default 20); a restart continues up to N
  --learning_rate X       (default 0.01)
  --batch_size N          (default 32)
  --optimizer adam|sgd    (default adam)
  --dense [a, b]          hidden layer sizes (default [32, 32])
  --samples_per_class N   (default 200)   --classes N (default 3)
  --noise X               (default 0.2)   --validation_split X (default 0.2)
  --seed N                (default 1)
  --output_dir DIR        training.log and (by default) ckpts/ go here (default .)
  --epoch_delay SECONDS   sleep after each epoch (to watch a run live)

Checkpoints (CANDLE ckpt_* parameters):
  --ckpt_restart_mode off|auto|required   (default auto: resume from <root>/last)
  --ckpt_directory DIR    checkpoint root (default <output_dir>/ckpts)
  --ckpt_layout develop|save   'save': <ckpt_directory or <output_dir>/save>/ckpts,
                          log <...>/save/ckpt.log (older CANDLE generations)
  --ckpt_checksum BOOL    --ckpt_skip_epochs N   --ckpt_save_interval N
  --ckpt_save_best BOOL   --ckpt_save_best_metric val_loss|loss|accuracy|val_accuracy|lr
  --ckpt_save_weights_only BOOL   --ckpt_keep_mode linear   --ckpt_keep_limit N
  --ckpt_best_metric_last X       --metadata TEXT

Exit status: 0 done, 1 failure, 2 bad usage or configuration, 3 restart failed,
4 checkpoint or log writing failed.
)";
}

int Trainer::run()
{
    const HyperParams& p = m_params;
    const fs::path outputDir = p.getString("output_dir", ".");
    auto opts = CandleCheckpointOptions::fromParams(p, outputDir);
    if (!opts)
        return fail(Usage, opts.error().message);

    auto lr = p.getDouble("learning_rate", 0.01);
    auto batch = p.getInt("batch_size", 32);
    auto seed = p.getInt("seed", 1);
    auto perClass = p.getInt("samples_per_class", 200);
    auto classes = p.getInt("classes", 3);
    auto noise = p.getDouble("noise", 0.2);
    auto split = p.getDouble("validation_split", 0.2);
    auto delay = p.getDouble("epoch_delay", 0.0);
    auto kind = Optimizer::kindFromString(p.getString("optimizer", "adam"));
    for (const Error* e : {lr ? nullptr : &lr.error(), batch ? nullptr : &batch.error(),
                           seed ? nullptr : &seed.error(), perClass ? nullptr : &perClass.error(),
                           classes ? nullptr : &classes.error(), noise ? nullptr : &noise.error(),
                           split ? nullptr : &split.error(), delay ? nullptr : &delay.error(),
                           kind ? nullptr : &kind.error()})
        if (e)
            return fail(Usage, e->message);
    if (*batch <= 0 || *perClass <= 1 || *classes < 2 || *split <= 0 || *split >= 1 || *lr <= 0)
        return fail(Usage, "batch_size, samples_per_class, classes must be positive, "
                           "0 < validation_split < 1 and learning_rate > 0");
    std::vector<int> sizes = {2};
    const HyperValue* dense = p.value("dense");
    if (!dense || !dense->list() || dense->list()->empty())
        return fail(Usage, "parameter 'dense' must be a list of layer sizes, e.g. [32, 32]");
    for (const HyperValue& v : *dense->list()) {
        auto n = v.toInt();
        if (!n || *n <= 0 || *n > 4096)
            return fail(Usage, "parameter 'dense': '" + v.toString() + "' is not a layer size");
        sizes.push_back(static_cast<int>(*n));
    }
    sizes.push_back(static_cast<int>(*classes));

    std::error_code ec;
    fs::create_directories(outputDir, ec);
    if (ec)
        return fail(CheckpointFailed, outputDir.string() + ": " + ec.message());

    const SpiralData data(static_cast<int>(*perClass), static_cast<int>(*classes), *noise,
                          static_cast<std::uint64_t>(*seed), *split);
    Mlp mlp(sizes, static_cast<std::uint64_t>(*seed));
    Optimizer optimizer(*kind, *lr, mlp.params());
    // CANDLE order: candle.restart() runs before the callback is created, so
    // the restart lines precede "Callback initialized." in ckpt.log.
    CandleCheckpoint ckpt(*opts);
    int initialEpoch = 0;
    auto restart = ckpt.restart();
    if (!restart)
        return fail(RestartFailed, restart.error().message);
    if (Status st = ckpt.initialize(); !st)
        return fail(CheckpointFailed, st.error().message);
    if (restart->has_value()) {
        const auto& r = **restart;
        auto model = KerasH5Reader::read(r.modelFile);
        if (!model)
            return fail(RestartFailed, model.error().message);
        if (Status st = mlp.loadKeras(*model, r.modelFile.string()); !st)
            return fail(RestartFailed, st.error().message);
        const std::string missing = optimizer.importFrom(*model, mlp.variableNames());
        if (!missing.empty())
            std::cout << "warning: optimizer state not in checkpoint (starting from zero): "
                      << missing << "\n";
        initialEpoch = r.epoch;
        std::cout << "Restarting from " << r.epochDir.string() << " at epoch " << initialEpoch
                  << std::endl;
    }
    if (initialEpoch >= opts->epochs) {
        std::cout << "Nothing to train: the checkpoint is at epoch " << initialEpoch << " of "
                  << opts->epochs << std::endl;
        return Ok;
    }

    // Keras' CSVLogger (append=False): header of sorted keys, 0-based epochs,
    // csv's excel dialect line ends.
    const fs::path csvPath = outputDir / "training.log";
    std::ofstream csv(csvPath, std::ios::binary | std::ios::trunc);
    if (!csv)
        return fail(CheckpointFailed, csvPath.string() + ": cannot write");
    csv << "epoch,accuracy,loss,lr,val_accuracy,val_loss\r\n" << std::flush;

    const auto& tx = data.trainX();
    const auto& ty = data.trainY();
    const int nTrain = static_cast<int>(ty.size());
    const int nVal = static_cast<int>(data.valY().size());
    const int batchSize = static_cast<int>(*batch);
    const auto names = mlp.variableNames();
    const auto shapes = mlp.variableShapes();
    std::vector<int> order(static_cast<std::size_t>(nTrain));
    std::vector<float> xb;
    std::vector<int> yb;
    for (int epoch = initialEpoch; epoch < opts->epochs; ++epoch) {
        // Per-epoch shuffle seeded by the epoch: a resumed run replays the same batches.
        Rng rng(static_cast<std::uint64_t>(*seed) * 1000003u + static_cast<std::uint64_t>(epoch));
        std::iota(order.begin(), order.end(), 0);
        for (std::size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[rng.below(static_cast<std::uint32_t>(i))]);
        double lossSum = 0;
        int correct = 0;
        for (int start = 0; start < nTrain; start += batchSize) {
            const int n = std::min(batchSize, nTrain - start);
            xb.clear();
            yb.clear();
            for (int k = 0; k < n; ++k) {
                const auto i = static_cast<std::size_t>(order[static_cast<std::size_t>(start + k)]);
                xb.push_back(tx[2 * i]);
                xb.push_back(tx[2 * i + 1]);
                yb.push_back(ty[i]);
            }
            const auto e = mlp.trainStep(xb.data(), yb.data(), n);
            optimizer.step(mlp.params(), mlp.grads());
            lossSum += e.lossSum;
            correct += e.correct;
        }
        const auto val = mlp.evaluate(data.valX().data(), data.valY().data(), nVal);
        const CandleCheckpoint::Metrics logs = {
            {"loss", f32(lossSum / nTrain)},
            {"accuracy", f32(static_cast<double>(correct) / nTrain)},
            {"val_loss", f32(val.lossSum / nVal)},
            {"val_accuracy", f32(static_cast<double>(val.correct) / nVal)},
            {"lr", f32(*lr)}};
        csv << epoch;
        for (const auto& [key, value] : logs) // std::map: sorted keys, as CSVLogger
            csv << ',' << PythonRepr::floatRepr(value);
        csv << "\r\n" << std::flush;
        if (!csv)
            return fail(CheckpointFailed, csvPath.string() + ": write failed");

        auto saver = [&](const fs::path& file) {
            KerasModel km = mlp.toKeras();
            optimizer.exportTo(km, names, shapes);
            return KerasH5Writer::write(file, km, opts->saveWeightsOnly);
        };
        auto saved = ckpt.onEpochEnd(epoch + 1, logs, saver);
        if (!saved)
            return fail(CheckpointFailed, saved.error().message);

        char line[256];
        std::snprintf(line, sizeof line,
                      "Epoch %d/%d - loss: %.4f - accuracy: %.4f - val_loss: %.4f - "
                      "val_accuracy: %.4f - lr: %.4g%s",
                      epoch + 1, opts->epochs, logs.at("loss"), logs.at("accuracy"),
                      logs.at("val_loss"), logs.at("val_accuracy"), logs.at("lr"),
                      *saved ? " [saved]" : "");
        std::cout << line << std::endl;
        if (*delay > 0 && epoch + 1 < opts->epochs)
            std::this_thread::sleep_for(std::chrono::duration<double>(*delay));
    }
    (void)ckpt.reportFinal();
    return Ok;
}

} // namespace ckpt::trainer
