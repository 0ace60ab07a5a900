#include "models/ProblemsModel.h"

#include "models/ModelRoles.h"

#include <QDir>

namespace ckpt {

namespace {
QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
} // namespace

ProblemsModel::ProblemsModel(QObject* parent) : QAbstractTableModel(parent) {}

std::pair<int, int> ProblemsModel::rangeOf(const QString& root) const
{
    int first = -1;
    int end = -1;
    for (int i = 0; i < static_cast<int>(m_entries.size()); ++i) {
        if (m_entries[static_cast<size_t>(i)].root == root) {
            if (first < 0)
                first = i;
            end = i + 1;
        }
    }
    return {first, end};
}

void ProblemsModel::setProblems(const QString& root, const QString& runName,
                                const Problems& problems)
{
    auto [first, end] = rangeOf(root);
    if (first < 0)
        first = end = static_cast<int>(m_entries.size());
    const int oldCount = end - first;
    const int newCount = static_cast<int>(problems.size());
    std::vector<Entry> fresh;
    fresh.reserve(problems.size());
    for (const auto& p : problems)
        fresh.push_back(Entry{root, runName, p, m_repairable && m_repairable(p)});
    // Keep row identity where possible: change the overlap, then insert or remove the rest.
    const int common = std::min(oldCount, newCount);
    for (int i = 0; i < common; ++i)
        m_entries[static_cast<size_t>(first + i)] = fresh[static_cast<size_t>(i)];
    if (common > 0)
        emit dataChanged(index(first, 0), index(first + common - 1, ColumnCount - 1));
    if (newCount > oldCount) {
        beginInsertRows({}, first + common, first + newCount - 1);
        m_entries.insert(m_entries.begin() + first + common, fresh.begin() + common, fresh.end());
        endInsertRows();
    } else if (newCount < oldCount) {
        beginRemoveRows({}, first + common, first + oldCount - 1);
        m_entries.erase(m_entries.begin() + first + common, m_entries.begin() + first + oldCount);
        endRemoveRows();
    }
}

void ProblemsModel::removeRun(const QString& root)
{
    setProblems(root, {}, {});
}

void ProblemsModel::clear()
{
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

const Problem* ProblemsModel::problemAt(int row) const
{
    return row >= 0 && row < static_cast<int>(m_entries.size())
               ? &m_entries[static_cast<size_t>(row)].problem
               : nullptr;
}

QString ProblemsModel::rootAt(int row) const
{
    return row >= 0 && row < static_cast<int>(m_entries.size())
               ? m_entries[static_cast<size_t>(row)].root
               : QString();
}

int ProblemsModel::problemCount(const QString& root) const
{
    auto [first, end] = rangeOf(root);
    return first < 0 ? 0 : end - first;
}

int ProblemsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int ProblemsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& e = m_entries[static_cast<size_t>(index.row())];
    const QString path = QString::fromStdString(e.problem.path);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KindColumn:
            return text(plainName(e.problem.kind));
        case RunColumn:
            return e.runName;
        case EpochColumn:
            return e.problem.epoch ? QVariant(*e.problem.epoch) : QVariant();
        case FileColumn:
            // A run sharing its folder is named <folder>/<prefix>: "net_1-3_10.ckpt" is no child.
            return path == e.root || path.startsWith(e.root + QLatin1Char('/'))
                       ? QDir(e.root).relativeFilePath(path)
                       : path;
        case MessageColumn:
            return QString::fromStdString(e.problem.message);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == RunColumn)
            return e.root; // the sidebar's name can be ambiguous across folders
        if (index.column() == KindColumn)
            return QStringLiteral("%1 (%2)").arg(text(plainName(e.problem.kind)),
                                                 text(toString(e.problem.kind)));
        return QString::fromStdString(e.problem.message) + QLatin1Char('\n') + path;
    case roles::SortRole:
        if (index.column() == EpochColumn)
            return e.problem.epoch ? QVariant(*e.problem.epoch) : QVariant();
        if (index.column() == KindColumn) // errors before notes, then by name
            return QString(QLatin1Char(isWarningOnly(e.problem.kind) ? '1' : '0') +
                           data(index, Qt::DisplayRole).toString());
        return data(index, Qt::DisplayRole);
    case roles::RunRootRole:
        return e.root;
    case roles::EpochRole:
        return e.problem.epoch ? QVariant(*e.problem.epoch) : QVariant();
    case roles::ProblemKindRole:
        return text(toString(e.problem.kind));
    case roles::RepairableRole:
        return e.repairable;
    case roles::PathRole:
        return path;
    default:
        return {};
    }
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case KindColumn:
        return QStringLiteral("Problem");
    case RunColumn:
        return QStringLiteral("Run");
    case EpochColumn:
        return QStringLiteral("Epoch");
    case FileColumn:
        return QStringLiteral("File");
    case MessageColumn:
        return QStringLiteral("Details");
    default:
        return {};
    }
}

} // namespace ckpt
