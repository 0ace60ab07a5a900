#include "sidebar/RunSidebar.h"

#include "models/ModelRoles.h"
#include "models/RunTreeModel.h"
#include "sidebar/RunBadgeDelegate.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace ckpt {

RunSidebar::RunSidebar(QWidget* parent)
    : QWidget(parent), m_proxy(new QSortFilterProxyModel(this)), m_stack(new QStackedWidget(this)),
      m_view(new QTreeView(this)), m_hint(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setWordWrap(true);
    m_hint->setMargin(16);
    m_hint->setText(tr("Drop experiment folders here\nor use File ▸ Open (Ctrl+O)"));
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_hint);
    m_stack->addWidget(m_view);

    m_proxy->setSortRole(roles::SortRole);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new RunBadgeDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(false);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(0, Qt::AscendingOrder);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->setAccessibleName(tr("Runs"));
    m_view->header()->setStretchLastSection(false);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { emit selectedRunsChanged(selectedRuns()); });
}

void RunSidebar::setModel(RunTreeModel* model)
{
    m_model = model;
    m_proxy->setSourceModel(model);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    connect(model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex& parent, int first, int last) {
                // New folders open expanded so their runs are visible at once.
                if (!parent.isValid())
                    for (int r = first; r <= last; ++r)
                        m_view->expand(m_proxy->mapFromSource(m_model->index(r, 0)));
                updatePage();
            });
    connect(model, &QAbstractItemModel::modelReset, this, &RunSidebar::updatePage);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &RunSidebar::updatePage);
    updatePage();
}

void RunSidebar::updatePage()
{
    m_stack->setCurrentWidget(m_model && m_model->rowCount() > 0 ? static_cast<QWidget*>(m_view)
                                                                 : m_hint);
}

void RunSidebar::setEmptyHint(const QString& text)
{
    m_hint->setText(text);
}

void RunSidebar::setContextActions(const QList<QAction*>& actions)
{
    m_view->addActions(actions);
}

QStringList RunSidebar::selectedRuns() const
{
    QStringList roots;
    if (!m_model)
        return roots;
    for (const QModelIndex& proxyIndex : m_view->selectionModel()->selectedRows()) {
        const QModelIndex index = m_proxy->mapToSource(proxyIndex);
        const auto kind =
            static_cast<RunTreeModel::NodeKind>(index.data(roles::NodeKindRole).toInt());
        if (kind == RunTreeModel::NodeKind::Run) {
            roots << index.data(roles::RunRootRole).toString();
        } else {
            // A folder stands for all of its runs.
            for (int r = 0; r < m_model->rowCount(index); ++r)
                roots << m_model->index(r, 0, index).data(roles::RunRootRole).toString();
        }
    }
    roots.removeDuplicates();
    return roots;
}

void RunSidebar::selectRuns(const QStringList& roots)
{
    QItemSelection selection;
    for (const QString& root : roots) {
        const QModelIndex i = m_proxy->mapFromSource(m_model->indexOfRun(root));
        if (i.isValid())
            selection.select(i, i.siblingAtColumn(RunTreeModel::ColumnCount - 1));
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (!selection.isEmpty())
        m_view->selectionModel()->setCurrentIndex(selection.indexes().first(),
                                                  QItemSelectionModel::NoUpdate);
}

QByteArray RunSidebar::saveState() const
{
    return m_view->header()->saveState();
}

void RunSidebar::restoreState(const QByteArray& state)
{
    m_view->header()->restoreState(state);
}

} // namespace ckpt
