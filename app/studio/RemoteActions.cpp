#include "RemoteActions.h"

#include "common/MessageBanner.h"
#include "dialogs/ConnectDialog.h"
#include "models/ModelRoles.h"
#include "models/RunTreeModel.h"
#include "remote/RemoteTarget.h"
#include "remote/SshConfigHosts.h"
#include "session/RemoteFolders.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"

#include <QLabel>
#include <QSettings>
#include <QTreeView>

namespace ckpt {

namespace {
QString hostKey(const QString& url)
{
    auto t = RemoteTarget::parse(url.toStdString());
    return t ? QStringLiteral("remote/ckpt/") + QString::fromStdString(t->display()) : QString();
}
} // namespace

RemoteActions::RemoteActions(QWidget* window, Workspace* workspace, RunSidebar* sidebar,
                             QLabel* status, MessageBanner* banner, QObject* parent)
    : QObject(parent), m_window(window), m_workspace(workspace), m_sidebar(sidebar),
      m_status(status), m_banner(banner)
{}

void RemoteActions::connectionChanged(const QString& folder)
{
    RemoteFolders* remote = m_workspace->remote();
    if (!remote->contains(folder) ||
        remote->connection(folder) != RemoteFolders::Connection::Failed) {
        m_banner->dismissTopic(folder);
        return;
    }
    const QString message = remote->connectionMessage(folder);
    m_status->setText(message);
    m_banner->showMessage(
        MessageBanner::Kind::Error,
        tr("<b>Cannot open %1</b><br>%2").arg(folder.toHtmlEscaped(), message.toHtmlEscaped()),
        {{tr("Retry Now"), [remote, folder] { remote->retry(folder); }},
         {tr("Close Folder"),
          [this, folder] {
              m_workspace->closeFolder(folder);
              m_status->setText(tr("Closed %1").arg(folder));
          }}},
        folder);
}

QString RemoteActions::notAvailableRemotely()
{
    return tr("Not available for remote runs yet: open the folder on the cluster's own "
              "machine, or use `ckpt` there.");
}

RemoteOptions RemoteActions::optionsFor(const QString& url) const
{
    RemoteOptions o = RemoteFolders::defaultOptions();
    if (const QString ckpt = QSettings().value(hostKey(url)).toString(); !ckpt.isEmpty())
        o.ckpt = ckpt.toStdString();
    return o;
}

QStringList RemoteActions::open(const QStringList& urls)
{
    QStringList opened;
    for (const QString& url : urls)
        if (const QString key = m_workspace->openRemote(url, optionsFor(url)); !key.isEmpty())
            opened << key;
    return opened;
}

QString RemoteActions::connectDialog(const QStringList& recent)
{
    QStringList remote;
    for (const QString& r : recent)
        if (RemoteFolders::looksRemote(r))
            remote << r;
    QStringList hosts;
    for (const std::string& h : SshConfigHosts::readUserConfig())
        hosts << QString::fromStdString(h);
    ConnectDialog dialog(hosts, remote, RemoteFolders::defaultOptions(), m_window);
    if (!remote.isEmpty())
        dialog.setCkptPath(QSettings().value(hostKey(remote.first())).toString());
    emit dialogShown(&dialog);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    const QString url = dialog.url();
    if (const QString key = hostKey(url); !key.isEmpty()) {
        if (dialog.ckptPath().isEmpty())
            QSettings().remove(key);
        else
            QSettings().setValue(key, dialog.ckptPath());
    }
    return m_workspace->openRemote(url, dialog.options());
}

QString RemoteActions::currentFolder() const
{
    const QModelIndex index = m_sidebar->view()->currentIndex();
    if (!index.isValid())
        return {};
    if (index.data(roles::NodeKindRole).toInt() == static_cast<int>(RunTreeModel::NodeKind::Folder))
        return index.data(roles::PathRole).toString();
    const RunState* s = m_workspace->state(index.data(roles::RunRootRole).toString());
    return s ? s->folder : QString();
}

void RemoteActions::retryCurrent()
{
    const QString folder = currentFolder();
    if (!m_workspace->remote()->contains(folder)) {
        m_status->setText(tr("Select a remote folder (or one of its runs) to connect again."));
        return;
    }
    m_workspace->remote()->retry(folder);
}

void RemoteActions::closeCurrent()
{
    const QString folder = currentFolder();
    if (folder.isEmpty()) {
        m_status->setText(tr("Select a folder (or one of its runs) to close."));
        return;
    }
    m_workspace->closeFolder(folder);
    m_banner->dismissTopic(folder);
    m_status->setText(tr("Closed %1").arg(folder));
}

} // namespace ckpt
