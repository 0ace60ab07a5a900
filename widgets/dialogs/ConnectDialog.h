#pragma once

#include "remote/RemoteCkpt.h"

#include <QDialog>
#include <QStringList>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ckpt {

class JobRunner;

// File ▸ Connect to Cluster…: where a save directory lives on another machine.
// The host picker lists ~/.ssh/config's Host names (free text allowed), then
// user, port, the far folder and, optionally, where `ckpt` is on that host;
// recent remote folders fill every field at once. Test and Connect probe the
// far `ckpt` in the background (RemoteCkpt::probe): a failure stays in the
// dialog, naming the host and what to do; Connect closes it only once the
// probe succeeded.
class ConnectDialog final : public QDialog
{
    Q_OBJECT
public:
    // `recent`: ssh:// URLs, newest first. `baseOptions`: the ssh command
    // (e.g. from CKPT_SSH_COMMAND) the probe uses.
    ConnectDialog(const QStringList& hosts, const QStringList& recent,
                  const RemoteOptions& baseOptions, QWidget* parent = nullptr);
    ~ConnectDialog() override;

    // The folder as typed, canonical: ssh://[user@]host[:port]/path.
    QString url() const;
    // The far `ckpt`: as typed, or `ckpt` on the far PATH.
    QString ckptPath() const;
    void setCkptPath(const QString& path);
    RemoteOptions options() const;

    QComboBox* hostBox() const { return m_host; }
    QLineEdit* pathEdit() const { return m_path; }
    QPushButton* testButton() const { return m_test; }
    QLabel* resultLabel() const { return m_result; }

    void accept() override;

signals:
    // A probe ended: `ok`, and what the dialog shows.
    void probed(bool ok, const QString& text);

private:
    void fillFrom(const QString& url);
    void probe(bool thenAccept);
    void updateButtons();

    RemoteOptions m_base;
    QComboBox* m_recent;
    QComboBox* m_host;
    QLineEdit* m_user;
    QSpinBox* m_port;
    QLineEdit* m_path;
    QLineEdit* m_ckpt;
    QLabel* m_result;
    QPushButton* m_test;
    QDialogButtonBox* m_buttons;
    JobRunner* m_runner;
    bool m_accepting = false;
};

} // namespace ckpt
