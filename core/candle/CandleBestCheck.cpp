#include "candle/CandleBestCheck.h"

#include <cmath>
#include <map>
#include <sstream>

namespace ckpt {

namespace {

bool contains(std::string_view haystack, std::string_view needle)
{
    return haystack.find(needle) != std::string_view::npos;
}

std::string formatValue(double v)
{
    std::ostringstream os;
    os.precision(10);
    os << v;
    return os.str();
}

} // namespace

bool CandleBestCheck::lowerIsBetter(std::string_view metric)
{
    for (std::string_view higher : {"acc", "auc", "precision", "recall", "f1", "r2", "corr"})
        if (contains(metric, higher))
            return false;
    return true;
}

std::optional<int> CandleBestCheck::bestEpoch(const Run& run, std::string_view metric)
{
    const bool lower = lowerIsBetter(metric);
    std::optional<int> epoch;
    double extreme = 0.0;
    for (const Epoch& e : run.epochs) { // ascending: the first of equal values wins
        if (!e.info || !e.info->bestMetricLast || !std::isfinite(*e.info->bestMetricLast))
            continue;
        if (e.info->saveBestMetric && *e.info->saveBestMetric != metric)
            continue;
        const double v = *e.info->bestMetricLast;
        if (!epoch || (lower ? v < extreme : v > extreme)) {
            epoch = e.number;
            extreme = v;
        }
    }
    return epoch;
}

std::optional<Problem> CandleBestCheck::check(const Run& run)
{
    if (!run.best || !run.best->epoch)
        return std::nullopt;
    const int linked = *run.best->epoch;
    const Epoch* target = run.findEpoch(linked);
    if (!target)
        return std::nullopt; // a missing target is reported as a link problem

    // The metric the run monitored: the one the best epoch names, else the most common.
    std::string metric;
    if (target->info && target->info->saveBestMetric) {
        metric = *target->info->saveBestMetric;
    } else {
        std::map<std::string, int> counts;
        for (const Epoch& e : run.epochs)
            if (e.info && e.info->saveBestMetric)
                ++counts[*e.info->saveBestMetric];
        int most = 0;
        for (const auto& [name, n] : counts)
            if (n > most) {
                most = n;
                metric = name;
            }
    }
    if (metric.empty())
        return std::nullopt; // save_best was off: no metric to judge by

    const std::optional<int> best = bestEpoch(run, metric);
    if (!best || *best == linked)
        return std::nullopt;
    const Epoch* bestEp = run.findEpoch(*best);
    const double value = *bestEp->info->bestMetricLast;
    std::string message = run.best->path + " points at epoch " + std::to_string(linked) +
                          ", but epoch " + std::to_string(*best) + " recorded the best " + metric +
                          " (" + formatValue(value) + ", " +
                          (lowerIsBetter(metric) ? "lower" : "higher") + " is better)";
    if (target->info && target->info->bestMetricLast)
        message += " where epoch " + std::to_string(linked) + " has " +
                   formatValue(*target->info->bestMetricLast);
    message += ": re-point best at " + bestEp->dir + " if that is the model you want.";
    return Problem{ProblemKind::BestNotAtBest, std::move(message), run.best->path, linked};
}

} // namespace ckpt
