#include "RelinkCommand.h"

#include "session/RunOperations.h"
#include "session/Workspace.h"

namespace ckpt {

RelinkCommand::RelinkCommand(Workspace* workspace, QString root, QString runName, QString link,
                             int epoch)
    : m_workspace(workspace), m_root(std::move(root)), m_link(std::move(link)), m_epoch(epoch)
{
    setText(QObject::tr("%1 → epoch %2 (%3)").arg(m_link).arg(epoch).arg(runName));
}

void RelinkCommand::undo()
{
    m_workspace->operations()->undo(m_root);
    m_done = false;
}

void RelinkCommand::redo()
{
    if (m_done)
        return;
    m_workspace->operations()->relink(m_root, m_link, m_epoch, false);
    m_done = true;
}

} // namespace ckpt
