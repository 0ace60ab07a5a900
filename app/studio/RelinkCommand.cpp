#include "RelinkCommand.h"

#include "session/RemoteFolders.h"
#include "session/RemoteOperations.h"
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
    // A remote run's journal is on its host: the ckpt there reverts the relink.
    if (m_workspace->isRemote(m_root))
        m_workspace->remoteOperations()->undo(m_root, m_link, m_epoch);
    else
        m_workspace->operations()->undo(m_root);
    m_done = false;
}

void RelinkCommand::redo()
{
    if (m_done)
        return;
    if (m_workspace->isRemote(m_root))
        m_workspace->remote()->relink(m_root, m_link, m_epoch, false);
    else
        m_workspace->operations()->relink(m_root, m_link, m_epoch, false);
    m_done = true;
}

} // namespace ckpt
