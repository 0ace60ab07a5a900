#pragma once

#include "model/Problem.h"

#include <QAbstractTableModel>
#include <QString>

#include <functional>
#include <vector>

namespace ckpt {

// Every problem the scans found, grouped by run, with its file and whether a
// safe one-click repair exists (decided by the workspace's predicate).
class ProblemsModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        KindColumn,
        RunColumn,
        EpochColumn,
        FileColumn,
        MessageColumn,
        ColumnCount
    };
    using RepairPredicate = std::function<bool(const Problem&)>;

    explicit ProblemsModel(QObject* parent = nullptr);

    void setRepairPredicate(RepairPredicate predicate) { m_repairable = std::move(predicate); }
    // Replaces the problems of one run (`runName` for display).
    void setProblems(const QString& root, const QString& runName, const Problems& problems);
    void removeRun(const QString& root);
    void clear();

    const Problem* problemAt(int row) const;
    QString rootAt(int row) const;
    int problemCount(const QString& root) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Entry
    {
        QString root;
        QString runName;
        Problem problem;
        bool repairable = false;
    };
    std::pair<int, int> rangeOf(const QString& root) const; // [first, last+1)

    std::vector<Entry> m_entries; // grouped by root, in arrival order of runs
    RepairPredicate m_repairable;
};

} // namespace ckpt
