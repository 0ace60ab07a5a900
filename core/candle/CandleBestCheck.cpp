#include "candle/CandleBestCheck.h"

#include "candle/CandleEpochInfo.h"

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
        const auto bestSoFar = e.metric(kBestSoFar);
        if (!bestSoFar || !std::isfinite(*bestSoFar))
            continue;
        if (!e.monitored.empty() && e.monitored != metric)
            continue;
        const double v = *bestSoFar;
        if (!epoch || (lower ? v < extreme : v > extreme)) {
            epoch = e.number;
            extreme = v;
        }
    }
    return epoch;
}

std::optional<Problem> CandleBestCheck::check(const Run& run)
{
    const RunLink* bestLink = run.link("best");
    if (!bestLink || !bestLink->epoch)
        return std::nullopt;
    const int linked = *bestLink->epoch;
    const Epoch* target = run.findEpoch(linked);
    if (!target)
        return std::nullopt; // a missing target is reported as a link problem

    // The metric the run monitored: the one the best epoch names, else the most common.
    std::string metric;
    if (!target->monitored.empty()) {
        metric = target->monitored;
    } else {
        std::map<std::string, int> counts;
        for (const Epoch& e : run.epochs)
            if (!e.monitored.empty())
                ++counts[e.monitored];
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
    const double value = *bestEp->metric(kBestSoFar);
    std::string message = bestLink->path + " points at epoch " + std::to_string(linked) +
                          ", but epoch " + std::to_string(*best) + " recorded the best " + metric +
                          " (" + formatValue(value) + ", " +
                          (lowerIsBetter(metric) ? "lower" : "higher") + " is better)";
    if (const auto targetValue = target->metric(kBestSoFar))
        message += " where epoch " + std::to_string(linked) + " has " + formatValue(*targetValue);
    message += ": re-point best at " + run.pathOf(*bestEp) + " if that is the model you want.";
    return Problem{ProblemKind::BestNotAtBest, std::move(message), bestLink->path, linked};
}

} // namespace ckpt
