#include "models/TensorDiffModel.h"

#include "models/H5TreeModel.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ckpt {

namespace {

// NaN (not compared) sorts below everything.
double sortable(double v)
{
    return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v;
}

QString nonFiniteText(std::uint64_t nan, std::uint64_t inf)
{
    if (nan == 0 && inf == 0)
        return QString();
    QStringList parts;
    if (nan)
        parts << QStringLiteral("%1 NaN").arg(nan);
    if (inf)
        parts << QStringLiteral("%1 Inf").arg(inf);
    return parts.join(QStringLiteral(", "));
}

} // namespace

TensorDiffModel::TensorDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void TensorDiffModel::setDiff(std::vector<TensorDiffEntry> tensors)
{
    beginResetModel();
    m_tensors = std::move(tensors);
    endResetModel();
}

void TensorDiffModel::clear()
{
    setDiff({});
}

bool TensorDiffModel::isBad(const TensorDiffEntry& e)
{
    return e.nanA || e.nanB || e.infA || e.infB || e.nonFiniteAppeared;
}

int TensorDiffModel::badCount() const
{
    return int(std::count_if(m_tensors.begin(), m_tensors.end(), isBad));
}

QString TensorDiffModel::numberText(double v)
{
    if (std::isnan(v))
        return QStringLiteral("\u2014");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("\u221e") : QStringLiteral("-\u221e");
    if (v == 0.0)
        return QStringLiteral("0");
    const double a = std::abs(v);
    if (a >= 1e-3 && a < 1e4)
        return QString::number(v, 'g', 4);
    return QString::number(v, 'e', 2);
}

QString TensorDiffModel::statusText(TensorDiffEntry::Status status)
{
    switch (status) {
    case TensorDiffEntry::Status::Same:
        return tr("same");
    case TensorDiffEntry::Status::Changed:
        return tr("changed");
    case TensorDiffEntry::Status::OnlyA:
        return tr("only in A");
    case TensorDiffEntry::Status::OnlyB:
        return tr("only in B");
    case TensorDiffEntry::Status::ShapeMismatch:
        return tr("shape mismatch");
    case TensorDiffEntry::Status::DtypeMismatch:
        return tr("dtype mismatch");
    case TensorDiffEntry::Status::NotNumeric:
        return tr("not numeric");
    case TensorDiffEntry::Status::Unreadable:
        return tr("unreadable");
    }
    return {};
}

int TensorDiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_tensors.size());
}

int TensorDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TensorDiffModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TensorDiffEntry& e = m_tensors[std::size_t(index.row())];
    const bool onlyB = e.status == TensorDiffEntry::Status::OnlyB;
    const auto& shape = onlyB ? e.shapeB : e.shapeA;
    const DType& dtype = onlyB ? e.dtypeB : e.dtypeA;
    switch (role) {
    case BadRole:
        return isBad(e) || e.status == TensorDiffEntry::Status::Unreadable;
    case StatusRole:
        return int(e.status);
    case OptimizerRole:
        return e.optimizerState;
    case KeyRole:
        return QString::fromStdString(e.key);
    case BarValueRole:
        return index.column() == RelChangeColumn && e.compared ? QVariant(e.relChange) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() >= L2DiffColumn && index.column() <= CosineColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    case Qt::ToolTipRole:
        if (e.status == TensorDiffEntry::Status::Unreadable)
            return QString::fromStdString(e.error);
        if (index.column() == PathColumn)
            return QStringLiteral("A: %1\nB: %2")
                .arg(QString::fromStdString(e.pathA.empty() ? "-" : e.pathA),
                     QString::fromStdString(e.pathB.empty() ? "-" : e.pathB));
        if (index.column() == ShapeColumn && e.shapeA != e.shapeB)
            return tr("A %1, B %2")
                .arg(H5TreeModel::shapeText(e.shapeA), H5TreeModel::shapeText(e.shapeB));
        return {};
    case SortRole:
        switch (index.column()) {
        case L2DiffColumn:
            return sortable(e.l2Diff);
        case RelChangeColumn:
            return sortable(e.relChange);
        case MaxAbsDiffColumn:
            return sortable(e.maxAbsDiff);
        case CosineColumn:
            return sortable(e.cosine);
        case NonFiniteAColumn:
            return double(e.nanA + e.infA);
        case NonFiniteBColumn:
            return double(e.nanB + e.infB);
        case ShapeColumn: {
            double n = 1;
            for (auto d : shape)
                n *= double(d);
            return n;
        }
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case PathColumn:
        return QString::fromStdString(e.key);
    case LayerColumn:
        return QString::fromStdString(e.layer);
    case ShapeColumn:
        if (e.status == TensorDiffEntry::Status::ShapeMismatch)
            return H5TreeModel::shapeText(e.shapeA) + QStringLiteral(" \u2260 ") +
                   H5TreeModel::shapeText(e.shapeB);
        return H5TreeModel::shapeText(shape);
    case DTypeColumn:
        if (e.status == TensorDiffEntry::Status::DtypeMismatch)
            return QString::fromStdString(e.dtypeA.name + " \u2260 " + e.dtypeB.name);
        return QString::fromStdString(dtype.name);
    case StatusColumn:
        return statusText(e.status);
    case L2DiffColumn:
        return numberText(e.l2Diff);
    case RelChangeColumn:
        return numberText(e.relChange);
    case MaxAbsDiffColumn:
        return numberText(e.maxAbsDiff);
    case CosineColumn:
        return std::isnan(e.cosine) ? numberText(e.cosine) : QString::number(e.cosine, 'f', 6);
    case NonFiniteAColumn:
        return nonFiniteText(e.nanA, e.infA);
    case NonFiniteBColumn:
        return nonFiniteText(e.nanB, e.infB);
    default:
        return {};
    }
}

QVariant TensorDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case L2DiffColumn:
            return tr("||A - B||, over the finite pairs");
        case RelChangeColumn:
            return tr("||A - B|| / ||A||");
        case CosineColumn:
            return tr("A\u00b7B / (||A|| ||B||): 1 means same direction");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PathColumn:
        return tr("Tensor");
    case LayerColumn:
        return tr("Layer");
    case ShapeColumn:
        return tr("Shape");
    case DTypeColumn:
        return tr("Type");
    case StatusColumn:
        return tr("Status");
    case L2DiffColumn:
        return tr("L2 diff");
    case RelChangeColumn:
        return tr("Rel. change");
    case MaxAbsDiffColumn:
        return tr("Max |diff|");
    case CosineColumn:
        return tr("Cosine");
    case NonFiniteAColumn:
        return tr("NaN/Inf A");
    case NonFiniteBColumn:
        return tr("NaN/Inf B");
    default:
        return {};
    }
}

} // namespace ckpt
