#include "models/RunTreeModel.h"

#include "models/ModelRoles.h"
#include "report/Format.h"

#include <QDir>
#include <QUrl>

#include <algorithm>

namespace ckpt {

namespace {
// internalId 0 marks a folder; a run carries its folder's row + 1.
constexpr quintptr FolderId = 0;

QString formatBytes(quint64 bytes)
{
    return QString::fromStdString(Format::bytes(double(bytes)));
}
} // namespace

RunTreeModel::RunTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

QString RunTreeModel::displayName(const QString& folder, const QString& root)
{
    // ssh:// roots are not local paths: only their text relates them.
    QString rel = root.startsWith(folder + QLatin1Char('/')) ? root.mid(folder.size() + 1)
                  : root == folder                           ? QStringLiteral(".")
                                                             : QDir(folder).relativeFilePath(root);
    if (rel == QLatin1String("."))
        rel.clear();
    // CANDLE roots end in ckpts/ or save/ckpts/: the run is the folder above.
    QString path = QLatin1Char('/') + rel;
    for (const QString& tail :
         {QStringLiteral("/save/ckpts"), QStringLiteral("/ckpts"), QStringLiteral("/save")})
        if (path.endsWith(tail)) {
            path.chop(tail.size());
            break;
        }
    // A run at (or just below) the folder itself is named after the folder.
    if (path.size() <= 1)
        return QDir(folder).dirName();
    return path.mid(1);
}

int RunTreeModel::folderRow(const QString& folder) const
{
    for (int i = 0; i < static_cast<int>(m_folders.size()); ++i)
        if (m_folders[static_cast<size_t>(i)].path == folder)
            return i;
    return -1;
}

void RunTreeModel::addFolder(const QString& folder)
{
    if (folderRow(folder) >= 0)
        return;
    const int row = static_cast<int>(m_folders.size());
    beginInsertRows({}, row, row);
    m_folders.push_back(Folder{folder, {}, {}, {}, {}});
    endInsertRows();
}

void RunTreeModel::removeFolder(const QString& folder)
{
    const int row = folderRow(folder);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_folders.erase(m_folders.begin() + row);
    endRemoveRows();
}

void RunTreeModel::setFolderRemote(const QString& folder, const QString& host, const QString& stale,
                                   const QString& message)
{
    addFolder(folder);
    const int row = folderRow(folder);
    Folder& f = m_folders[static_cast<size_t>(row)];
    f.host = host;
    f.stale = stale;
    f.message = message;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void RunTreeModel::clear()
{
    beginResetModel();
    m_folders.clear();
    endResetModel();
}

void RunTreeModel::upsertRun(const RunSummary& summary)
{
    addFolder(summary.folder);
    const int fRow = folderRow(summary.folder);
    auto& runs = m_folders[static_cast<size_t>(fRow)].runs;
    auto it =
        std::lower_bound(runs.begin(), runs.end(), summary.root,
                         [](const RunSummary& r, const QString& root) { return r.root < root; });
    const int row = static_cast<int>(it - runs.begin());
    const QModelIndex parentIndex = index(fRow, 0);
    if (it != runs.end() && it->root == summary.root) {
        *it = summary;
        emit dataChanged(index(row, 0, parentIndex), index(row, ColumnCount - 1, parentIndex));
    } else {
        beginInsertRows(parentIndex, row, row);
        runs.insert(it, summary);
        endInsertRows();
    }
    // Folder totals depend on their runs.
    emit dataChanged(index(fRow, 0), index(fRow, ColumnCount - 1));
}

void RunTreeModel::removeRun(const QString& root)
{
    for (int f = 0; f < static_cast<int>(m_folders.size()); ++f) {
        auto& runs = m_folders[static_cast<size_t>(f)].runs;
        for (int r = 0; r < static_cast<int>(runs.size()); ++r) {
            if (runs[static_cast<size_t>(r)].root != root)
                continue;
            beginRemoveRows(index(f, 0), r, r);
            runs.erase(runs.begin() + r);
            endRemoveRows();
            emit dataChanged(index(f, 0), index(f, ColumnCount - 1));
            return;
        }
    }
}

QStringList RunTreeModel::folders() const
{
    QStringList out;
    for (const auto& f : m_folders)
        out << f.path;
    return out;
}

QStringList RunTreeModel::runRoots() const
{
    QStringList out;
    for (const auto& f : m_folders)
        for (const auto& r : f.runs)
            out << r.root;
    return out;
}

const RunSummary* RunTreeModel::summary(const QString& root) const
{
    for (const auto& f : m_folders)
        for (const auto& r : f.runs)
            if (r.root == root)
                return &r;
    return nullptr;
}

QModelIndex RunTreeModel::indexOfRun(const QString& root, int column) const
{
    for (int f = 0; f < static_cast<int>(m_folders.size()); ++f) {
        const auto& runs = m_folders[static_cast<size_t>(f)].runs;
        for (int r = 0; r < static_cast<int>(runs.size()); ++r)
            if (runs[static_cast<size_t>(r)].root == root)
                return index(r, column, index(f, 0));
    }
    return {};
}

QModelIndex RunTreeModel::indexOfFolder(const QString& folder) const
{
    const int row = folderRow(folder);
    return row < 0 ? QModelIndex() : index(row, 0);
}

QModelIndex RunTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_folders.size()) ? createIndex(row, column, FolderId)
                                                        : QModelIndex();
    if (parent.internalId() != FolderId || parent.column() != 0)
        return {};
    const auto& runs = m_folders[static_cast<size_t>(parent.row())].runs;
    if (row >= static_cast<int>(runs.size()))
        return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex RunTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == FolderId)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, FolderId);
}

int RunTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_folders.size());
    if (parent.internalId() != FolderId || parent.column() != 0)
        return 0;
    return static_cast<int>(m_folders[static_cast<size_t>(parent.row())].runs.size());
}

int RunTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

Qt::ItemFlags RunTreeModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

QVariant RunTreeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == FolderId)
        return folderData(m_folders[static_cast<size_t>(index.row())], index.column(), role);
    const auto& folder = m_folders[static_cast<size_t>(index.internalId() - 1)];
    return runData(folder, folder.runs[static_cast<size_t>(index.row())], index.column(), role);
}

QVariant RunTreeModel::folderData(const Folder& folder, int column, int role) const
{
    quint64 bytes = 0;
    int epochs = 0;
    int problems = 0;
    bool live = false;
    ChecksumState checksum = ChecksumState::Unknown;
    bool first = true;
    for (const auto& r : folder.runs) {
        bytes += r.diskBytes;
        epochs += r.epochs;
        problems += r.problems;
        live = live || r.live;
        checksum = first ? r.checksum : combineChecksumStates(checksum, r.checksum);
        first = false;
    }
    switch (role) {
    case Qt::DisplayRole:
        if (column == NameColumn) {
            const QString name =
                QDir(folder.path).dirName().isEmpty() ? folder.path : QDir(folder.path).dirName();
            // A remote folder says where it is, briefly: "cluster:exp" (user
            // and port are in the tooltip).
            const QString host = QUrl(folder.path).host();
            return folder.host.isEmpty()
                       ? name
                       : (host.isEmpty() ? folder.host : host) + QLatin1Char(':') + name;
        }
        if (column == EpochsColumn)
            return QString::fromStdString(
                Format::counted(static_cast<long long>(folder.runs.size()), "run"));
        if (column == DiskColumn)
            return formatBytes(bytes);
        return {};
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1\n%2 runs, %3 epochs, %4")
                          .arg(folder.path)
                          .arg(folder.runs.size())
                          .arg(epochs)
                          .arg(formatBytes(bytes));
        if (!folder.host.isEmpty())
            tip += QStringLiteral("\nremote, on %1: %2").arg(folder.host, folder.message);
        return tip;
    }
    case roles::RemoteHostRole:
        return folder.host;
    case roles::StaleRole:
        return folder.stale;
    case roles::SortRole:
        if (column == DiskColumn)
            return QVariant::fromValue(bytes);
        if (column == EpochsColumn)
            return epochs;
        return folder.path;
    case roles::NodeKindRole:
        return static_cast<int>(NodeKind::Folder);
    case roles::PathRole:
        return folder.path;
    case roles::DiskBytesRole:
        return QVariant::fromValue(bytes);
    case roles::ProblemCountRole:
        return problems;
    case roles::LiveRole:
        return live;
    case roles::ChecksumStateRole:
        return static_cast<int>(checksum);
    default:
        return {};
    }
}

QVariant RunTreeModel::runData(const Folder& folder, const RunSummary& run, int column,
                               int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        if (column == NameColumn)
            return displayName(folder.path, run.root);
        if (column == EpochsColumn)
            return run.epochs;
        if (column == DiskColumn)
            return formatBytes(run.diskBytes);
        return {};
    case Qt::ToolTipRole: {
        QString tip =
            run.root +
            QStringLiteral("\n%1 epochs, %2").arg(run.epochs).arg(formatBytes(run.diskBytes));
        if (run.lastEpoch)
            tip += QStringLiteral("\nlast -> %1").arg(*run.lastEpoch);
        if (run.bestEpoch)
            tip += QStringLiteral("\nbest -> %1").arg(*run.bestEpoch);
        if (run.live)
            tip += QStringLiteral("\nlive: a trainer is writing this run");
        if (run.problems > 0)
            tip += QStringLiteral("\n%1 problem(s)").arg(run.problems);
        if (!run.host.isEmpty())
            tip += QStringLiteral("\nremote, on %1").arg(run.host);
        if (!run.stale.isEmpty())
            tip += QStringLiteral("\nnot current (%1): %2").arg(run.stale, run.staleWhy);
        tip += QStringLiteral("\nchecksums: ") + checksumStateLabel(run.checksum);
        if (run.checksum == ChecksumState::Unknown && run.epochs > 0)
            tip += QStringLiteral(" (some epochs were never checked: Run ▸ Verify Selected Runs, "
                                  "Ctrl+R)");
        return tip;
    }
    case Qt::TextAlignmentRole:
        if (column != NameColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case roles::SortRole:
        if (column == DiskColumn)
            return QVariant::fromValue(run.diskBytes);
        if (column == EpochsColumn)
            return run.epochs;
        return run.root;
    case roles::NodeKindRole:
        return static_cast<int>(NodeKind::Run);
    case roles::RunRootRole:
    case roles::PathRole:
        return run.root;
    case roles::DiskBytesRole:
        return QVariant::fromValue(run.diskBytes);
    case roles::ProblemCountRole:
        return run.problems;
    case roles::LiveRole:
        return run.live;
    case roles::RemoteHostRole:
        return run.host;
    case roles::StaleRole:
        return run.stale;
    case roles::ChecksumStateRole:
        return static_cast<int>(run.checksum);
    default:
        return {};
    }
}

QVariant RunTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return QStringLiteral("Run");
    case EpochsColumn:
        return QStringLiteral("Epochs");
    case DiskColumn:
        return QStringLiteral("Disk");
    default:
        return {};
    }
}

} // namespace ckpt
