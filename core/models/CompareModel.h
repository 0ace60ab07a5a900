#pragma once

#include "model/MetricHistory.h"
#include "model/Run.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace ckpt {

// One side of a comparison: an epoch of a run and its merged history row.
struct CompareSide
{
    QString runName;
    Epoch epoch;
    QString recordName; // the layout's name for the epoch's record ("ckpt-info.json")
    std::optional<HistoryRow> history;
    // The run's parameters as RunConfigFinder finds them (the launch config, the
    // file named for the run, Lightning's hparams.yaml): "section.key" or "key"
    // with the value as the trainer reads it; empty when none is known.
    std::vector<std::pair<QString, QString>> params;

    // The side for epoch `number` of `run`, with its latest history row when
    // `history` has one, and the run's parameters (a small file read here);
    // empty when the run has no such epoch.
    static std::optional<CompareSide> of(const QString& runName, const Run& run,
                                         const MetricHistory* history, int number);
};

// Two epochs side by side: their record's fields (CANDLE ckpt-info.json) (known keys first, then
// any other keys found in either file), then every metric of either history row,
// then the runs' parameters.
// roles::DifferentRole marks rows whose two values differ.
class CompareModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        FieldColumn,
        LeftColumn,
        RightColumn,
        ColumnCount
    };

    explicit CompareModel(QObject* parent = nullptr);

    void setSides(const CompareSide& left, const CompareSide& right);
    void clear();
    bool isEmpty() const { return m_rows.empty(); }
    int differenceCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString field;
        QString section; // "checkpoint", "ckpt-info.json", "metrics", "parameters"
        std::optional<QString> left;
        std::optional<QString> right;
        bool different() const { return left != right; }
    };

    QString m_leftTitle;
    QString m_rightTitle;
    std::vector<Row> m_rows;
};

} // namespace ckpt
