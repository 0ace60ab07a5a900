#include "table/EpochTableView.h"

#include "models/EpochTableModel.h"
#include "models/ModelRoles.h"
#include "report/CsvWriter.h"
#include "table/EpochBadgeDelegate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelection>
#include <QKeySequence>
#include <QLineEdit>
#include <QMenu>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace ckpt {

EpochTableView::EpochTableView(QWidget* parent)
    : QWidget(parent), m_proxy(new QSortFilterProxyModel(this)), m_view(new QTableView(this)),
      m_filter(new QLineEdit(this)), m_columns(new QToolButton(this)), m_columnMenu(new QMenu(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 4, 4, 0);
    m_filter->setPlaceholderText(tr("Filter epochs (any column; e.g. MISMATCH, best, 2026-11-22)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter epochs"));
    bar->addWidget(m_filter, 1);
    m_columns->setText(tr("Columns"));
    m_columns->setPopupMode(QToolButton::InstantPopup);
    m_columns->setMenu(m_columnMenu);
    bar->addWidget(m_columns);
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export CSV…"));
    connect(exportButton, &QToolButton::clicked, this, &EpochTableView::exportRequested);
    bar->addWidget(exportButton);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    m_proxy->setSortRole(roles::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setDynamicSortFilter(true);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->horizontalHeader()->setSectionsMovable(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    // Fitting columns looks at a sample of rows, not at 100k of them.
    m_view->horizontalHeader()->setResizeContentsPrecision(64);
    m_view->setAccessibleName(tr("Epochs"));
    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &EpochTableView::selectionChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                const QModelIndex src = m_proxy->mapToSource(current);
                emit currentEpochChanged(src.data(roles::RunRootRole).toString(),
                                         src.data(roles::EpochRole).toInt());
            });
    m_copy = new QAction(tr("&Copy Rows"), this);
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetShortcut);
    connect(m_copy, &QAction::triggered, this, &EpochTableView::copySelection);
    m_view->addAction(m_copy);
    auto* find =
        new QShortcut(QKeySequence::Find, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, this, [this] {
        m_filter->setFocus();
        m_filter->selectAll();
    });
}

void EpochTableView::setModel(EpochTableModel* model)
{
    m_model = model;
    m_proxy->setSourceModel(model);
    m_view->setItemDelegate(new EpochBadgeDelegate(model, m_view));
    m_view->sortByColumn(model->columnOf(EpochTableModel::ColumnKind::Epoch), Qt::AscendingOrder);
    const auto refresh = [this] {
        rebuildColumnMenu();
        updateRunColumn();
    };
    connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        m_keptSelection = selectedEpochs();
        m_keptCurrent = currentEpoch();
    });
    connect(model, &QAbstractItemModel::modelReset, this, [this, refresh] {
        refresh();
        fitColumns();
        restoreSelection();
    });
    connect(model, &QAbstractItemModel::columnsInserted, this,
            [this, refresh](const QModelIndex&, int first, int last) {
                refresh();
                for (int c = first; c <= last; ++c)
                    m_view->resizeColumnToContents(c);
            });
    refresh();
}

void EpochTableView::restoreSelection()
{
    const auto proxyIndex = [this](const EpochRef& ref) {
        const int row = m_model->rowOf(ref.root, ref.epoch);
        return row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
    };
    QItemSelection selection;
    for (const EpochRef& ref : std::exchange(m_keptSelection, {}))
        if (const QModelIndex i = proxyIndex(ref); i.isValid())
            selection.select(i, i);
    QItemSelectionModel* model = m_view->selectionModel();
    if (const auto current = std::exchange(m_keptCurrent, std::nullopt))
        if (const QModelIndex i = proxyIndex(*current); i.isValid())
            model->setCurrentIndex(i, QItemSelectionModel::NoUpdate);
    if (!selection.isEmpty())
        model->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void EpochTableView::fitColumns()
{
    m_view->resizeColumnsToContents();
    // Badge columns need room for their pills ("last" and "best" side by side).
    using K = EpochTableModel::ColumnKind;
    const int em = m_view->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    for (auto [kind, ems] :
         {std::pair{K::Links, 11}, std::pair{K::Checksum, 8}, std::pair{K::ProblemList, 6}}) {
        const int c = m_model->columnOf(kind);
        if (c >= 0)
            m_view->setColumnWidth(c, std::max(m_view->columnWidth(c), ems * em));
    }
    // Re-apply the stretch after the explicit widths.
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
}

void EpochTableView::setContextActions(const QList<QAction*>& actions)
{
    m_view->addActions(actions);
}

void EpochTableView::updateRunColumn()
{
    const int runCol = m_model->columnOf(EpochTableModel::ColumnKind::Run);
    const QString title = m_model->headerData(runCol, Qt::Horizontal).toString();
    m_view->setColumnHidden(runCol,
                            m_model->runRoots().size() <= 1 || m_hiddenByUser.contains(title));
}

void EpochTableView::rebuildColumnMenu()
{
    m_columnMenu->clear();
    for (int c = 0; c < m_model->columnCount(); ++c) {
        const QString title = m_model->headerData(c, Qt::Horizontal).toString();
        const bool hidden = m_hiddenByUser.contains(title);
        m_view->setColumnHidden(c, hidden);
        QAction* a = m_columnMenu->addAction(title);
        a->setCheckable(true);
        a->setChecked(!hidden);
        connect(a, &QAction::toggled, this, [this, title](bool on) {
            if (on)
                m_hiddenByUser.removeAll(title);
            else if (!m_hiddenByUser.contains(title))
                m_hiddenByUser << title;
            rebuildColumnMenu();
            updateRunColumn();
        });
    }
}

void EpochTableView::setHiddenColumns(const QStringList& titles)
{
    m_hiddenByUser = titles;
    if (m_model) {
        rebuildColumnMenu();
        updateRunColumn();
    }
}

QList<EpochRef> EpochTableView::selectedEpochs() const
{
    QList<EpochRef> out;
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    for (const QModelIndex& i : rows) {
        const QModelIndex src = m_proxy->mapToSource(i);
        out.push_back(
            {src.data(roles::RunRootRole).toString(), src.data(roles::EpochRole).toInt()});
    }
    return out;
}

std::optional<EpochRef> EpochTableView::currentEpoch() const
{
    const QModelIndex i = m_view->currentIndex();
    if (!i.isValid())
        return std::nullopt;
    const QModelIndex src = m_proxy->mapToSource(i);
    return EpochRef{src.data(roles::RunRootRole).toString(), src.data(roles::EpochRole).toInt()};
}

void EpochTableView::selectEpoch(const QString& root, int epoch)
{
    const int row = m_model->rowOf(root, epoch);
    if (row < 0)
        return;
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!i.isValid())
        return;
    m_view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect |
                                                     QItemSelectionModel::Rows);
    m_view->scrollTo(i);
}

QList<int> EpochTableView::visibleColumns() const
{
    QList<int> columns;
    const QHeaderView* header = m_view->horizontalHeader();
    for (int v = 0; v < header->count(); ++v) {
        const int logical = header->logicalIndex(v);
        if (!header->isSectionHidden(logical))
            columns << logical;
    }
    return columns;
}

QString EpochTableView::rowsAsText(const QList<int>& proxyRows) const
{
    // For people (the clipboard): the cells as shown, tab-separated.
    const QList<int> columns = visibleColumns();
    QStringList lines;
    QStringList head;
    for (int c : columns)
        head << m_proxy->headerData(c, Qt::Horizontal).toString();
    lines << head.join(QLatin1Char('\t'));
    for (int r : proxyRows) {
        QStringList cells;
        for (int c : columns)
            cells << m_proxy->index(r, c).data().toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString EpochTableView::selectionAsText() const
{
    QList<int> rows;
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end());
    return rowsAsText(rows);
}

QString EpochTableView::tableAsCsv() const
{
    // For machines: raw values through the CSV writer `ckpt history --csv` uses.
    const QList<int> columns = visibleColumns();
    const auto text = [](const QVariant& v) -> std::string {
        if (!v.isValid() || v.isNull())
            return {};
        if (v.typeId() == QMetaType::Double)
            return CsvWriter::number(v.toDouble());
        return v.toString().toStdString();
    };
    CsvWriter csv;
    std::vector<std::string> fields;
    for (int c : columns)
        fields.push_back(text(m_proxy->headerData(c, Qt::Horizontal, roles::ExportRole)));
    csv.addRow(fields);
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        fields.clear();
        for (int c : columns)
            fields.push_back(text(m_proxy->index(r, c).data(roles::ExportRole)));
        csv.addRow(fields);
    }
    return QString::fromStdString(csv.text());
}

void EpochTableView::copySelection() const
{
    if (m_view->selectionModel()->hasSelection())
        QApplication::clipboard()->setText(selectionAsText());
}

} // namespace ckpt
