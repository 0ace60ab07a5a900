#include "PruneCommand.h"

#include "model/Run.h"
#include "session/RunOperations.h"
#include "session/Workspace.h"

#include <QMessageBox>
#include <QPushButton>
#include <QStringList>

#include <sys/stat.h>

namespace ckpt {

namespace {
QString epochList(const std::vector<TrashedEpoch>& trashed)
{
    QStringList numbers;
    for (const TrashedEpoch& t : trashed)
        if (t.epoch >= 0)
            numbers << QString::number(t.epoch);
    return numbers.join(QStringLiteral(", "));
}

bool exists(const std::string& path, struct stat* st = nullptr)
{
    struct stat local
    {};
    return ::lstat(path.c_str(), st ? st : &local) == 0;
}
} // namespace

PruneCommand::PruneCommand(Workspace* workspace, const QString& root,
                           std::vector<TrashedEpoch> trashed)
    : GuardedCommand(
          workspace, root,
          QObject::tr("prune of epochs %1 (%2)").arg(epochList(trashed), workspace->runName(root))),
      m_trashed(std::move(trashed))
{
    if (const Run* run = workspace->run(root))
        m_layout = QString::fromStdString(run->layout);
}

QString PruneCommand::undoBlocked() const
{
    QString why;
    if (!heldRun(&why))
        return why;
    for (const TrashedEpoch& t : m_trashed) {
        if (!exists(t.item.trashed))
            return QObject::tr("%1 is no longer in the trash (emptied?).")
                .arg(QString::fromStdString(t.item.trashed));
        if (exists(t.item.original))
            return QObject::tr("%1 exists again (saved anew?): restoring would replace it.")
                .arg(QString::fromStdString(t.item.original));
    }
    return {};
}

QString PruneCommand::redoBlocked() const
{
    QString why;
    if (!heldRun(&why))
        return why;
    for (const TrashedEpoch& t : m_trashed) {
        struct stat st
        {};
        if (t.epoch >= 0 &&
            (!exists(t.item.original, &st) || static_cast<std::uint64_t>(st.st_ino) != t.inode ||
             static_cast<std::uint64_t>(st.st_dev) != t.device))
            return QObject::tr("%1 is not the directory that was restored any more.")
                .arg(QString::fromStdString(t.item.original));
    }
    return {};
}

bool PruneCommand::confirmUndo(QWidget*)
{
    return true; // putting epochs back loses nothing
}

bool PruneCommand::confirmRedo(QWidget* parent)
{
    QMessageBox box(QMessageBox::Question, QObject::tr("Prune again"),
                    QObject::tr("Move epochs %1 of %2 to the trash again?")
                        .arg(epochList(m_trashed), runName()),
                    QMessageBox::Cancel, parent);
    QPushButton* go = box.addButton(QObject::tr("Move to Trash"), QMessageBox::DestructiveRole);
    // Enter must never be the destructive answer.
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == static_cast<QAbstractButton*>(go);
}

void PruneCommand::undo()
{
    workspace()->operations()->restore(root(), m_layout, m_trashed);
    m_done = false;
}

void PruneCommand::redo()
{
    if (m_done)
        return;
    if (const Run* run = workspace()->run(root()))
        workspace()->operations()->trashAgain(*run, m_trashed);
    m_done = true;
}

} // namespace ckpt
