#include "GuardedCommand.h"

#include "model/Run.h"
#include "session/Workspace.h"

namespace ckpt {

GuardedCommand::GuardedCommand(Workspace* workspace, QString root, const QString& text)
    : m_workspace(workspace), m_root(std::move(root))
{
    setText(text);
}

QString GuardedCommand::epochStamp(const Run& run, std::optional<int> epoch)
{
    const Epoch* e = epoch ? run.findEpoch(*epoch) : nullptr;
    if (!e)
        return {};
    if (const EpochFile* f = e->modelFile(); f && f->present)
        return QStringLiteral("%1:%2:%3").arg(e->number).arg(f->inode).arg(f->mtimeNs);
    return QStringLiteral("%1:%2").arg(e->number).arg(QString::fromStdString(e->savedAt));
}

QString GuardedCommand::newestStamp(const Run& run)
{
    return run.epochs.empty() ? QString() : epochStamp(run, run.epochs.back().number);
}

const Run* GuardedCommand::heldRun(QString* why) const
{
    const Run* run = m_workspace->run(m_root);
    if (!run)
        *why = QObject::tr("%1 is no longer open.").arg(m_root);
    return run;
}

QString GuardedCommand::runName() const
{
    return m_workspace->runName(m_root);
}

} // namespace ckpt
