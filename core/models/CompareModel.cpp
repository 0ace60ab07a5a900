#include "models/CompareModel.h"

#include "config/ParamSet.h"
#include "json/LenientJson.h"
#include "launch/RunConfigFinder.h"
#include "layout/Layout.h"
#include "models/ModelRoles.h"
#include "report/Format.h"

#include <cmath>
#include <map>
#include <set>

namespace ckpt {

std::optional<CompareSide> CompareSide::of(const QString& runName, const Run& run,
                                           const MetricHistory* history, int number)
{
    const Epoch* epoch = run.findEpoch(number);
    if (!epoch)
        return std::nullopt;
    CompareSide side{runName, *epoch, {}, std::nullopt, {}};
    if (const Layout* layout = layoutOf(run))
        side.recordName =
            QString::fromUtf8(layout->recordName().data(), qsizetype(layout->recordName().size()));
    if (history)
        for (const HistoryRow* row : history->latestPerEpoch())
            if (row->epoch == number)
                side.history = *row;
    const LaunchRegistry registry;
    if (auto config = RunConfigFinder::configFor(run.root, registry))
        if (auto set = ParamSet::readFile(*config))
            for (const ParamSet::Param& p : set->params())
                side.params.emplace_back(
                    QString::fromStdString(p.section.empty() ? p.key : p.section + "." + p.key),
                    QString::fromStdString(p.value.pythonLiteral()));
    return side;
}

namespace {
QString formatNumber(double v)
{
    return QString::fromStdString(Format::number(v));
}

// Fields of one side, by name, in a stable order shared by both sides.
using Fields = std::vector<std::pair<QString, QString>>;

Fields checkpointFields(const CompareSide& side)
{
    Fields f;
    f.emplace_back(QStringLiteral("run"), side.runName);
    f.emplace_back(QStringLiteral("epoch directory"), QString::fromStdString(side.epoch.dir));
    f.emplace_back(QStringLiteral("model size"),
                   side.epoch.modelBytes()
                       ? QString::fromStdString(Format::bytes(double(*side.epoch.modelBytes())))
                       : QStringLiteral("no model file"));
    f.emplace_back(QStringLiteral("problems"), QString::number(side.epoch.problems.size()));
    return f;
}

Fields infoFields(const CompareSide& side)
{
    Fields f;
    // The record holds every key as written, in file order, values as JSON text.
    for (const auto& [key, json] : side.epoch.metadata) {
        auto parsed = LenientJson::parse(json, {});
        if (!parsed) {
            f.emplace_back(QString::fromStdString(std::string(key)),
                           QString::fromStdString(std::string(json)));
            continue;
        }
        const auto& value = *parsed;
        QString text;
        if (value.is_string())
            text = QString::fromStdString(value.get<std::string>());
        else if (value.is_number_float())
            text = formatNumber(value.get<double>());
        else if (value.is_null())
            text = QStringLiteral("null");
        else
            text = QString::fromStdString(value.dump());
        f.emplace_back(QString::fromStdString(std::string(key)), text);
    }
    return f;
}

Fields metricFields(const CompareSide& side)
{
    Fields f;
    if (!side.history)
        return f;
    std::set<std::string> names;
    for (const auto& s : side.history->samples)
        names.insert(s.metric);
    for (const auto& name : names)
        if (auto v = side.history->value(name))
            f.emplace_back(QString::fromStdString(name), formatNumber(*v));
    return f;
}
} // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setSides(const CompareSide& left, const CompareSide& right)
{
    beginResetModel();
    m_rows.clear();
    m_leftTitle = QStringLiteral("%1 @ epoch %2").arg(left.runName).arg(left.epoch.number);
    m_rightTitle = QStringLiteral("%1 @ epoch %2").arg(right.runName).arg(right.epoch.number);
    const auto addSection = [this](const QString& section, const Fields& a, const Fields& b) {
        // Left's order first, then right's extra fields.
        std::vector<QString> order;
        std::map<QString, QString> av(a.begin(), a.end());
        std::map<QString, QString> bv(b.begin(), b.end());
        std::set<QString> seen;
        for (const auto& [k, v] : a)
            if (seen.insert(k).second)
                order.push_back(k);
        for (const auto& [k, v] : b)
            if (seen.insert(k).second)
                order.push_back(k);
        for (const auto& k : order) {
            Row row{k, section, std::nullopt, std::nullopt};
            if (auto it = av.find(k); it != av.end())
                row.left = it->second;
            if (auto it = bv.find(k); it != bv.end())
                row.right = it->second;
            m_rows.push_back(std::move(row));
        }
    };
    addSection(QStringLiteral("checkpoint"), checkpointFields(left), checkpointFields(right));
    const QString record = !left.recordName.isEmpty()    ? left.recordName
                           : !right.recordName.isEmpty() ? right.recordName
                                                         : QStringLiteral("record");
    addSection(record, infoFields(left), infoFields(right));
    addSection(QStringLiteral("metrics"), metricFields(left), metricFields(right));
    addSection(QStringLiteral("parameters"), left.params, right.params);
    endResetModel();
}

void CompareModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_leftTitle.clear();
    m_rightTitle.clear();
    endResetModel();
}

int CompareModel::differenceCount() const
{
    int n = 0;
    for (const auto& r : m_rows)
        n += r.different() ? 1 : 0;
    return n;
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& row = m_rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case FieldColumn:
            return row.field;
        case LeftColumn:
            return row.left.value_or(QStringLiteral("—"));
        case RightColumn:
            return row.right.value_or(QStringLiteral("—"));
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return QStringLiteral("%1 (%2)").arg(row.field, row.section);
    case roles::DifferentRole:
        return row.different();
    case roles::SortRole:
        return data(index, Qt::DisplayRole);
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section >= 0 && section < static_cast<int>(m_rows.size())
                   ? m_rows[static_cast<size_t>(section)].section
                   : QVariant();
    switch (section) {
    case FieldColumn:
        return QStringLiteral("Field");
    case LeftColumn:
        return m_leftTitle.isEmpty() ? QStringLiteral("A") : m_leftTitle;
    case RightColumn:
        return m_rightTitle.isEmpty() ? QStringLiteral("B") : m_rightTitle;
    default:
        return {};
    }
}

} // namespace ckpt
