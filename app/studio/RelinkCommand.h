#pragma once

#include "GuardedCommand.h"

#include <optional>

namespace ckpt {

// Edit ▸ Undo for a relink that already happened on disk. Undo asks the core
// to restore the journalled previous target (Relinker::undo, or the far
// `ckpt relink --undo` for a remote run); redo relinks again. The first redo
// (pushing onto the stack) does nothing: the relink was made before the
// command existed, once the user had confirmed it.
//
// It holds only while the run is as it was: the link where the step left it,
// the epochs it moves between and the newest epoch unchanged (same model file).
// A restart that saved a new epoch 10 makes "last → epoch 10" stale.
class RelinkCommand final : public GuardedCommand
{
public:
    // `from`: the epoch the link designated before the relink, when known.
    RelinkCommand(Workspace* workspace, const QString& root, QString link, int epoch,
                  std::optional<int> from);

    QString undoBlocked() const override;
    QString redoBlocked() const override;
    bool confirmUndo(QWidget* parent) override;
    bool confirmRedo(QWidget* parent) override;
    void undo() override;
    void redo() override;

private:
    // Why the run no longer matches with the link at `expected`; empty: it does.
    QString changedSince(std::optional<int> expected) const;
    bool confirm(QWidget* parent, std::optional<int> epoch);

    QString m_link;
    int m_epoch;
    std::optional<int> m_from;
    QString m_epochStamp;
    QString m_fromStamp;
    QString m_newest;
    bool m_done = true;
    bool m_force = false;
};

} // namespace ckpt
