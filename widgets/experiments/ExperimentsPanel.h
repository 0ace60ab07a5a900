#pragma once

#include "remote/RemoteRunsSource.h"

#include <QWidget>

#include <chrono>
#include <vector>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace ckpt {

class LaunchedRunsModel;
class LineageView;
class LogFollower;

// The Experiments tab: the runs Ckpt Studio launched (state in the sidebar's
// colours, backend, job id or pid, parent, start, live duration), the log of
// the selected run streamed as the trainer writes it (the last 512 kB of a
// long log, at most 20,000 lines kept), Stop with a confirmation, "Show in
// Browser", Forget (a finished run leaves the list; its files stay) and the
// lineage graph. Keys: Del stops, Shift+Del forgets, F5 refreshes, Return
// shows the run in the browser, Alt+L toggles following the log.
//
// This header names no launch types: the studio's window includes it next to
// the workspace, whose per-run RunState is another type of the same name.
class ExperimentsPanel final : public QWidget
{
    Q_OBJECT
public:
    // A model on the per-user registry, owned by the panel.
    explicit ExperimentsPanel(QWidget* parent = nullptr);
    // `model` is not owned.
    explicit ExperimentsPanel(LaunchedRunsModel* model, QWidget* parent = nullptr);
    ~ExperimentsPanel() override;

    LaunchedRunsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPlainTextEdit* console() const { return m_console; }
    LineageView* lineage() const { return m_lineage; }
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* showButton() const { return m_show; }
    QPushButton* forgetButton() const { return m_forget; }
    QCheckBox* followBox() const { return m_follow; }

    QString selectedRun() const;
    void selectRun(const QString& root);
    // Selects `root` as soon as the registry lists it (refreshing now) and
    // follows its log: for a run just launched.
    void showRun(const QString& root);
    // The far folders whose launched runs are listed too (marked with their host).
    void setRemoteSources(std::vector<RemoteRunsSource> sources);
    // Reads the runs again now (F5).
    void refresh();
    // SIGTERM to SIGKILL for local runs (default 10 s).
    void setStopGrace(std::chrono::milliseconds grace) { m_grace = grace; }

    QByteArray saveState() const;
    void restoreState(const QByteArray& state);

signals:
    void showInBrowserRequested(const QString& root);
    void selectedRunChanged(const QString& root);

private:
    void build();
    void onSelectionChanged();
    void onRefreshed();
    void follow(const QString& root, const QString& logPath);
    void append(const QString& text);
    void confirmStop();
    void confirmForget();
    void updateButtons();

    LaunchedRunsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QPlainTextEdit* m_console;
    QLabel* m_logTitle;
    QLabel* m_status;
    QCheckBox* m_follow;
    QPushButton* m_stop;
    QPushButton* m_show;
    QPushButton* m_refresh;
    QPushButton* m_forget;
    LineageView* m_lineage;
    QSplitter* m_split;
    QSplitter* m_bottom;
    LogFollower* m_follower = nullptr;
    QString m_followedRoot;
    QString m_followedLog;
    QString m_pendingShow;
    std::chrono::milliseconds m_grace{10000};
};

} // namespace ckpt
