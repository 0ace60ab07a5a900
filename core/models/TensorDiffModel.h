#pragma once

#include "hdf5/TensorDiff.h"

#include <QAbstractTableModel>

#include <vector>

namespace ckpt {

// The tensors of a ModelDiff, one row each. Sort through SortRole (numbers as
// doubles, NaN lowest so "not compared" rows end a descending sort); a delegate
// draws BarValueRole as a bar and BadRole rows as alarming.
class TensorDiffModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        PathColumn,
        LayerColumn,
        ShapeColumn,
        DTypeColumn,
        StatusColumn,
        L2DiffColumn,
        RelChangeColumn,
        MaxAbsDiffColumn,
        CosineColumn,
        NonFiniteAColumn,
        NonFiniteBColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole + 1,
        BarValueRole = Qt::UserRole + 40, // double: relative change (RelChangeColumn only)
        BadRole,                          // bool: NaN/Inf on either side, or unreadable
        StatusRole,                       // int: TensorDiffEntry::Status
        KeyRole,                          // QString: the matching key
        OptimizerRole,                    // bool: optimizer state, not a model weight
    };

    explicit TensorDiffModel(QObject* parent = nullptr);

    void setDiff(std::vector<TensorDiffEntry> tensors);
    void clear();
    const TensorDiffEntry& entry(int row) const { return m_tensors[std::size_t(row)]; }
    const std::vector<TensorDiffEntry>& tensors() const { return m_tensors; }
    // Rows flagged bad (NaN/Inf on either side).
    int badCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static bool isBad(const TensorDiffEntry& e);
    // "1.23e-03", "0", "—" for NaN, "∞".
    static QString numberText(double value);
    static QString statusText(TensorDiffEntry::Status status);

private:
    std::vector<TensorDiffEntry> m_tensors;
};

} // namespace ckpt
