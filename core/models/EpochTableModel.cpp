#include "models/EpochTableModel.h"

#include "checksum/Verifier.h"
#include "models/ModelRoles.h"
#include "report/Format.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ckpt {

namespace {
// Columns before the metric columns, and after them. Badges come early so
// they stay in view however many metrics a run has.
constexpr EpochTableModel::ColumnKind Leading[] = {
    EpochTableModel::ColumnKind::Run,          EpochTableModel::ColumnKind::Epoch,
    EpochTableModel::ColumnKind::Links,        EpochTableModel::ColumnKind::SavedAt,
    EpochTableModel::ColumnKind::TimePerEpoch, EpochTableModel::ColumnKind::Monitored,
    EpochTableModel::ColumnKind::BestSoFar,    EpochTableModel::ColumnKind::Checksum,
    EpochTableModel::ColumnKind::Size};
constexpr EpochTableModel::ColumnKind Trailing[] = {EpochTableModel::ColumnKind::ProblemList};
constexpr int LeadingCount = static_cast<int>(std::size(Leading));
constexpr int TrailingCount = static_cast<int>(std::size(Trailing));

// ckpt-info derived samples have their own columns.
bool isOwnColumn(const std::string& metric)
{
    return metric == "best_so_far" || metric == "time_elapsed" || metric == "model_mb";
}

QString formatNumber(double v)
{
    return QString::fromStdString(Format::number(v));
}
} // namespace

EpochTableModel::EpochTableModel(QObject* parent) : QAbstractTableModel(parent) {}

EpochTableModel::Row EpochTableModel::makeRow(const Run& run, const Epoch& epoch)
{
    Row row;
    row.epoch = epoch.number;
    row.bytes = epoch.modelBytes();
    row.hasModel = epoch.hasModel();
    row.savedAt = QString::fromStdString(epoch.savedAt);
    row.elapsed = epoch.elapsed;
    row.firstSave = epoch.firstSave;
    row.monitored = epoch.monitored;
    row.bestSoFar = epoch.metric(kBestSoFar);
    if (const EpochFile* f = epoch.checksummedFile(); f && f->algo == ChecksumAlgo::Disabled)
        row.checksum = ChecksumState::Disabled;
    row.noChecksum = row.hasModel && Verifier::recordsNoChecksum(run, epoch);
    if (row.noChecksum)
        row.checksum = ChecksumState::NoChecksum;
    for (const auto& p : epoch.problems)
        row.problems << QString::fromStdString(p.message);
    return row;
}

void EpochTableModel::applyLinks(Block& block, const Run& run)
{
    block.last = run.linkedEpoch("last");
    block.best = run.linkedEpoch("best");
    for (auto& row : block.rows) {
        row.isLast = block.last && *block.last == row.epoch;
        row.isBest = block.best && *block.best == row.epoch;
    }
}

void EpochTableModel::setRuns(const std::vector<const Run*>& runs, const QStringList& names)
{
    beginResetModel();
    m_blocks.clear();
    m_metrics.clear();
    m_metricKeys.clear();
    for (size_t i = 0; i < runs.size(); ++i) {
        Block block;
        block.root = QString::fromStdString(runs[i]->root);
        block.name =
            i < static_cast<size_t>(names.size()) ? names[static_cast<int>(i)] : block.root;
        block.rows.reserve(runs[i]->epochs.size());
        for (const auto& e : runs[i]->epochs)
            block.rows.push_back(makeRow(*runs[i], e));
        applyLinks(block, *runs[i]);
        m_blocks.push_back(std::move(block));
    }
    endResetModel();
}

void EpochTableModel::clear()
{
    setRuns({}, {});
}

QStringList EpochTableModel::runRoots() const
{
    QStringList out;
    for (const auto& b : m_blocks)
        out << b.root;
    return out;
}

bool EpochTableModel::showsRun(const QString& root) const
{
    return blockIndex(root) >= 0;
}

int EpochTableModel::blockIndex(const QString& root) const
{
    for (size_t i = 0; i < m_blocks.size(); ++i)
        if (m_blocks[i].root == root)
            return static_cast<int>(i);
    return -1;
}

int EpochTableModel::blockOffset(int index) const
{
    int offset = 0;
    for (int i = 0; i < index; ++i)
        offset += static_cast<int>(m_blocks[static_cast<size_t>(i)].rows.size());
    return offset;
}

std::pair<const EpochTableModel::Block*, const EpochTableModel::Row*>
EpochTableModel::locate(int row) const
{
    for (const auto& b : m_blocks) {
        if (row < static_cast<int>(b.rows.size()))
            return {&b, &b.rows[static_cast<size_t>(row)]};
        row -= static_cast<int>(b.rows.size());
    }
    return {nullptr, nullptr};
}

void EpochTableModel::upsertEpoch(const QString& root, const Run& run, const Epoch& epoch)
{
    const int b = blockIndex(root);
    if (b < 0)
        return;
    auto& block = m_blocks[static_cast<size_t>(b)];
    Row row = makeRow(run, epoch);
    auto it = std::lower_bound(block.rows.begin(), block.rows.end(), epoch.number,
                               [](const Row& r, int n) { return r.epoch < n; });
    const int global = blockOffset(b) + static_cast<int>(it - block.rows.begin());
    if (it != block.rows.end() && it->epoch == epoch.number) {
        // A rewritten epoch (restart): its old checksum verdict no longer holds.
        block.checks.erase(epoch.number);
        block.checkNotes.erase(epoch.number);
        *it = std::move(row);
        emit dataChanged(index(global, 0), index(global, columnCount() - 1));
    } else {
        beginInsertRows({}, global, global);
        block.rows.insert(it, std::move(row));
        endInsertRows();
    }
    updateLinks(root, run);
}

void EpochTableModel::removeEpoch(const QString& root, int epoch)
{
    const int b = blockIndex(root);
    if (b < 0)
        return;
    auto& block = m_blocks[static_cast<size_t>(b)];
    auto it = std::lower_bound(block.rows.begin(), block.rows.end(), epoch,
                               [](const Row& r, int n) { return r.epoch < n; });
    if (it == block.rows.end() || it->epoch != epoch)
        return;
    const int global = blockOffset(b) + static_cast<int>(it - block.rows.begin());
    beginRemoveRows({}, global, global);
    block.rows.erase(it);
    endRemoveRows();
}

void EpochTableModel::updateLinks(const QString& root, const Run& run)
{
    const int b = blockIndex(root);
    if (b < 0)
        return;
    auto& block = m_blocks[static_cast<size_t>(b)];
    const auto oldLast = block.last;
    const auto oldBest = block.best;
    applyLinks(block, run);
    if (oldLast == block.last && oldBest == block.best)
        return;
    const int col = columnOf(ColumnKind::Links);
    for (auto epoch : {oldLast, oldBest, block.last, block.best}) {
        if (!epoch)
            continue;
        const int r = rowOf(root, *epoch);
        if (r >= 0)
            emit dataChanged(index(r, col), index(r, col));
    }
}

void EpochTableModel::addMetricColumns(const QStringList& names)
{
    for (const auto& name : names) {
        auto it = std::lower_bound(m_metrics.begin(), m_metrics.end(), name);
        if (it != m_metrics.end() && *it == name)
            continue;
        const int col = LeadingCount + static_cast<int>(it - m_metrics.begin());
        beginInsertColumns({}, col, col);
        m_metricKeys.insert(m_metricKeys.begin() + (it - m_metrics.begin()), name.toStdString());
        m_metrics.insert(it, name);
        endInsertColumns();
    }
}

void EpochTableModel::setHistory(const QString& root, const MetricHistory& history)
{
    setHistory(root, std::make_shared<const MetricHistory>(history));
}

void EpochTableModel::setHistory(const QString& root, std::shared_ptr<const MetricHistory> history)
{
    const int b = blockIndex(root);
    if (b < 0 || !history)
        return;
    std::set<std::string> names;
    history->collectMetricNames(names);
    QStringList columns;
    for (const std::string& name : names)
        if (!isOwnColumn(name))
            columns << QString::fromStdString(name);
    // Values first: views size new columns to their content when inserted.
    auto& block = m_blocks[static_cast<size_t>(b)];
    block.latest = history->latestPerEpoch();
    block.history = std::move(history);
    addMetricColumns(columns);
    const int first = blockOffset(b);
    const int count = static_cast<int>(block.rows.size());
    if (count > 0)
        emit dataChanged(index(first, 0), index(first + count - 1, columnCount() - 1));
}

void EpochTableModel::setChecksumStates(const QString& root,
                                        const std::map<int, ChecksumState>& states,
                                        const std::map<int, QString>& notes)
{
    const int b = blockIndex(root);
    if (b < 0)
        return;
    auto& block = m_blocks[static_cast<size_t>(b)];
    const int first = blockOffset(b);
    for (const auto& [epoch, state] : states) {
        block.checks[epoch] = state;
        if (auto note = notes.find(epoch); note != notes.end() && !note->second.isEmpty())
            block.checkNotes[epoch] = note->second;
        else
            block.checkNotes.erase(epoch);
        auto it = std::lower_bound(block.rows.begin(), block.rows.end(), epoch,
                                   [](const Row& r, int n) { return r.epoch < n; });
        if (it == block.rows.end() || it->epoch != epoch)
            continue;
        // A cancelled verification hands back Unknown: a file with no checksum stays so.
        it->checksum =
            state == ChecksumState::Unknown && it->noChecksum ? ChecksumState::NoChecksum : state;
        const int r = first + static_cast<int>(it - block.rows.begin());
        emit dataChanged(index(r, 0), index(r, columnCount() - 1));
    }
}

int EpochTableModel::rowOf(const QString& root, int epoch) const
{
    const int b = blockIndex(root);
    if (b < 0)
        return -1;
    const auto& rows = m_blocks[static_cast<size_t>(b)].rows;
    auto it = std::lower_bound(rows.begin(), rows.end(), epoch,
                               [](const Row& r, int n) { return r.epoch < n; });
    if (it == rows.end() || it->epoch != epoch)
        return -1;
    return blockOffset(b) + static_cast<int>(it - rows.begin());
}

QString EpochTableModel::rootAt(int row) const
{
    auto [block, r] = locate(row);
    return block ? block->root : QString();
}

int EpochTableModel::epochAt(int row) const
{
    auto [block, r] = locate(row);
    return r ? r->epoch : -1;
}

EpochTableModel::ColumnKind EpochTableModel::columnKind(int column) const
{
    if (column < LeadingCount)
        return Leading[column];
    column -= LeadingCount;
    if (column < m_metrics.size())
        return ColumnKind::Metric;
    column -= static_cast<int>(m_metrics.size());
    return Trailing[std::clamp(column, 0, TrailingCount - 1)];
}

int EpochTableModel::columnOf(ColumnKind kind) const
{
    for (int c = 0; c < columnCount(); ++c)
        if (columnKind(c) == kind)
            return c;
    return -1;
}

QString EpochTableModel::metricAt(int column) const
{
    const int i = column - LeadingCount;
    return i >= 0 && i < m_metrics.size() ? m_metrics[i] : QString();
}

int EpochTableModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    int n = 0;
    for (const auto& b : m_blocks)
        n += static_cast<int>(b.rows.size());
    return n;
}

int EpochTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : LeadingCount + static_cast<int>(m_metrics.size()) + TrailingCount;
}

std::optional<double> EpochTableModel::metricValue(const Block& block, std::string_view metric,
                                                   int epoch)
{
    // Richest source first, as HistoryRow::value reads it.
    const auto it = std::lower_bound(block.latest.begin(), block.latest.end(), epoch,
                                     [](const HistoryRow* r, int n) { return r->epoch < n; });
    if (it == block.latest.end() || (*it)->epoch != epoch)
        return std::nullopt;
    return (*it)->value(metric);
}

QVariant EpochTableModel::display(const Block& block, const Row& row, int column) const
{
    switch (columnKind(column)) {
    case ColumnKind::Run:
        return block.name;
    case ColumnKind::Epoch:
        return row.epoch;
    case ColumnKind::SavedAt:
        return row.savedAt;
    case ColumnKind::TimePerEpoch:
        if (row.firstSave)
            return QStringLiteral("first");
        if (!row.elapsed)
            return {};
        return QString::fromStdString(Format::duration(*row.elapsed));
    case ColumnKind::Monitored:
        if (auto v = metricValue(block, row.monitored, row.epoch))
            return formatNumber(*v);
        return {};
    case ColumnKind::BestSoFar:
        return row.bestSoFar ? formatNumber(*row.bestSoFar) : QVariant();
    case ColumnKind::Metric:
        if (auto v =
                metricValue(block, m_metricKeys[std::size_t(column - LeadingCount)], row.epoch))
            return formatNumber(*v);
        return {};
    case ColumnKind::Size:
        if (row.bytes)
            return QString::fromStdString(Format::bytes(double(*row.bytes)));
        return row.hasModel ? QVariant() : QStringLiteral("no model");
    case ColumnKind::Checksum:
        return checksumStateLabel(row.checksum);
    case ColumnKind::Links: {
        QStringList links;
        if (row.isLast)
            links << QStringLiteral("last");
        if (row.isBest)
            links << QStringLiteral("best");
        return links.join(QStringLiteral(" "));
    }
    case ColumnKind::ProblemList:
        return row.problems.isEmpty() ? QVariant() : QVariant(row.problems.size());
    }
    return {};
}

QVariant EpochTableModel::sortValue(const Block& block, const Row& row, int column) const
{
    switch (columnKind(column)) {
    case ColumnKind::Run:
        return block.name;
    case ColumnKind::Epoch:
        return row.epoch;
    case ColumnKind::SavedAt:
        return row.savedAt;
    case ColumnKind::TimePerEpoch:
        return row.elapsed ? QVariant(*row.elapsed) : QVariant();
    case ColumnKind::Monitored:
        if (auto v = metricValue(block, row.monitored, row.epoch))
            return *v;
        return {};
    case ColumnKind::BestSoFar:
        return row.bestSoFar ? QVariant(*row.bestSoFar) : QVariant();
    case ColumnKind::Metric:
        if (auto v =
                metricValue(block, m_metricKeys[std::size_t(column - LeadingCount)], row.epoch))
            return *v;
        return {};
    case ColumnKind::Size:
        return row.bytes ? QVariant::fromValue(*row.bytes) : QVariant();
    case ColumnKind::Checksum:
        return static_cast<int>(row.checksum);
    case ColumnKind::Links:
        return (row.isLast ? 2 : 0) + (row.isBest ? 1 : 0);
    case ColumnKind::ProblemList:
        return static_cast<int>(row.problems.size());
    }
    return {};
}

QVariant EpochTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    auto [block, row] = locate(index.row());
    if (!row)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*block, *row, index.column());
    case roles::SortRole:
        return sortValue(*block, *row, index.column());
    case Qt::ToolTipRole:
        if (columnKind(index.column()) == ColumnKind::ProblemList && !row->problems.isEmpty())
            return row->problems.join(QLatin1Char('\n'));
        if (columnKind(index.column()) == ColumnKind::TimePerEpoch)
            return QStringLiteral("Seconds since the previous save of the same process");
        if (columnKind(index.column()) == ColumnKind::Checksum) {
            auto note = block->checkNotes.find(row->epoch);
            if (note != block->checkNotes.end())
                return QStringLiteral("CRC-32 %1: %2")
                    .arg(checksumStateLabel(row->checksum), note->second);
            if (row->checksum == ChecksumState::NoChecksum)
                return QStringLiteral("This checkpoint records no checksum: there is nothing to "
                                      "verify its file against");
            if (row->checksum == ChecksumState::Unknown && row->hasModel)
                return QStringLiteral("Not verified: this file's CRC-32 has not been checked "
                                      "yet, so it may or may not be intact. Epoch ▸ Verify "
                                      "Selected Epochs (Ctrl+Shift+V) checks it");
        }
        return {};
    case Qt::TextAlignmentRole: {
        const auto kind = columnKind(index.column());
        if (kind == ColumnKind::Run || kind == ColumnKind::SavedAt || kind == ColumnKind::Links ||
            kind == ColumnKind::Checksum)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    case roles::RunRootRole:
        return block->root;
    case roles::EpochRole:
        return row->epoch;
    case roles::ChecksumStateRole:
        return static_cast<int>(row->checksum);
    case roles::IsLastRole:
        return row->isLast;
    case roles::IsBestRole:
        return row->isBest;
    case roles::ProblemCountRole:
        return static_cast<int>(row->problems.size());
    case roles::DiskBytesRole:
        return row->bytes ? QVariant::fromValue(*row->bytes) : QVariant();
    case roles::ExportRole: {
        // Raw values (seconds, bytes, full-precision metrics); labels stay text.
        const auto kind = columnKind(index.column());
        if (kind == ColumnKind::Checksum || kind == ColumnKind::Links)
            return display(*block, *row, index.column());
        return sortValue(*block, *row, index.column());
    }
    default:
        return {};
    }
}

QVariant EpochTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto kind = columnKind(section);
    if (role == roles::ColumnKindRole)
        return static_cast<int>(kind);
    if (role == roles::MetricNameRole)
        return metricAt(section);
    if (role == Qt::ToolTipRole) {
        if (kind == ColumnKind::BestSoFar)
            return QStringLiteral(
                "best_metric_last: the best value of the monitored metric so far");
        if (kind == ColumnKind::Monitored)
            return QStringLiteral("This epoch's value of the metric save_best watches");
        return {};
    }
    if (role == roles::ExportRole)
        return exportName(section);
    if (role != Qt::DisplayRole)
        return {};
    switch (kind) {
    case ColumnKind::Run:
        return QStringLiteral("Run");
    case ColumnKind::Epoch:
        return QStringLiteral("Epoch");
    case ColumnKind::SavedAt:
        return QStringLiteral("Saved at");
    case ColumnKind::TimePerEpoch:
        return QStringLiteral("Time/epoch");
    case ColumnKind::Monitored: {
        // Name the monitored metric when every shown run agrees on it.
        std::string_view name;
        for (const auto& b : m_blocks)
            for (const auto& r : b.rows)
                if (!r.monitored.empty()) {
                    if (!name.empty() && name != r.monitored)
                        return QStringLiteral("Monitored");
                    name = r.monitored;
                    break;
                }
        return name.empty() ? QStringLiteral("Monitored")
                            : QStringLiteral("Monitored (%1)")
                                  .arg(QString::fromUtf8(name.data(), qsizetype(name.size())));
    }
    case ColumnKind::BestSoFar:
        return QStringLiteral("Best so far");
    case ColumnKind::Metric:
        return metricAt(section);
    case ColumnKind::Size:
        return QStringLiteral("Size");
    case ColumnKind::Checksum:
        return QStringLiteral("Checksum");
    case ColumnKind::Links:
        return QStringLiteral("Links");
    case ColumnKind::ProblemList:
        return QStringLiteral("Problems");
    }
    return {};
}

QString EpochTableModel::exportName(int section) const
{
    switch (columnKind(section)) {
    case ColumnKind::Run:
        return QStringLiteral("run");
    case ColumnKind::Epoch:
        return QStringLiteral("epoch");
    case ColumnKind::SavedAt:
        return QStringLiteral("saved_at");
    case ColumnKind::TimePerEpoch:
        return QStringLiteral("time_per_epoch_s");
    case ColumnKind::Monitored:
        return QStringLiteral("monitored");
    case ColumnKind::BestSoFar:
        return QStringLiteral("best_so_far");
    case ColumnKind::Metric:
        return metricAt(section);
    case ColumnKind::Size:
        return QStringLiteral("model_bytes");
    case ColumnKind::Checksum:
        return QStringLiteral("checksum");
    case ColumnKind::Links:
        return QStringLiteral("links");
    case ColumnKind::ProblemList:
        return QStringLiteral("problems");
    }
    return {};
}

} // namespace ckpt
