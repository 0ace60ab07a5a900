#include "models/LayerRankingModel.h"

#include "models/TensorDiffModel.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace ckpt {

LayerRankingModel::LayerRankingModel(QObject* parent) : QAbstractTableModel(parent) {}

void LayerRankingModel::setLayers(std::vector<LayerDiff> layers)
{
    beginResetModel();
    m_layers = std::move(layers);
    endResetModel();
}

void LayerRankingModel::clear()
{
    setLayers({});
}

int LayerRankingModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_layers.size());
}

int LayerRankingModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LayerRankingModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LayerDiff& l = m_layers[std::size_t(index.row())];
    const auto nanLow = [](double v) {
        return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v;
    };
    switch (role) {
    case BadRole:
        return l.nonFiniteAppeared;
    case BarValueRole:
        return index.column() == RelChangeColumn && l.elements > 0 ? QVariant(l.relChange)
                                                                   : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == LayerColumn ? QVariant()
                                             : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return tr("%1 tensors: %2 changed, %3 same, %4 only in A, %5 only in B, %6 mismatched")
                   .arg(l.tensors)
                   .arg(l.changed)
                   .arg(l.same)
                   .arg(l.onlyA)
                   .arg(l.onlyB)
                   .arg(l.mismatched) +
               (l.unreadable > 0 ? tr(", %1 unreadable").arg(l.unreadable) : QString());
    case SortRole:
        switch (index.column()) {
        case RankColumn:
            return index.row() + 1;
        case RelChangeColumn:
            return nanLow(l.relChange);
        case L2DiffColumn:
            return nanLow(l.l2Diff);
        case CosineColumn:
            return nanLow(l.cosine);
        case TensorsColumn:
            return qulonglong(l.tensors);
        case ElementsColumn:
            return qulonglong(l.elements);
        default:
            return QString::fromStdString(l.name);
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case RankColumn:
            return index.row() + 1;
        case LayerColumn:
            return QString::fromStdString(l.name);
        case RelChangeColumn:
            return l.elements > 0 ? TensorDiffModel::numberText(l.relChange)
                                  : TensorDiffModel::numberText(std::nan(""));
        case L2DiffColumn:
            // A layer on one side only has nothing compared: no distance either.
            return TensorDiffModel::numberText(l.elements > 0 ? l.l2Diff : std::nan(""));
        case CosineColumn:
            return std::isnan(l.cosine) ? TensorDiffModel::numberText(l.cosine)
                                        : QString::number(l.cosine, 'f', 6);
        case TensorsColumn:
            return tr("%1 of %2 changed").arg(l.changed).arg(l.tensors);
        case ElementsColumn:
            return QLocale::c().toString(qulonglong(l.elements));
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant LayerRankingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RankColumn:
        return tr("#");
    case LayerColumn:
        return tr("Layer");
    case RelChangeColumn:
        return tr("Rel. change");
    case L2DiffColumn:
        return tr("L2 diff");
    case CosineColumn:
        return tr("Cosine");
    case TensorsColumn:
        return tr("Tensors");
    case ElementsColumn:
        return tr("Elements");
    default:
        return {};
    }
}

} // namespace ckpt
