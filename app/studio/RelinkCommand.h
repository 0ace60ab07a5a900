#pragma once

#include <QString>
#include <QUndoCommand>

namespace ckpt {

class Workspace;

// Edit ▸ Undo for a relink that already happened on disk. Undo asks the core
// to restore the journalled previous target (Relinker::undo, or the far
// `ckpt relink --undo` for a remote run); redo relinks again. The first redo (pushing onto the
// stack) does nothing: the relink was made before the command existed, once the user had confirmed
// it.
class RelinkCommand final : public QUndoCommand
{
public:
    RelinkCommand(Workspace* workspace, QString root, QString runName, QString link, int epoch);

    void undo() override;
    void redo() override;

private:
    Workspace* m_workspace;
    QString m_root;
    QString m_link;
    int m_epoch;
    bool m_done = true;
};

} // namespace ckpt
