#pragma once

#include "GuardedCommand.h"
#include "ops/Pruner.h"

#include <vector>

namespace ckpt {

// Edit ▸ Undo for a prune that moved epochs to the desktop trash: undo puts
// them back (Pruner::restore renames each back and removes its .trashinfo),
// redo moves the same directories to the trash again. The first redo (pushing
// onto the stack) does nothing: the prune already happened.
//
// Undo holds while every trashed epoch is still in the trash and its place in
// the run is free (no new save of that number); redo while each restored
// directory is still the one that was trashed.
class PruneCommand final : public GuardedCommand
{
public:
    PruneCommand(Workspace* workspace, const QString& root, std::vector<TrashedEpoch> trashed);

    QString undoBlocked() const override;
    QString redoBlocked() const override;
    bool confirmUndo(QWidget* parent) override;
    bool confirmRedo(QWidget* parent) override;
    void undo() override;
    void redo() override;

    const std::vector<TrashedEpoch>& trashed() const { return m_trashed; }
    // Where a redo put them: the trash names are new each time.
    void setTrashed(std::vector<TrashedEpoch> trashed) { m_trashed = std::move(trashed); }

private:
    std::vector<TrashedEpoch> m_trashed;
    QString m_layout;
    bool m_done = true;
};

} // namespace ckpt
