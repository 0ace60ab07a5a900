#pragma once

#include <QSortFilterProxyModel>

namespace ckpt {

// Shows the TensorDiffModel rows whose status is in the chosen set (model
// weights only unless setShowOptimizer) and sorts by TensorDiffModel::SortRole.
class TensorDiffFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    enum Filter
    {
        Changed = 0x1,
        Same = 0x2,
        OnlyA = 0x4,
        OnlyB = 0x8,
        Mismatch = 0x10, // shape, dtype, or not numeric
        All = 0x1f
    };

    explicit TensorDiffFilterModel(QObject* parent = nullptr);

    int filters() const { return m_filters; }
    void setFilters(int filters);
    void setFilterEnabled(Filter filter, bool on);
    static Filter filterOf(int status);
    // Optimizer state and step counters (TensorDiff::isOptimizerKey) crowd out
    // the model's layers: hidden unless asked for.
    bool showsOptimizer() const { return m_showOptimizer; }
    void setShowOptimizer(bool on);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    int m_filters = All;
    bool m_showOptimizer = false;
};

} // namespace ckpt
