#pragma once

#include <QVector>

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

    // Entries with keys in [lower, upper], plus one neighbour on each side so that
    // lines leaving the window still do. `keys` must be sorted.
    static Output m4(const QVector<double>& keys, const QVector<double>& values, double lower,
                     double upper, int buckets);
};

} // namespace ckpt
