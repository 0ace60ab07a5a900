#pragma once

#include "model/MetricHistory.h"
#include "model/Run.h"
#include "models/ChecksumState.h"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// The saved epochs of one or more runs, one row each, with every metric of the
// runs' merged histories as columns. Fed by the workspace with data already
// loaded; updated incrementally (a new epoch inserts one row, a history adds
// columns) so selections survive live updates. Sort and filter through a
// QSortFilterProxyModel on roles::SortRole.
class EpochTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class ColumnKind
    {
        Run,
        Epoch,
        SavedAt,
        TimePerEpoch,
        Monitored,
        BestSoFar,
        Metric,
        Size,
        Checksum,
        Links,
        ProblemList
    };

    explicit EpochTableModel(QObject* parent = nullptr);

    // Replaces what is shown by these runs (in this order).
    void setRuns(const std::vector<const Run*>& runs, const QStringList& names);
    void clear();
    QStringList runRoots() const;
    bool showsRun(const QString& root) const;

    // Incremental updates of a shown run; ignored for runs not shown.
    void upsertEpoch(const QString& root, const Run& run, const Epoch& epoch);
    void removeEpoch(const QString& root, int epoch);
    void updateLinks(const QString& root, const Run& run);
    // The history is kept, shared, and read when a cell is shown: a new history
    // costs one pass over its rows, never a copy of its values.
    void setHistory(const QString& root, std::shared_ptr<const MetricHistory> history);
    void setHistory(const QString& root, const MetricHistory& history);
    // `notes` (optional): what was compared, shown as the checksum cell's tooltip.
    void setChecksumStates(const QString& root, const std::map<int, ChecksumState>& states,
                           const std::map<int, QString>& notes = {});

    // Row lookup for selection sync with the plot.
    int rowOf(const QString& root, int epoch) const;
    QString rootAt(int row) const;
    int epochAt(int row) const;

    ColumnKind columnKind(int column) const;
    int columnOf(ColumnKind kind) const; // first column of that kind
    QString metricAt(int column) const;  // empty unless a metric column
    QStringList metricNames() const { return m_metrics; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        int epoch = 0;
        QString savedAt;
        std::optional<double> elapsed;
        bool firstSave = false;
        std::string monitored; // the metric the writer tracked ("" when none)
        std::optional<double> bestSoFar;
        std::optional<quint64> bytes;
        bool hasModel = false;
        ChecksumState checksum = ChecksumState::Unknown;
        bool isLast = false;
        bool isBest = false;
        bool noChecksum = false; // nothing recorded to verify: shown instead of "not verified"
        QStringList problems;
    };
    struct Block
    {
        QString root;
        QString name;
        std::vector<Row> rows; // sorted by epoch
        std::shared_ptr<const MetricHistory> history;
        std::vector<const HistoryRow*> latest; // the history's newest row per epoch, by epoch
        std::map<int, ChecksumState> checks;
        std::map<int, QString> checkNotes;
        std::optional<int> last;
        std::optional<int> best;
    };

    static Row makeRow(const Run& run, const Epoch& epoch);
    void applyLinks(Block& block, const Run& run);
    int blockIndex(const QString& root) const;
    int blockOffset(int blockIndex) const;
    std::pair<const Block*, const Row*> locate(int row) const;
    void addMetricColumns(const QStringList& names);
    static std::optional<double> metricValue(const Block& block, std::string_view metric,
                                             int epoch);
    QVariant display(const Block& block, const Row& row, int column) const;
    QVariant sortValue(const Block& block, const Row& row, int column) const;
    QString exportName(int section) const; // the CSV header of a column

    std::vector<Block> m_blocks;
    QStringList m_metrics;                 // sorted
    std::vector<std::string> m_metricKeys; // the same names, as the history spells them
};

} // namespace ckpt
