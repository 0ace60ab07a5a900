#include "plot/Decimator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ckpt {

namespace {

// One unbroken run inside a bucket.
struct Run
{
    int first = -1;
    int last = -1;
    int min = -1;
    int max = -1;

    void add(int i, const QVector<double>& values)
    {
        if (first < 0)
            first = min = max = i;
        last = i;
        if (values[i] < values[min])
            min = i;
        if (values[i] > values[max])
            max = i;
    }

    void flush(const QVector<double>& keys, const QVector<double>& values, Decimator::Output& out)
    {
        if (first < 0)
            return;
        int picked[4] = {first, min, max, last};
        std::sort(std::begin(picked), std::end(picked));
        int previous = -1;
        for (int i : picked) {
            if (i == previous)
                continue;
            out.keys.push_back(keys[i]);
            out.values.push_back(values[i]);
            previous = i;
        }
        *this = Run{};
    }
};

} // namespace

Decimator::Output Decimator::m4(const QVector<double>& keys, const QVector<double>& values,
                                double lower, double upper, int buckets)
{
    Output out;
    const int n = int(keys.size());
    int begin = int(std::lower_bound(keys.begin(), keys.end(), lower) - keys.begin());
    int end = int(std::upper_bound(keys.begin(), keys.end(), upper) - keys.begin());
    begin = std::max(0, begin - 1);
    end = std::min(n, end + 1);
    if (begin >= end)
        return out;
    buckets = std::max(1, buckets);
    out.keys.reserve(std::min(end - begin, 4 * buckets + 8));
    out.values.reserve(out.keys.capacity());

    const double width = upper > lower ? (upper - lower) / buckets : 1.0;
    const auto bucketOf = [&](double key) {
        return static_cast<long long>(std::floor((key - lower) / width));
    };
    Run run;
    long long bucket = bucketOf(keys[begin]);
    for (int i = begin; i < end; ++i) {
        const long long b = bucketOf(keys[i]);
        if (b != bucket) {
            run.flush(keys, values, out);
            bucket = b;
        }
        if (std::isnan(values[i])) {
            run.flush(keys, values, out);
            if (out.values.isEmpty() || !std::isnan(out.values.back())) {
                out.keys.push_back(keys[i]);
                out.values.push_back(std::numeric_limits<double>::quiet_NaN());
            }
            continue;
        }
        run.add(i, values);
    }
    run.flush(keys, values, out);
    return out;
}

} // namespace ckpt
