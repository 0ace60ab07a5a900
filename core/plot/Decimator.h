#pragma once

#include "plot/MinMaxPyramid.h"

#include <QVector>

#include <span>

namespace ckpt {

// Reduces a long sorted series to what a screen can show: the key window is cut
// into buckets (about one per pixel) and each bucket keeps its first, lowest,
// highest and last entry in key order (the "M4" reduction), so that the drawn
// line is the same as with every point while the drawing work stops growing with
// the data. NaN entries are breaks and are kept as such.
class Decimator
{
public:
    struct Output
    {
        QVector<double> keys;
        QVector<double> values;
    };

    // A series to reduce: entries [from, to) of `keys` (sorted) and `values`.
    // With `summary` (over all of `values`) and `breaks` (the sorted indices of
    // the NaN entries of `values`), a bucket costs O(log n) whatever the number
    // of entries in it; without, every entry in the window is looked at.
    struct Series
    {
        std::span<const double> keys;
        std::span<const double> values;
        int from = 0;
        int to = 0;
        const MinMaxPyramid* summary = nullptr;
        std::span<const int> breaks;
    };

    // Entries with keys in [lower, upper], plus one neighbour on each side so that
    // lines leaving the window still do.
    static Output m4(const Series& series, double lower, double upper, int buckets);
    // The same over a whole series, without a summary.
    static Output m4(const QVector<double>& keys, const QVector<double>& values, double lower,
                     double upper, int buckets);
};

} // namespace ckpt
