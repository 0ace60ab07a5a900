#include "EpochActions.h"

#include "compare/CompareView.h"
#include "dialogs/PruneDialog.h"
#include "dialogs/RollbackConfirmDialog.h"
#include "layout/Layout.h"
#include "model/ModelInspectorDialog.h"
#include "models/CompareModel.h"
#include "models/ProblemsModel.h"
#include "remote/RemoteTarget.h"
#include "session/RemoteFolders.h"
#include "session/RemoteOperations.h"
#include "session/RunOperations.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QTabWidget>

#include <map>

namespace ckpt {

EpochActions::EpochActions(const Parts& parts, QObject* parent) : QObject(parent), m_parts(parts) {}

void EpochActions::compareSelected()
{
    const auto selected = m_parts.table->selectedEpochs();
    if (selected.size() != 2)
        return;
    Workspace* ws = m_parts.workspace;
    std::vector<CompareSide> sides;
    std::vector<const Run*> runs;
    QStringList modelPaths;
    for (const EpochRef& ref : selected) {
        const auto* state = ws->state(ref.root);
        auto side = state ? CompareSide::of(ws->runName(ref.root), state->run, state->history.get(),
                                            ref.epoch)
                          : std::nullopt;
        if (!side)
            return;
        modelPaths << QString::fromStdString(state->run.modelPath(side->epoch));
        runs.push_back(&state->run);
        sides.push_back(std::move(*side));
    }
    // The metadata comes from the state held here, wherever the runs live.
    m_parts.compareModel->setSides(sides[0], sides[1]);
    auto label = [](const CompareSide& s) {
        return tr("%1 epoch %2").arg(s.runName).arg(s.epoch.number);
    };
    const bool remoteA = ws->isRemote(selected[0].root);
    const bool remoteB = ws->isRemote(selected[1].root);
    if (!remoteA && !remoteB) {
        m_parts.compareView->setModelFiles(modelPaths[0], label(sides[0]), modelPaths[1],
                                           label(sides[1]));
    } else if (auto work = ws->remoteOperations()->diffWork(*runs[0], sides[0].epoch.number,
                                                            *runs[1], sides[1].epoch.number)) {
        m_parts.compareView->setRemoteWeights(
            std::move(*work), label(sides[0]), label(sides[1]),
            ws->remoteOperations()->host(remoteA ? selected[0].root : selected[1].root));
    } else {
        m_parts.compareView->setWeightsUnavailable(QString::fromStdString(work.error().message));
    }
    m_parts.tabs->setCurrentWidget(m_parts.compareView);
}

void EpochActions::inspectModel()
{
    const auto selected = m_parts.table->selectedEpochs();
    if (selected.size() != 1)
        return;
    Workspace* ws = m_parts.workspace;
    const EpochRef ref = selected.first();
    const auto* state = ws->state(ref.root);
    const Epoch* epoch = state ? state->run.findEpoch(ref.epoch) : nullptr;
    if (!epoch || !epoch->hasModel()) {
        m_parts.status->setText(tr("This epoch has no model file."));
        return;
    }
    const QString title = tr("%1 · epoch %2").arg(ws->runName(ref.root)).arg(epoch->number);
    const QString model = QString::fromStdString(state->run.modelPath(*epoch));
    if (!ws->isRemote(ref.root)) {
        ModelInspectorDialog::showFile(model, m_parts.window, title);
        return;
    }
    // Read where the file is: only the far ckpt's answer travels.
    auto work = ws->remoteOperations()->inspectWork(state->run, epoch->number);
    if (!work) {
        m_parts.status->setText(QString::fromStdString(work.error().message));
        return;
    }
    const auto target = RemoteTarget::parse(model.toStdString());
    ModelInspectorDialog::showRemote(std::move(*work),
                                     target ? QString::fromStdString(target->path) : model,
                                     ws->remoteOperations()->host(ref.root), m_parts.window, title);
}

void EpochActions::rollback(const QString& link)
{
    const auto selected = m_parts.table->selectedEpochs();
    const Run* run = selected.size() == 1 ? m_parts.workspace->run(selected.first().root) : nullptr;
    if (!run)
        return;
    const Layout* layout = layoutOf(*run);
    if (!layout || !layout->linksMovable()) {
        m_parts.status->setText(
            tr("%1 runs have no movable links.").arg(QString::fromStdString(run->layout)));
        return;
    }
    const EpochRef ref = selected.first();
    if (m_parts.workspace->isRemote(ref.root)) {
        // The far ckpt checks the target and moves the link atomically; the
        // local checks (CRC recomputed here) would read files that are not here.
        Workspace* ws = m_parts.workspace;
        const QString host = ws->remote()->host(ws->remote()->folderOf(ref.root));
        const auto answer = QMessageBox::question(
            m_parts.window, tr("Move %1").arg(link),
            tr("Point `%1` of %2 at epoch %3 on %4?\n\nThe ckpt on %4 checks the epoch and moves "
               "the link atomically. If the connection drops meanwhile, the run is read again to "
               "find out whether it moved.")
                .arg(link, ws->runName(ref.root))
                .arg(ref.epoch)
                .arg(host));
        if (answer == QMessageBox::Yes)
            ws->remote()->relink(ref.root, link, ref.epoch);
        return;
    }
    RollbackConfirmDialog dialog(RollbackConfirmDialog::requestFor(
                                     *run, m_parts.workspace->runName(ref.root), link, ref.epoch),
                                 m_parts.window);
    if (dialog.exec() == QDialog::Accepted)
        m_parts.workspace->operations()->relink(ref.root, link, ref.epoch, true, dialog.force());
}

void EpochActions::verify(VerifyScope scope)
{
    std::map<QString, std::vector<int>> what;
    if (scope == VerifySelectedEpochs) {
        for (const EpochRef& ref : m_parts.table->selectedEpochs())
            what[ref.root].push_back(ref.epoch);
    } else {
        const QStringList roots =
            scope == VerifyAll ? m_parts.workspace->runRoots() : m_parts.sidebar->selectedRuns();
        for (const QString& root : roots)
            what[root] = {};
    }
    if (m_parts.workspace->isVerifying())
        m_parts.status->setText(tr("A verification is already running."));
    else
        m_parts.workspace->verify(what);
}

void EpochActions::prune()
{
    const QStringList runs = m_parts.sidebar->selectedRuns();
    Workspace* ws = m_parts.workspace;
    const Run* run = runs.size() == 1 ? ws->run(runs.first()) : nullptr;
    if (!run || run->epochs.empty())
        return;
    if (const Layout* layout = layoutOf(*run); !layout || !layout->canDeleteEpochs()) {
        m_parts.status->setText(
            tr("%1 runs cannot be pruned.").arg(QString::fromStdString(run->layout)));
        return;
    }
    const bool remote = ws->isRemote(runs.first());
    // The dialog shows Pruner's plan itself: the rule lives in core/ops only.
    PruneDialog dialog(ws->runName(runs.first()), *run, m_parts.window,
                       remote ? ws->remoteOperations()->host(runs.first()) : QString());
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (remote)
        ws->remoteOperations()->prune(*run, dialog.policy(), dialog.epochsToDelete());
    else
        ws->operations()->prune(*run, dialog.policy(), dialog.toTrash());
}

void EpochActions::repairProblem(int row)
{
    const Problem* problem = m_parts.workspace->problems()->problemAt(row);
    if (!problem)
        return;
    const QString root = m_parts.workspace->problems()->rootAt(row);
    const QString link = QFileInfo(QString::fromStdString(problem->path)).fileName();
    if (m_parts.workspace->isRemote(root))
        m_parts.workspace->remoteOperations()->repair(root, link);
    else
        m_parts.workspace->operations()->repair(root, link);
}

} // namespace ckpt
