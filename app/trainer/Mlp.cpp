#include "Mlp.h"

#include "Rng.h"

#include <algorithm>
#include <cmath>

namespace ckpt::trainer {

Mlp::Mlp(std::vector<int> sizes, std::uint64_t seed) : m_sizes(std::move(sizes))
{
    Rng rng(seed * 104729 + 3);
    for (int l = 0; l < layers(); ++l) {
        const int in = m_sizes[static_cast<std::size_t>(l)];
        const int out = m_sizes[static_cast<std::size_t>(l) + 1];
        const double limit = std::sqrt(6.0 / (in + out));
        std::vector<float> w(static_cast<std::size_t>(in) * out);
        for (float& v : w)
            v = static_cast<float>(rng.uniform(-limit, limit));
        m_params.push_back(std::move(w));
        m_params.emplace_back(static_cast<std::size_t>(out), 0.0f);
    }
    for (const auto& p : m_params)
        m_grads.emplace_back(p.size(), 0.0f);
}

std::string Mlp::layerName(int index)
{
    return index == 0 ? "dense" : "dense_" + std::to_string(index);
}

std::vector<std::string> Mlp::variableNames() const
{
    std::vector<std::string> names;
    for (int l = 0; l < layers(); ++l) {
        names.push_back(layerName(l) + "/kernel");
        names.push_back(layerName(l) + "/bias");
    }
    return names;
}

std::vector<std::vector<std::uint64_t>> Mlp::variableShapes() const
{
    std::vector<std::vector<std::uint64_t>> shapes;
    for (int l = 0; l < layers(); ++l) {
        const auto in = static_cast<std::uint64_t>(m_sizes[static_cast<std::size_t>(l)]);
        const auto out = static_cast<std::uint64_t>(m_sizes[static_cast<std::size_t>(l) + 1]);
        shapes.push_back({in, out});
        shapes.push_back({out});
    }
    return shapes;
}

Mlp::Eval Mlp::forward(const float* x, const int* y, int n,
                       std::vector<std::vector<float>>& acts) const
{
    acts.assign(static_cast<std::size_t>(layers()) + 1, {});
    acts[0].assign(x, x + static_cast<std::size_t>(n) * m_sizes[0]);
    for (int l = 0; l < layers(); ++l) {
        const auto L = static_cast<std::size_t>(l);
        const int in = m_sizes[L], out = m_sizes[L + 1];
        const auto& W = m_params[2 * L];
        const auto& b = m_params[2 * L + 1];
        auto& a = acts[L + 1];
        a.assign(static_cast<std::size_t>(n) * out, 0.0f);
        for (int s = 0; s < n; ++s) {
            const float* ai = &acts[L][static_cast<std::size_t>(s) * in];
            float* ao = &a[static_cast<std::size_t>(s) * out];
            std::copy(b.begin(), b.end(), ao);
            for (int i = 0; i < in; ++i) {
                const float v = ai[i];
                const float* w = &W[static_cast<std::size_t>(i) * out];
                for (int o = 0; o < out; ++o)
                    ao[o] += v * w[o];
            }
            if (l + 1 < layers()) {
                for (int o = 0; o < out; ++o)
                    ao[o] = std::max(ao[o], 0.0f);
            } else {
                const float mx = *std::max_element(ao, ao + out);
                float sum = 0;
                for (int o = 0; o < out; ++o)
                    sum += (ao[o] = std::exp(ao[o] - mx));
                for (int o = 0; o < out; ++o)
                    ao[o] /= sum;
            }
        }
    }
    Eval e;
    const int classes = m_sizes.back();
    const auto& p = acts.back();
    for (int s = 0; s < n; ++s) {
        const float* ps = &p[static_cast<std::size_t>(s) * classes];
        e.lossSum -= std::log(std::max(ps[y[s]], 1e-7f));
        if (std::max_element(ps, ps + classes) - ps == y[s])
            ++e.correct;
    }
    return e;
}

Mlp::Eval Mlp::evaluate(const float* x, const int* y, int n) const
{
    std::vector<std::vector<float>> acts;
    return forward(x, y, n, acts);
}

Mlp::Eval Mlp::trainStep(const float* x, const int* y, int n)
{
    std::vector<std::vector<float>> acts;
    const Eval e = forward(x, y, n, acts);
    // delta = dLoss/dz of the current layer, batch-mean.
    const int classes = m_sizes.back();
    std::vector<float> delta = acts.back();
    for (int s = 0; s < n; ++s)
        delta[static_cast<std::size_t>(s) * classes + static_cast<std::size_t>(y[s])] -= 1.0f;
    for (float& d : delta)
        d /= static_cast<float>(n);
    for (int l = layers() - 1; l >= 0; --l) {
        const auto L = static_cast<std::size_t>(l);
        const int in = m_sizes[L], out = m_sizes[L + 1];
        auto& gW = m_grads[2 * L];
        auto& gb = m_grads[2 * L + 1];
        std::fill(gW.begin(), gW.end(), 0.0f);
        std::fill(gb.begin(), gb.end(), 0.0f);
        const auto& aPrev = acts[L];
        for (int s = 0; s < n; ++s) {
            const float* ds = &delta[static_cast<std::size_t>(s) * out];
            const float* as = &aPrev[static_cast<std::size_t>(s) * in];
            for (int i = 0; i < in; ++i) {
                float* g = &gW[static_cast<std::size_t>(i) * out];
                for (int o = 0; o < out; ++o)
                    g[o] += as[i] * ds[o];
            }
            for (int o = 0; o < out; ++o)
                gb[static_cast<std::size_t>(o)] += ds[o];
        }
        if (l == 0)
            break;
        const auto& W = m_params[2 * L];
        std::vector<float> prev(static_cast<std::size_t>(n) * in, 0.0f);
        for (int s = 0; s < n; ++s) {
            const float* ds = &delta[static_cast<std::size_t>(s) * out];
            float* ps = &prev[static_cast<std::size_t>(s) * in];
            const float* as = &aPrev[static_cast<std::size_t>(s) * in];
            for (int i = 0; i < in; ++i) {
                if (as[i] <= 0.0f) // ReLU'
                    continue;
                const float* w = &W[static_cast<std::size_t>(i) * out];
                float acc = 0;
                for (int o = 0; o < out; ++o)
                    acc += w[o] * ds[o];
                ps[i] = acc;
            }
        }
        delta = std::move(prev);
    }
    return e;
}

KerasModel Mlp::toKeras() const
{
    KerasModel model;
    for (int l = 0; l < layers(); ++l) {
        const auto L = static_cast<std::size_t>(l);
        KerasDense d;
        d.name = layerName(l);
        d.inputs = m_sizes[L];
        d.units = m_sizes[L + 1];
        d.activation = l + 1 < layers() ? "relu" : "softmax";
        d.kernel = m_params[2 * L];
        d.bias = m_params[2 * L + 1];
        model.layers.push_back(std::move(d));
    }
    return model;
}

Status Mlp::loadKeras(const KerasModel& model, const std::string& origin)
{
    auto describe = [](const std::vector<int>& sizes) {
        std::string s;
        for (int v : sizes) {
            if (!s.empty())
                s += '-';
            s += std::to_string(v);
        }
        return s;
    };
    std::vector<int> sizes;
    for (const auto& layer : model.layers) {
        if (sizes.empty())
            sizes.push_back(layer.inputs);
        else if (sizes.back() != layer.inputs)
            return Error::at(origin, "layer '" + layer.name + "' does not fit the previous layer");
        sizes.push_back(layer.units);
    }
    if (sizes != m_sizes)
        return Error::at(origin, "the checkpoint's network is " + describe(sizes) +
                                     " but the configuration asks for " + describe(m_sizes));
    for (int l = 0; l < layers(); ++l) {
        const auto L = static_cast<std::size_t>(l);
        m_params[2 * L] = model.layers[L].kernel;
        m_params[2 * L + 1] = model.layers[L].bias;
    }
    return {};
}

} // namespace ckpt::trainer
