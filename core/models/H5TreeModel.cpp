#include "models/H5TreeModel.h"

#include "report/Format.h"

#include <QStringList>

namespace ckpt {

H5TreeModel::H5TreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void H5TreeModel::setRoot(H5Node root)
{
    beginResetModel();
    m_root = std::move(root);
    m_hasRoot = true;
    m_parent.clear();
    indexParents(m_root);
    endResetModel();
}

void H5TreeModel::clear()
{
    beginResetModel();
    m_root = H5Node{};
    m_hasRoot = false;
    m_parent.clear();
    endResetModel();
}

void H5TreeModel::indexParents(const H5Node& node)
{
    for (const H5Node& child : node.children) {
        m_parent.emplace(&child, &node);
        indexParents(child);
    }
}

const H5Node* H5TreeModel::node(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<const H5Node*>(index.internalPointer()) : nullptr;
}

QModelIndex H5TreeModel::indexOfPath(const QString& path) const
{
    if (!m_hasRoot)
        return {};
    const H5Node* target = m_root.find(path.toStdString());
    if (!target)
        return {};
    if (target == &m_root)
        return createIndex(0, 0, const_cast<H5Node*>(&m_root));
    const H5Node* parent = m_parent.at(target);
    return createIndex(int(target - parent->children.data()), 0, const_cast<H5Node*>(target));
}

QModelIndex H5TreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, const_cast<H5Node*>(&m_root));
    const H5Node* p = node(parent);
    return createIndex(row, column, const_cast<H5Node*>(&p->children[std::size_t(row)]));
}

QModelIndex H5TreeModel::parent(const QModelIndex& child) const
{
    const H5Node* n = node(child);
    if (!n || n == &m_root)
        return {};
    const H5Node* p = m_parent.at(n);
    if (p == &m_root)
        return createIndex(0, 0, const_cast<H5Node*>(&m_root));
    const H5Node* grand = m_parent.at(p);
    return createIndex(int(p - grand->children.data()), 0, const_cast<H5Node*>(p));
}

int H5TreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return m_hasRoot ? 1 : 0;
    if (parent.column() != 0)
        return 0;
    return int(node(parent)->children.size());
}

int H5TreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QString H5TreeModel::shapeText(const std::vector<std::uint64_t>& shape)
{
    if (shape.empty())
        return QStringLiteral("scalar");
    QStringList dims;
    for (std::uint64_t d : shape)
        dims << QString::number(d);
    return QLatin1Char('(') + dims.join(QStringLiteral(", ")) +
           (shape.size() == 1 ? QStringLiteral(",)") : QStringLiteral(")"));
}

QString H5TreeModel::bytesText(std::uint64_t bytes)
{
    return QString::fromStdString(Format::bytes(double(bytes)));
}

QString H5TreeModel::storageText(const H5DatasetInfo& info)
{
    QStringList parts;
    if (!info.layout.empty())
        parts << QString::fromStdString(info.layout);
    if (!info.chunk.empty())
        parts << tr("chunks %1").arg(shapeText(info.chunk));
    for (const std::string& f : info.filters)
        parts << QString::fromStdString(f);
    if (!info.unread.empty())
        parts << tr("not read: %1").arg(QString::fromStdString(info.unread));
    return parts.join(QStringLiteral(", "));
}

QVariant H5TreeModel::data(const QModelIndex& index, int role) const
{
    const H5Node* n = node(index);
    if (!n)
        return {};
    const H5DatasetInfo* ds = n->dataset ? &*n->dataset : nullptr;
    switch (role) {
    case PathRole:
        return QString::fromStdString(n->path);
    case IsDatasetRole:
        return n->kind == H5Node::Kind::Dataset;
    case NumericRole:
        return ds && ds->dtype.numeric();
    case Qt::ToolTipRole:
        if (index.column() == StorageColumn && ds)
            return storageText(*ds); // whole, where the column elides it
        return n->linkTo.empty()
                   ? QString::fromStdString(n->path)
                   : tr("%1 (hard link to %2)")
                         .arg(QString::fromStdString(n->path), QString::fromStdString(n->linkTo));
    case Qt::TextAlignmentRole:
        if (index.column() == BytesColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case SortRole:
        if (index.column() == BytesColumn)
            return ds ? qulonglong(ds->bytes) : qulonglong(0);
        return data(index, Qt::DisplayRole);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case NameColumn:
        if (!n->linkTo.empty())
            return QString::fromStdString(n->name) + QStringLiteral(" \u2192 ") +
                   QString::fromStdString(n->linkTo);
        if (n->kind == H5Node::Kind::Group && n != &m_root)
            return QString::fromStdString(n->name) + QLatin1Char('/');
        return QString::fromStdString(n->name);
    case ShapeColumn:
        return ds ? shapeText(ds->shape) : QVariant();
    case DTypeColumn:
        return ds ? QString::fromStdString(ds->dtype.name) : QVariant();
    case BytesColumn:
        return ds ? bytesText(ds->bytes) : QVariant();
    case StorageColumn:
        return ds ? storageText(*ds) : QVariant();
    default:
        return {};
    }
}

QVariant H5TreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case ShapeColumn:
        return tr("Shape");
    case DTypeColumn:
        return tr("Type");
    case BytesColumn:
        return tr("Size");
    case StorageColumn:
        return tr("Storage");
    default:
        return {};
    }
}

} // namespace ckpt
