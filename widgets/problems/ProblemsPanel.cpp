#include "problems/ProblemsPanel.h"

#include "models/ModelRoles.h"
#include "models/ProblemsModel.h"
#include "remote/RemoteTarget.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

namespace ckpt {

ProblemsPanel::ProblemsPanel(QWidget* parent)
    : QWidget(parent), m_proxy(new QSortFilterProxyModel(this)), m_view(new QTableView(this)),
      m_summary(new QLabel(this)), m_repair(new QPushButton(tr("Repa&ir"), this)),
      m_repairAll(new QPushButton(tr("Repair &All"), this)),
      m_open(new QPushButton(tr("Ope&n Folder"), this)),
      m_moveAside(new QPushButton(tr("&Move work/ Aside…"), this)), m_menu(new QMenu(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 4, 4, 0);
    bar->addWidget(m_summary, 1);
    for (QPushButton* b : {m_open, m_moveAside, m_repair, m_repairAll}) {
        b->setEnabled(false);
        bar->addWidget(b);
    }
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    m_repair->setToolTip(tr("Apply the safe repair for the selected problem"));
    m_repairAll->setToolTip(tr("Re-point every link a move or a copy broke at this run's own "
                               "epoch (relative links; Edit ▸ Undo reverts)"));
    m_open->setToolTip(tr("Open the folder of the selected problem's file"));
    m_moveAside->setToolTip(tr("Rename the leftover work/ of an interrupted save to "
                               "work.interrupted-<time>; nothing is deleted"));
    m_proxy->setSortRole(roles::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ProblemsModel::KindColumn, Qt::AscendingOrder); // errors first
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setResizeContentsPrecision(200);
    m_view->setAccessibleName(tr("Problems"));
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    for (QPushButton* b : {m_open, m_moveAside, m_repair})
        connect(m_menu->addAction(b->text()), &QAction::triggered, b, &QPushButton::click);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        if (!m_view->indexAt(pos).isValid())
            return;
        const auto actions = m_menu->actions();
        for (int i = 0; i < actions.size(); ++i)
            actions[i]->setEnabled((i == 0   ? m_open
                                    : i == 1 ? m_moveAside
                                             : m_repair)
                                       ->isEnabled());
        m_menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    connect(m_repair, &QPushButton::clicked, this, [this] {
        if (currentRow() >= 0)
            emit repairRequested(currentRow());
    });
    connect(m_repairAll, &QPushButton::clicked, this, [this] {
        const QStringList roots = repairableRuns();
        if (!roots.isEmpty())
            emit repairAllRequested(roots);
    });
    connect(m_open, &QPushButton::clicked, this, &ProblemsPanel::openFolder);
    connect(m_moveAside, &QPushButton::clicked, this, &ProblemsPanel::confirmMoveAside);
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
    // Kind, run, epoch and file are short and must be read whole; the message
    // takes the rest (elided in the middle, whole in the tooltip). Sized to their
    // contents whenever rows change (once per event-loop turn), then the user's to drag.
    const auto fitColumns = [this] {
        if (m_fitPending)
            return;
        m_fitPending = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_fitPending = false;
                for (int c : {ProblemsModel::KindColumn, ProblemsModel::RunColumn,
                              ProblemsModel::EpochColumn, ProblemsModel::FileColumn})
                    m_view->resizeColumnToContents(c);
            },
            Qt::QueuedConnection);
    };
    for (auto sig : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, sig, this, fitColumns);
    connect(model, &QAbstractItemModel::modelReset, this, fitColumns);
    connect(model, &QAbstractItemModel::dataChanged, this, fitColumns);
    fitColumns();
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

QStringList ProblemsPanel::repairableRuns() const
{
    QStringList roots;
    for (int r = 0; m_model && r < m_model->rowCount(); ++r) {
        const QModelIndex i = m_model->index(r, 0);
        const QString root = i.data(roles::RunRootRole).toString();
        if (i.data(roles::RepairableRole).toBool() && !roots.contains(root))
            roots << root;
    }
    return roots;
}

QString ProblemsPanel::folderOf(int sourceRow) const
{
    const QModelIndex i = m_model->index(sourceRow, 0);
    const QString path = i.data(roles::PathRole).toString();
    if (path.isEmpty())
        return i.data(roles::RunRootRole).toString();
    // A leftover work/ is itself the folder to look into; otherwise the file's folder.
    if (i.data(roles::ProblemKindRole).toString() == QLatin1String("interrupted_save"))
        return path;
    return QFileInfo(path).absolutePath();
}

void ProblemsPanel::openFolder()
{
    if (currentRow() >= 0)
        QDesktopServices::openUrl(QUrl::fromLocalFile(folderOf(currentRow())));
}

void ProblemsPanel::confirmMoveAside()
{
    const int row = currentRow();
    if (row < 0)
        return;
    const QModelIndex i = m_model->index(row, 0);
    const QString root = i.data(roles::RunRootRole).toString();
    auto* box = new QMessageBox(QMessageBox::Question, tr("Move work/ aside"),
                                tr("Move the leftover work/ of an interrupted save aside?"),
                                QMessageBox::Cancel, this);
    box->setInformativeText(
        tr("%1 is renamed to work.interrupted-<time> next to it; nothing is deleted and the "
           "move is recorded in the run's ckpt.log. Do this only when no trainer is writing "
           "this run.")
            .arg(i.data(roles::PathRole).toString()));
    box->setObjectName(QStringLiteral("moveAsideConfirmation"));
    QPushButton* move = box->addButton(tr("Move Aside"), QMessageBox::AcceptRole);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, root, move](QAbstractButton* b) {
        if (b == move)
            emit moveWorkAsideRequested(root);
    });
    box->open();
}

void ProblemsPanel::updateButtons()
{
    const int n = m_model ? m_model->rowCount() : 0;
    m_summary->setText(n == 0
                           ? tr("No problems found.")
                           : tr("%n problem(s). Double-click one to show its epoch.", nullptr, n));
    const QModelIndex i = m_view->currentIndex();
    // A run on another machine (ssh:// root): its files are not here to open or
    // move; its links are repaired by the ckpt there.
    const bool remote = i.isValid() && RemoteTarget::looksRemote(
                                           i.data(roles::RunRootRole).toString().toStdString());
    const QString notHere = remote ? tr("Not available for remote runs: its files are on "
                                        "another machine; use `ckpt` there.")
                                   : QString();
    m_repair->setEnabled(i.isValid() && i.data(roles::RepairableRole).toBool());
    m_repair->setToolTip(remote && m_repair->isEnabled()
                             ? tr("The link is repaired by the ckpt on the run's host")
                             : QString());
    m_repairAll->setEnabled(!repairableRuns().isEmpty());
    m_open->setEnabled(i.isValid() && !remote);
    m_moveAside->setEnabled(i.isValid() && !remote &&
                            i.data(roles::ProblemKindRole).toString() ==
                                QLatin1String("interrupted_save"));
    for (QWidget* b : {static_cast<QWidget*>(m_open), static_cast<QWidget*>(m_moveAside)})
        b->setToolTip(notHere);
    if (n > 0 && m_view->horizontalHeader()->sectionSize(0) < 60)
        m_view->resizeColumnsToContents();
}

} // namespace ckpt
