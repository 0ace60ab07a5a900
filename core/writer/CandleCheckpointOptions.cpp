#include "writer/CandleCheckpointOptions.h"

#include "config/HyperParams.h"

namespace ckpt {

namespace fs = std::filesystem;

namespace {

Error invalid(const std::string& name, const std::string& value, const std::string& expected)
{
    return Error::at({}, "parameter '" + name + "' is '" + value + "' but must be " + expected);
}

} // namespace

std::string_view toString(RestartMode mode)
{
    switch (mode) {
    case RestartMode::Off:
        return "off";
    case RestartMode::Auto:
        return "auto";
    case RestartMode::Required:
        return "required";
    }
    return "auto";
}

Result<CandleCheckpointOptions> CandleCheckpointOptions::fromParams(const HyperParams& params,
                                                                    const fs::path& outputDir)
{
    CandleCheckpointOptions o;
    if (!params.value("epochs") || params.value("epochs")->isNull())
        return Error::at({}, "param key must be provided: 'epochs'");

    // Non-negative (or strictly positive) integers, as CANDLE's ParamType checks.
    auto intParam = [&](const char* name, std::int64_t fallback, std::int64_t min,
                        int& out) -> Status {
        auto v = params.getInt(name, fallback);
        if (!v)
            return v.error();
        if (v.value() < min || v.value() > 1000000000)
            return invalid(name, std::to_string(v.value()),
                           min > 0 ? "greater than zero" : "non-negative");
        out = static_cast<int>(v.value());
        return {};
    };
    auto boolParam = [&](const char* name, bool fallback, bool& out) -> Status {
        auto v = params.getBool(name, fallback);
        if (!v)
            return v.error();
        out = v.value();
        return {};
    };
    for (Status st :
         {intParam("epochs", 0, 0, o.epochs), intParam("ckpt_skip_epochs", 0, 0, o.skipEpochs),
          intParam("ckpt_save_interval", 1, 0, o.saveInterval),
          intParam("ckpt_keep_limit", 1000000, 1, o.keepLimit),
          boolParam("ckpt_checksum", false, o.checksum),
          boolParam("ckpt_save_best", true, o.saveBest),
          boolParam("ckpt_save_weights_only", false, o.saveWeightsOnly)})
        if (!st)
            return st.error();

    const std::string mode = params.getString("ckpt_restart_mode", "auto");
    if (mode == "off")
        o.restartMode = RestartMode::Off;
    else if (mode == "auto")
        o.restartMode = RestartMode::Auto;
    else if (mode == "required")
        o.restartMode = RestartMode::Required;
    else
        return invalid("ckpt_restart_mode", mode, "one of off, auto, required");

    o.saveBestMetric = params.getString("ckpt_save_best_metric", "val_loss");
    const std::string keep = params.getString("ckpt_keep_mode", "linear");
    if (keep == "all") {
        o.keepMode = KeepMode::Linear;
        o.keepLimit = 1000000;
    } else if (auto km = keepModeFromString(keep)) {
        o.keepMode = *km;
    } else {
        return invalid("ckpt_keep_mode", keep, "one of linear, exponential, all");
    }

    if (params.value("ckpt_best_metric_last") && !params.value("ckpt_best_metric_last")->isNull()) {
        auto v = params.getDouble("ckpt_best_metric_last", 0.0);
        if (!v)
            return v.error();
        o.bestMetricLast = v.value();
    }
    o.timestampLast = params.getOptionalString("ckpt_timestamp_last");
    o.metadata = params.getOptionalString("metadata");

    const std::string layout = params.getString("ckpt_layout", "develop");
    const auto directory = params.getOptionalString("ckpt_directory");
    std::error_code ec;
    if (layout == "develop") {
        o.root = directory ? fs::path(*directory) : outputDir / "ckpts";
        o.root = fs::absolute(o.root, ec);
        o.logPath = o.root / "ckpt.log";
    } else if (layout == "save") {
        const fs::path base =
            fs::absolute(directory ? fs::path(*directory) : outputDir / "save", ec);
        o.root = base / "ckpts";
        o.logPath = base / "ckpt.log";
    } else {
        return invalid("ckpt_layout", layout, "one of develop, save");
    }
    if (ec)
        return Error::at(o.root.string(),
                         "cannot make the checkpoint directory absolute: " + ec.message());
    return o;
}

} // namespace ckpt
