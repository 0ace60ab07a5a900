#pragma once

#include <QString>
#include <QUndoCommand>

#include <optional>

class QWidget;

namespace ckpt {

class Workspace;
struct Run;

// An Edit ▸ Undo/Redo step tied to one run and to the state of that run it was
// recorded against. Before the step is offered (UndoActions) it is checked
// against the run as it is now: when the run changed under it (restarted, a
// new epoch saved, a link moved from outside, an epoch saved again) it is not
// offered, and the reason says why. Before it runs, it asks the same
// confirmation as the action it repeats or reverts.
class GuardedCommand : public QUndoCommand
{
public:
    GuardedCommand(Workspace* workspace, QString root, const QString& text);

    const QString& root() const { return m_root; }
    // Why undo()/redo() cannot run on the run as held now; empty: it can.
    virtual QString undoBlocked() const = 0;
    virtual QString redoBlocked() const = 0;
    // The confirmation the action itself asks for; false: the user declined.
    virtual bool confirmUndo(QWidget* parent) = 0;
    virtual bool confirmRedo(QWidget* parent) = 0;

    // An epoch's identity: its model file's inode and mtime (or its save time),
    // so that an epoch saved again under the same number does not pass for it.
    static QString epochStamp(const Run& run, std::optional<int> epoch);
    // The newest epoch's number and stamp: a restart or a new save changes it.
    static QString newestStamp(const Run& run);

protected:
    Workspace* workspace() const { return m_workspace; }
    // The run, or nullptr with `why` set when it is no longer open.
    const Run* heldRun(QString* why) const;
    QString runName() const;

private:
    Workspace* m_workspace;
    QString m_root;
};

} // namespace ckpt
