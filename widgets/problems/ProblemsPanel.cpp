#include "problems/ProblemsPanel.h"

#include "models/ModelRoles.h"
#include "models/ProblemsModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace ckpt {

ProblemsPanel::ProblemsPanel(QWidget* parent)
    : QWidget(parent), m_proxy(new QSortFilterProxyModel(this)), m_view(new QTableView(this)),
      m_summary(new QLabel(this)), m_repair(new QPushButton(tr("&Repair"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 4, 4, 0);
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_repair);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    m_repair->setToolTip(tr("Apply the safe repair for the selected problem"));
    m_repair->setEnabled(false);
    m_proxy->setSortRole(roles::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setAccessibleName(tr("Problems"));
    connect(m_repair, &QPushButton::clicked, this, [this] {
        if (currentRow() >= 0)
            emit repairRequested(currentRow());
    });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        const QModelIndex src = m_proxy->mapToSource(index);
        const QVariant epoch = src.data(roles::EpochRole);
        emit showRequested(src.data(roles::RunRootRole).toString(),
                           epoch.isValid() ? epoch.toInt() : -1);
    });
}

void ProblemsPanel::setModel(ProblemsModel* model)
{
    m_model = model;
    m_proxy->setSourceModel(model);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ProblemsPanel::updateButtons);
    for (auto sig : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, sig, this, &ProblemsPanel::updateButtons);
    connect(model, &QAbstractItemModel::modelReset, this, &ProblemsPanel::updateButtons);
    connect(model, &QAbstractItemModel::dataChanged, this, &ProblemsPanel::updateButtons);
    updateButtons();
}

int ProblemsPanel::currentRow() const
{
    const QModelIndex i = m_view->currentIndex();
    return i.isValid() ? m_proxy->mapToSource(i).row() : -1;
}

void ProblemsPanel::updateButtons()
{
    const int n = m_model ? m_model->rowCount() : 0;
    m_summary->setText(n == 0
                           ? tr("No problems found.")
                           : tr("%n problem(s). Double-click one to show its epoch.", nullptr, n));
    const QModelIndex i = m_view->currentIndex();
    m_repair->setEnabled(i.isValid() && i.data(roles::RepairableRole).toBool());
    if (n > 0 && m_view->horizontalHeader()->sectionSize(0) < 60)
        m_view->resizeColumnsToContents();
}

} // namespace ckpt
