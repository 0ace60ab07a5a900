#pragma once

#include "common/Result.h"
#include "writer/KerasModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt::trainer {

// Adam (Keras 2 defaults: beta_1 0.9, beta_2 0.999, epsilon 1e-7) or plain
// SGD. Its state goes into the model file's optimizer_weights with Keras'
// names (Adam/iter:0, Adam/dense/kernel/m:0, ...) so a restart resumes the
// exact trajectory.
class Optimizer
{
public:
    enum class Kind
    {
        Adam,
        Sgd
    };

    Optimizer(Kind kind, double learningRate, const std::vector<std::vector<float>>& params);

    static Result<Kind> kindFromString(const std::string& name);
    Kind kind() const { return m_kind; }
    double learningRate() const { return m_lr; }
    std::int64_t iterations() const { return m_iterations; }

    void step(std::vector<std::vector<float>>& params,
              const std::vector<std::vector<float>>& grads);

    // Keras' optimizer get_config() and slot variables.
    void exportTo(KerasModel& model, const std::vector<std::string>& variableNames,
                  const std::vector<std::vector<std::uint64_t>>& shapes) const;
    // Restores the iteration count and slots; missing slots stay zero and are
    // reported in the returned text (empty when all were found).
    std::string importFrom(const KerasModel& model, const std::vector<std::string>& variableNames);

private:
    std::string prefix() const { return m_kind == Kind::Adam ? "Adam" : "SGD"; }

    Kind m_kind;
    double m_lr;
    std::int64_t m_iterations = 0;
    std::vector<std::vector<float>> m_m, m_v;
};

} // namespace ckpt::trainer
