#include "models/AttributeModel.h"

#include "json/LenientJson.h"
#include "models/H5TreeModel.h"

#include <QStringList>

#include <nlohmann/json.hpp>

namespace ckpt {

namespace {

constexpr int kCellChars = 200;

QString number(double v)
{
    return QString::number(v, 'g', 17);
}

} // namespace

AttributeModel::AttributeModel(QObject* parent) : QAbstractTableModel(parent) {}

void AttributeModel::setAttributes(std::vector<H5Attribute> attributes)
{
    beginResetModel();
    m_attributes = std::move(attributes);
    m_rows.clear();
    for (const H5Attribute& a : m_attributes) {
        Row row;
        row.full = valueText(a, &row.json);
        // JSON cells show the compact first part; the full text is for the viewer.
        QString cell = row.full;
        if (row.json) {
            cell = QString::fromStdString(a.strings.front()).simplified();
        }
        cell.replace(QLatin1Char('\n'), QStringLiteral(" \u21b5 "));
        if (cell.size() > kCellChars)
            cell = cell.left(kCellChars) + QStringLiteral("\u2026");
        row.cell = cell;
        m_rows.push_back(std::move(row));
    }
    endResetModel();
}

QString AttributeModel::valueText(const H5Attribute& a, bool* isJson)
{
    if (isJson)
        *isJson = false;
    if (a.isString()) {
        if (a.strings.size() == 1) {
            const std::string& s = a.strings.front();
            const auto first = s.find_first_not_of(" \t\r\n");
            if (first != std::string::npos && (s[first] == '{' || s[first] == '[') &&
                LenientJson::withinMaxDepth(s)) {
                auto parsed = nlohmann::json::parse(s, nullptr, false);
                if (!parsed.is_discarded() && (parsed.is_object() || parsed.is_array())) {
                    if (isJson)
                        *isJson = true;
                    return QString::fromStdString(parsed.dump(2));
                }
            }
            return QString::fromStdString(s);
        }
        QStringList parts;
        for (const std::string& s : a.strings)
            parts << QString::fromStdString(s);
        return parts.join(QLatin1Char('\n'));
    }
    if (a.shape.empty() && a.numbers.size() == 1)
        return number(a.numbers.front());
    QStringList parts;
    for (double v : a.numbers)
        parts << number(v);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString AttributeModel::typeText(const H5Attribute& a)
{
    const QString type = QString::fromStdString(a.dtype.name);
    return a.shape.empty() ? type : type + QLatin1Char(' ') + H5TreeModel::shapeText(a.shape);
}

int AttributeModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_attributes.size());
}

int AttributeModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AttributeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const H5Attribute& a = m_attributes[std::size_t(index.row())];
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case FullTextRole:
        return row.full;
    case IsJsonRole:
        return row.json;
    case Qt::ToolTipRole:
        return index.column() == ValueColumn && !row.json ? row.full.left(2000) : QVariant();
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(a.name);
        case TypeColumn:
            return row.json ? typeText(a) + QStringLiteral(" (JSON)") : typeText(a);
        case ValueColumn:
            return row.cell;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant AttributeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case TypeColumn:
        return tr("Type");
    case ValueColumn:
        return tr("Value");
    default:
        return {};
    }
}

} // namespace ckpt
