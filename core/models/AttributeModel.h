#pragma once

#include "hdf5/H5Tree.h"

#include <QAbstractTableModel>

#include <vector>

namespace ckpt {

// The attributes of one HDF5 object: name, type and value. A string that holds
// a JSON object or array (Keras's model_config, training_config) is
// pretty-printed in FullTextRole; the table cell shows its first line.
class AttributeModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        TypeColumn,
        ValueColumn,
        ColumnCount
    };
    enum Role
    {
        FullTextRole = Qt::UserRole + 40, // QString: the whole value, JSON indented
        IsJsonRole,                       // bool
    };

    explicit AttributeModel(QObject* parent = nullptr);

    void setAttributes(std::vector<H5Attribute> attributes);
    const std::vector<H5Attribute>& attributes() const { return m_attributes; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // The value as text: strings joined by newlines, numbers as [a, b, ...]; a
    // JSON object/array string indented by 2 (`isJson` set).
    static QString valueText(const H5Attribute& attribute, bool* isJson = nullptr);
    static QString typeText(const H5Attribute& attribute);

private:
    struct Row
    {
        QString full;
        QString cell;
        bool json = false;
    };
    std::vector<H5Attribute> m_attributes;
    std::vector<Row> m_rows;
};

} // namespace ckpt
