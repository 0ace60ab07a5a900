#pragma once

#include <QObject>

class QAction;
class QUndoStack;
class QWidget;

namespace ckpt {

class GuardedCommand;
class Workspace;

// Drives Edit ▸ Undo and Redo from a stack of GuardedCommands. A step is
// enabled only while its run is still as the step recorded it; otherwise it is
// disabled and its tooltip (and status tip) says why. Triggering checks once
// more, asks the step's confirmation, and only then moves the stack.
class UndoActions final : public QObject
{
    Q_OBJECT
public:
    UndoActions(QUndoStack* stack, Workspace* workspace, QAction* undo, QAction* redo,
                QWidget* window);

    // Re-evaluates both actions (the run changed, the stack moved).
    void refresh();

signals:
    // A step was refused: the reason, for the status bar.
    void refused(const QString& why);

private:
    void trigger(bool undo);
    GuardedCommand* next(bool undo) const;

    QUndoStack* m_stack;
    Workspace* m_workspace;
    QAction* m_undo;
    QAction* m_redo;
    QWidget* m_window;
};

} // namespace ckpt
