#include "UndoActions.h"

#include "GuardedCommand.h"
#include "session/Workspace.h"

#include <QAction>
#include <QUndoStack>
#include <QWidget>

namespace ckpt {

UndoActions::UndoActions(QUndoStack* stack, Workspace* workspace, QAction* undo, QAction* redo,
                         QWidget* window)
    : QObject(window), m_stack(stack), m_workspace(workspace), m_undo(undo), m_redo(redo),
      m_window(window)
{
    connect(m_undo, &QAction::triggered, this, [this] { trigger(true); });
    connect(m_redo, &QAction::triggered, this, [this] { trigger(false); });
    connect(m_stack, &QUndoStack::indexChanged, this, &UndoActions::refresh);
    const auto runChanged = [this](const QString&) { refresh(); };
    connect(m_workspace, &Workspace::runChanged, this, runChanged);
    connect(m_workspace, &Workspace::runAdded, this, runChanged);
    connect(m_workspace, &Workspace::runRemoved, this, runChanged);
    connect(m_workspace, &Workspace::epochAdded, this, runChanged);
    connect(m_workspace, &Workspace::operationFinished, this, runChanged);
    refresh();
}

GuardedCommand* UndoActions::next(bool undo) const
{
    const int index = undo ? m_stack->index() - 1 : m_stack->index();
    if (index < 0 || index >= m_stack->count())
        return nullptr;
    // Only GuardedCommands are pushed (MainWindow).
    return static_cast<GuardedCommand*>(const_cast<QUndoCommand*>(m_stack->command(index)));
}

void UndoActions::refresh()
{
    for (const bool undo : {true, false}) {
        QAction* action = undo ? m_undo : m_redo;
        const QString verb = undo ? tr("Undo") : tr("Redo");
        GuardedCommand* command = next(undo);
        if (!command) {
            action->setEnabled(false);
            action->setText(undo ? tr("&Undo") : tr("&Redo"));
            action->setToolTip(tr("Nothing to %1").arg(verb.toLower()));
            action->setStatusTip({});
            continue;
        }
        const QString why = undo ? command->undoBlocked() : command->redoBlocked();
        action->setText((undo ? tr("&Undo %1") : tr("&Redo %1")).arg(command->text()));
        action->setEnabled(why.isEmpty());
        const QString tip = why.isEmpty()
                                ? tr("%1 %2").arg(verb, command->text())
                                : tr("Cannot %1 %2: %3").arg(verb.toLower(), command->text(), why);
        action->setToolTip(tip);
        action->setStatusTip(why.isEmpty() ? QString() : tip);
    }
}

void UndoActions::trigger(bool undo)
{
    GuardedCommand* command = next(undo);
    if (!command)
        return;
    // The run may have changed since the menu was shown.
    const QString why = undo ? command->undoBlocked() : command->redoBlocked();
    if (!why.isEmpty()) {
        emit refused(
            tr("Cannot %1 %2: %3").arg(undo ? tr("undo") : tr("redo"), command->text(), why));
        refresh();
        return;
    }
    if (!(undo ? command->confirmUndo(m_window) : command->confirmRedo(m_window)))
        return;
    if (undo)
        m_stack->undo();
    else
        m_stack->redo();
}

} // namespace ckpt
