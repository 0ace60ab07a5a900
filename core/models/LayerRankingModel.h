#pragma once

#include "hdf5/TensorDiff.h"

#include <QAbstractTableModel>

#include <vector>

namespace ckpt {

// The layers of a ModelDiff, ranked by relative change (most moved first), as
// TensorDiff orders them. Roles as in TensorDiffModel.
class LayerRankingModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        RankColumn,
        LayerColumn,
        RelChangeColumn,
        L2DiffColumn,
        CosineColumn,
        TensorsColumn,
        ElementsColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole + 1,
        BarValueRole = Qt::UserRole + 40, // double: relative change (RelChangeColumn only)
        BadRole,                          // bool: NaN/Inf appeared in B
    };

    explicit LayerRankingModel(QObject* parent = nullptr);

    void setLayers(std::vector<LayerDiff> layers);
    void clear();
    const LayerDiff& layer(int row) const { return m_layers[std::size_t(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<LayerDiff> m_layers;
};

} // namespace ckpt
