#pragma once

#include <QWidget>

#include <optional>

class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace ckpt {

class EpochTableModel;

// One epoch of one run, as the table's selection hands it out.
struct EpochRef
{
    QString root;
    int epoch = 0;
    bool operator==(const EpochRef&) const = default;
};

// The epoch table: sortable, filterable (text over every column), multi-select,
// with a column chooser, copy (Ctrl+C as tab-separated text) and CSV export.
// The Run column hides itself while only one run is shown.
class EpochTableView final : public QWidget
{
    Q_OBJECT
public:
    explicit EpochTableView(QWidget* parent = nullptr);

    void setModel(EpochTableModel* model);
    QTableView* view() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filter; }
    void setContextActions(const QList<QAction*>& actions);
    // Ctrl+C while the table has focus; also for menus.
    QAction* copyAction() const { return m_copy; }

    QList<EpochRef> selectedEpochs() const;
    std::optional<EpochRef> currentEpoch() const;
    void selectEpoch(const QString& root, int epoch);

    // Tab-separated text of the selected rows (visible columns, with a header).
    QString selectionAsText() const;
    // The whole (filtered, sorted) table as CSV, raw values (see CsvWriter).
    QString tableAsCsv() const;
    void copySelection() const;

    // Column choices are remembered by title: metric columns come and go.
    QStringList hiddenColumns() const { return m_hiddenByUser; }
    void setHiddenColumns(const QStringList& titles);

signals:
    void currentEpochChanged(const QString& root, int epoch);
    void selectionChanged();
    void exportRequested();

private:
    void rebuildColumnMenu();
    void fitColumns();
    void restoreSelection();
    void updateRunColumn();
    QList<int> visibleColumns() const; // logical indexes, in view order
    QString rowsAsText(const QList<int>& proxyRows) const;

    EpochTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QToolButton* m_columns;
    QMenu* m_columnMenu;
    QAction* m_copy;
    QStringList m_hiddenByUser; // header titles hidden from the column menu
    // The selection across a model reset (a run re-read after a relink or a
    // rescan): the same epochs are selected again when they are still shown.
    QList<EpochRef> m_keptSelection;
    std::optional<EpochRef> m_keptCurrent;
};

} // namespace ckpt
