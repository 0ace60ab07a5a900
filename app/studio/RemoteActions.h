#pragma once

#include "remote/RemoteCkpt.h"

#include <QObject>
#include <QStringList>

class QLabel;
class QWidget;

namespace ckpt {

class MessageBanner;
class RunSidebar;
class Workspace;

// The window's remote folders: File ▸ Connect to Cluster… (ConnectDialog),
// Retry Connection Now and Close Folder for the folder selected in the
// sidebar, and opening ssh:// URLs from the command line or Open Recent with
// the far `ckpt` remembered per host (settings: remote/ckpt/<host>).
class RemoteActions final : public QObject
{
    Q_OBJECT
public:
    RemoteActions(QWidget* window, Workspace* workspace, RunSidebar* sidebar, QLabel* status,
                  MessageBanner* banner, QObject* parent = nullptr);

    // Opens each ssh:// URL; the ones opened (for Open Recent).
    QStringList open(const QStringList& urls);
    // Shows the dialog; the URL it opened, empty when cancelled.
    QString connectDialog(const QStringList& recent);
    void retryCurrent();
    // A folder that cannot be opened says why in the banner, with Retry Now
    // and Close Folder; the banner goes once it connects or is closed.
    void connectionChanged(const QString& folder);
    void closeCurrent();
    // The folder of the sidebar's current row (a folder or one of its runs).
    QString currentFolder() const;
    RemoteOptions optionsFor(const QString& url) const;
    static QString notAvailableRemotely();

signals:
    void dialogShown(QWidget* dialog);

private:
    QWidget* m_window;
    Workspace* m_workspace;
    RunSidebar* m_sidebar;
    QLabel* m_status;
    MessageBanner* m_banner;
};

} // namespace ckpt
