#include "Optimizer.h"

#include <cmath>

namespace ckpt::trainer {

namespace {
constexpr double kBeta1 = 0.9;
constexpr double kBeta2 = 0.999;
constexpr double kEpsilon = 1e-7;

// Keras stores hyperparameters as float32 variables: the file shows their float32 value.
double asFloat32(double v)
{
    return static_cast<double>(static_cast<float>(v));
}
} // namespace

Optimizer::Optimizer(Kind kind, double learningRate, const std::vector<std::vector<float>>& params)
    : m_kind(kind), m_lr(learningRate)
{
    for (const auto& p : params) {
        m_m.emplace_back(p.size(), 0.0f);
        m_v.emplace_back(p.size(), 0.0f);
    }
}

Result<Optimizer::Kind> Optimizer::kindFromString(const std::string& name)
{
    if (name == "adam" || name == "Adam")
        return Kind::Adam;
    if (name == "sgd" || name == "SGD")
        return Kind::Sgd;
    return Error::at({}, "parameter 'optimizer' is '" + name + "' but must be adam or sgd");
}

void Optimizer::step(std::vector<std::vector<float>>& params,
                     const std::vector<std::vector<float>>& grads)
{
    ++m_iterations;
    if (m_kind == Kind::Sgd) {
        for (std::size_t k = 0; k < params.size(); ++k)
            for (std::size_t i = 0; i < params[k].size(); ++i)
                params[k][i] -= static_cast<float>(m_lr) * grads[k][i];
        return;
    }
    const double t = static_cast<double>(m_iterations);
    const auto lrT = static_cast<float>(m_lr * std::sqrt(1.0 - std::pow(kBeta2, t)) /
                                        (1.0 - std::pow(kBeta1, t)));
    for (std::size_t k = 0; k < params.size(); ++k) {
        auto& p = params[k];
        auto& m = m_m[k];
        auto& v = m_v[k];
        const auto& g = grads[k];
        for (std::size_t i = 0; i < p.size(); ++i) {
            m[i] = static_cast<float>(kBeta1) * m[i] + static_cast<float>(1 - kBeta1) * g[i];
            v[i] = static_cast<float>(kBeta2) * v[i] + static_cast<float>(1 - kBeta2) * g[i] * g[i];
            p[i] -= lrT * m[i] / (std::sqrt(v[i]) + static_cast<float>(kEpsilon));
        }
    }
}

void Optimizer::exportTo(KerasModel& model, const std::vector<std::string>& variableNames,
                         const std::vector<std::vector<std::uint64_t>>& shapes) const
{
    nlohmann::ordered_json cfg;
    cfg["name"] = prefix();
    cfg["learning_rate"] = asFloat32(m_lr);
    cfg["decay"] = 0.0;
    if (m_kind == Kind::Adam) {
        cfg["beta_1"] = asFloat32(kBeta1);
        cfg["beta_2"] = asFloat32(kBeta2);
        cfg["epsilon"] = kEpsilon;
        cfg["amsgrad"] = false;
    } else {
        cfg["momentum"] = 0.0;
        cfg["nesterov"] = false;
    }
    model.optimizerConfig = nlohmann::ordered_json::object();
    model.optimizerConfig["class_name"] = prefix();
    model.optimizerConfig["config"] = cfg;
    model.optimizerIterations = m_iterations;
    model.optimizerWeights.clear();
    if (m_kind != Kind::Adam)
        return;
    // Keras v2 creates all "m" slots, then all "v" slots.
    for (const char* slot : {"m", "v"}) {
        const auto& state = std::string(slot) == "m" ? m_m : m_v;
        for (std::size_t k = 0; k < variableNames.size(); ++k)
            model.optimizerWeights.push_back(KerasTensor{
                prefix() + "/" + variableNames[k] + "/" + slot + ":0", shapes[k], state[k]});
    }
}

std::string Optimizer::importFrom(const KerasModel& model,
                                  const std::vector<std::string>& variableNames)
{
    m_iterations = model.optimizerIterations;
    if (m_kind != Kind::Adam)
        return {};
    std::string missing;
    for (const char* slot : {"m", "v"}) {
        auto& state = std::string(slot) == "m" ? m_m : m_v;
        for (std::size_t k = 0; k < variableNames.size(); ++k) {
            const std::string name = prefix() + "/" + variableNames[k] + "/" + slot + ":0";
            bool found = false;
            for (const auto& t : model.optimizerWeights) {
                if (t.name == name && t.values.size() == state[k].size()) {
                    state[k] = t.values;
                    found = true;
                }
            }
            if (!found)
                missing += (missing.empty() ? "" : ", ") + name;
        }
    }
    return missing;
}

} // namespace ckpt::trainer
