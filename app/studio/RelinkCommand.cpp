#include "RelinkCommand.h"

#include "dialogs/RollbackConfirmDialog.h"
#include "model/Run.h"
#include "session/RemoteFolders.h"
#include "session/RemoteOperations.h"
#include "session/RunOperations.h"
#include "session/Workspace.h"

#include <QMessageBox>

namespace ckpt {

namespace {
QString epochText(std::optional<int> epoch)
{
    return epoch ? QObject::tr("epoch %1").arg(*epoch) : QObject::tr("nothing");
}
} // namespace

RelinkCommand::RelinkCommand(Workspace* workspace, const QString& root, QString link, int epoch,
                             std::optional<int> from)
    : GuardedCommand(
          workspace, root,
          QObject::tr("%1 → epoch %2 (%3)").arg(link).arg(epoch).arg(workspace->runName(root))),
      m_link(std::move(link)), m_epoch(epoch), m_from(from)
{
    if (const Run* run = workspace->run(root)) {
        m_epochStamp = epochStamp(*run, m_epoch);
        m_fromStamp = epochStamp(*run, m_from);
        m_newest = newestStamp(*run);
    }
}

QString RelinkCommand::changedSince(std::optional<int> expected) const
{
    QString why;
    const Run* run = heldRun(&why);
    if (!run)
        return why;
    const QString name = runName();
    const auto now = run->linkedEpoch(m_link.toStdString());
    if (now != expected)
        return QObject::tr("`%1` of %2 points at %3 now, not %4: it was moved since.")
            .arg(m_link, name, epochText(now), epochText(expected));
    if (epochStamp(*run, m_epoch) != m_epochStamp)
        return QObject::tr("Epoch %1 of %2 was deleted or saved again since (a restart?).")
            .arg(m_epoch)
            .arg(name);
    if (m_from && epochStamp(*run, m_from) != m_fromStamp)
        return QObject::tr("Epoch %1 of %2 was deleted or saved again since (a restart?).")
            .arg(*m_from)
            .arg(name);
    if (newestStamp(*run) != m_newest)
        return QObject::tr("%1 saved epoch %2 since.")
            .arg(name)
            .arg(run->epochs.empty() ? 0 : run->epochs.back().number);
    return {};
}

QString RelinkCommand::undoBlocked() const
{
    return changedSince(m_epoch);
}

QString RelinkCommand::redoBlocked() const
{
    if (!m_from)
        return QObject::tr("Where `%1` pointed before is not known.").arg(m_link);
    return changedSince(m_from);
}

bool RelinkCommand::confirm(QWidget* parent, std::optional<int> epoch)
{
    const Run* run = workspace()->run(root());
    if (!run || !epoch)
        return false;
    if (workspace()->isRemote(root())) {
        return QMessageBox::question(parent, QObject::tr("Move %1").arg(m_link),
                                     QObject::tr("Point `%1` of %2 at epoch %3 again?")
                                         .arg(m_link, runName())
                                         .arg(*epoch)) == QMessageBox::Yes;
    }
    // The same check Make Last runs: the target's record, model and checksum.
    RollbackConfirmDialog dialog(RollbackConfirmDialog::requestFor(*run, runName(), m_link, *epoch),
                                 parent);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    m_force = dialog.force();
    return true;
}

bool RelinkCommand::confirmUndo(QWidget* parent)
{
    if (m_from)
        return confirm(parent, m_from);
    return QMessageBox::question(parent, QObject::tr("Undo %1").arg(text()),
                                 QObject::tr("Put `%1` of %2 back as it was before (it designated "
                                             "no epoch of the run)?")
                                     .arg(m_link, runName())) == QMessageBox::Yes;
}

bool RelinkCommand::confirmRedo(QWidget* parent)
{
    return confirm(parent, m_epoch);
}

void RelinkCommand::undo()
{
    // A remote run's journal is on its host: the ckpt there reverts the relink.
    if (workspace()->isRemote(root()))
        workspace()->remoteOperations()->undo(root(), m_link, m_epoch);
    else
        workspace()->operations()->undo(root());
    m_done = false;
}

void RelinkCommand::redo()
{
    if (m_done)
        return;
    if (workspace()->isRemote(root()))
        workspace()->remote()->relink(root(), m_link, m_epoch, false);
    else
        workspace()->operations()->relink(root(), m_link, m_epoch, false, m_force);
    m_done = true;
}

} // namespace ckpt
