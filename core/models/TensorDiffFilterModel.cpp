#include "models/TensorDiffFilterModel.h"

#include "hdf5/TensorDiff.h"
#include "models/TensorDiffModel.h"

namespace ckpt {

TensorDiffFilterModel::TensorDiffFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(TensorDiffModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void TensorDiffFilterModel::setFilters(int filters)
{
    if (filters == m_filters)
        return;
    m_filters = filters;
    invalidateFilter();
}

void TensorDiffFilterModel::setFilterEnabled(Filter filter, bool on)
{
    setFilters(on ? (m_filters | filter) : (m_filters & ~filter));
}

void TensorDiffFilterModel::setShowOptimizer(bool on)
{
    if (on == m_showOptimizer)
        return;
    m_showOptimizer = on;
    invalidateFilter();
}

TensorDiffFilterModel::Filter TensorDiffFilterModel::filterOf(int status)
{
    switch (TensorDiffEntry::Status(status)) {
    case TensorDiffEntry::Status::Changed:
        return Changed;
    case TensorDiffEntry::Status::Same:
        return Same;
    case TensorDiffEntry::Status::OnlyA:
        return OnlyA;
    case TensorDiffEntry::Status::OnlyB:
        return OnlyB;
    case TensorDiffEntry::Status::ShapeMismatch:
    case TensorDiffEntry::Status::DtypeMismatch:
    case TensorDiffEntry::Status::NotNumeric:
    case TensorDiffEntry::Status::Unreadable:
        break;
    }
    return Mismatch;
}

bool TensorDiffFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const int status = index.data(TensorDiffModel::StatusRole).toInt();
    if ((m_filters & filterOf(status)) == 0)
        return false;
    return m_showOptimizer || !index.data(TensorDiffModel::OptimizerRole).toBool();
}

} // namespace ckpt
