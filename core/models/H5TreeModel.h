#pragma once

#include "hdf5/H5Tree.h"

#include <QAbstractItemModel>

#include <unordered_map>

namespace ckpt {

// The object tree of an HDF5 file: the root "/" on top, groups and datasets
// below in the file's name order. Datasets show shape, dtype, logical bytes and
// their storage (chunking and filters).
class H5TreeModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        ShapeColumn,
        DTypeColumn,
        BytesColumn,
        StorageColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole + 1,  // bytes as qulonglong in BytesColumn, else text
        PathRole = Qt::UserRole + 40, // QString: absolute object path
        IsDatasetRole,                // bool
        NumericRole,                  // bool: a numeric dataset (has statistics)
    };

    explicit H5TreeModel(QObject* parent = nullptr);

    void setRoot(H5Node root);
    void clear();
    const H5Node* node(const QModelIndex& index) const;
    // The index of the object at `path` (column 0), invalid when absent.
    QModelIndex indexOfPath(const QString& path) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString shapeText(const std::vector<std::uint64_t>& shape);
    static QString bytesText(std::uint64_t bytes);
    static QString storageText(const H5DatasetInfo& info);

private:
    void indexParents(const H5Node& node);

    H5Node m_root;
    bool m_hasRoot = false;
    std::unordered_map<const H5Node*, const H5Node*> m_parent;
};

} // namespace ckpt
