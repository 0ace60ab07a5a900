#include "plot/Decimator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ckpt {

namespace {

// Appends the M4 entries of the unbroken run [first, last] (no NaN inside).
void emitRun(const Decimator::Series& s, int first, int last, Decimator::Output& out)
{
    MinMaxPyramid::Extremes e;
    if (s.summary) {
        e = s.summary->extremes(s.values, first, last + 1);
    } else {
        e = {first, first};
        for (int i = first + 1; i <= last; ++i) {
            if (s.values[std::size_t(i)] < s.values[std::size_t(e.min)])
                e.min = i;
            if (s.values[std::size_t(i)] > s.values[std::size_t(e.max)])
                e.max = i;
        }
    }
    int picked[4] = {first, e.min, e.max, last};
    std::sort(std::begin(picked), std::end(picked));
    int previous = -1;
    for (int i : picked) {
        if (i == previous || i < 0)
            continue;
        out.keys.push_back(s.keys[std::size_t(i)]);
        out.values.push_back(s.values[std::size_t(i)]);
        previous = i;
    }
}

// The first NaN entry in [begin, end), or end.
int nextBreak(const Decimator::Series& s, int begin, int end)
{
    if (s.summary) {
        const auto it = std::lower_bound(s.breaks.begin(), s.breaks.end(), begin);
        return it != s.breaks.end() && *it < end ? *it : end;
    }
    for (int i = begin; i < end; ++i)
        if (std::isnan(s.values[std::size_t(i)]))
            return i;
    return end;
}

} // namespace

Decimator::Output Decimator::m4(const QVector<double>& keys, const QVector<double>& values,
                                double lower, double upper, int buckets)
{
    return m4(Series{keys, values, 0, int(keys.size()), nullptr, {}}, lower, upper, buckets);
}

Decimator::Output Decimator::m4(const Series& s, double lower, double upper, int buckets)
{
    Output out;
    const auto first = s.keys.begin() + s.from;
    const auto last = s.keys.begin() + s.to;
    int begin = int(std::lower_bound(first, last, lower) - s.keys.begin());
    int end = int(std::upper_bound(first, last, upper) - s.keys.begin());
    begin = std::max(s.from, begin - 1);
    end = std::min(s.to, end + 1);
    if (begin >= end)
        return out;
    buckets = std::max(1, buckets);
    out.keys.reserve(std::min(end - begin, 4 * buckets + 8));
    out.values.reserve(out.keys.capacity());

    const double width = upper > lower ? (upper - lower) / buckets : 1.0;
    // Monotonic in the key, so each bucket is one run of entries found by bisection.
    const auto bucketOf = [&](double key) {
        return static_cast<long long>(std::floor((key - lower) / width));
    };
    int perBucket = std::max(1, (end - begin) / buckets); // entries, as the last one had
    for (int i = begin; i < end;) {
        const long long bucket = bucketOf(s.keys[std::size_t(i)]);
        const auto inBucket = [&](int k) { return bucketOf(s.keys[std::size_t(k)]) <= bucket; };
        // Where the next bucket starts: first guessed from the last one's width
        // (keys are mostly evenly spaced), then by doubling steps from the guess,
        // then by bisection: a few nearby probes instead of ~log2(n) far ones.
        int lo = i;                            // in the bucket
        int hi = std::min(end, i + perBucket); // past it when hi == end or !inBucket(hi)
        if (hi < end && inBucket(hi)) {
            lo = hi;
            for (int step = 1;; step *= 2) {
                hi = lo + step < end ? lo + step : end;
                if (hi == end || !inBucket(hi))
                    break;
                lo = hi;
            }
        } else {
            int step = 1;
            for (; hi - step > lo && !inBucket(hi - step); step *= 2)
                hi -= step;
            lo = std::max(lo, hi - step); // the start lies in (lo, hi]
        }
        while (hi - lo > 1) {
            const int mid = lo + (hi - lo) / 2;
            (inBucket(mid) ? lo : hi) = mid;
        }
        const int next = hi;
        perBucket = std::max(1, next - i);
        for (int p = i; p < next;) {
            const int nan = nextBreak(s, p, next);
            if (nan > p)
                emitRun(s, p, nan - 1, out);
            if (nan == next)
                break;
            if (out.values.isEmpty() || !std::isnan(out.values.back())) {
                out.keys.push_back(s.keys[std::size_t(nan)]);
                out.values.push_back(std::numeric_limits<double>::quiet_NaN());
            }
            p = nan + 1;
        }
        i = next;
    }
    return out;
}

} // namespace ckpt
