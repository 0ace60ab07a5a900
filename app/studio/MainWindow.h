#pragma once

#include <QMainWindow>
#include <QStringList>

#include <optional>

class QAction;
class QLabel;
class QMenu;
class QSplitter;
class QTabWidget;
class QUndoStack;

namespace ckpt {

class CompareModel;
class CompareView;
class EpochActions;
class MessageBanner;
class EpochTableView;
class ExperimentsController;
class HelpActions;
class PlotPanel;
class PlotSync;
class ProblemsPanel;
class ProgressStrip;
class RemoteActions;
class RunSidebar;
class StudioActions;
class UndoActions;
struct StudioSettings;
class Workspace;

// The studio's window. It only wires the workspace (core) to the widgets:
// every piece of work happens in the workspace, off the GUI thread.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(Workspace* workspace, QWidget* parent = nullptr);
    ~MainWindow() override;

    void openFolders(const QStringList& folders);
    void setEmptyHint(const QString& text);

    Workspace* workspace() const { return m_workspace; }
    RunSidebar* sidebar() const { return m_sidebar; }
    EpochTableView* epochTable() const { return m_table; }
    PlotPanel* plotPanel() const { return m_plotPanel; }
    ProblemsPanel* problemsPanel() const { return m_problemsPanel; }
    CompareView* compareView() const { return m_compareView; }
    ExperimentsController* experiments() const { return m_experiments; }
    RemoteActions* remoteActions() const { return m_remote; }
    MessageBanner* banner() const { return m_banner; }
    ProgressStrip* progressStrip() const { return m_progress; }
    QUndoStack* undoStack() const { return m_undo; }
    QAction* action(const QString& name) const;

signals:
    // Emitted after the user confirmed a dialog the tests cannot click through.
    void confirmationShown(QWidget* dialog);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void connectWorkspace();
    StudioSettings settings();
    void updateActions();
    void updateTitle();

    void openDialog();
    void exportCsv();
    void onOperationFinished(const QString& root, const QString& action, const QString& error);
    // Where `link` of the run pointed before the relink just announced.
    std::optional<int> previousTarget(const QString& root, const QString& link) const;

    Workspace* m_workspace;
    CompareModel* m_compareModel;
    RunSidebar* m_sidebar;
    EpochTableView* m_table;
    PlotPanel* m_plotPanel;
    ProblemsPanel* m_problemsPanel;
    CompareView* m_compareView;
    ProgressStrip* m_progress;
    QLabel* m_status;
    QString m_summaryFolder; // the folder whose scan summary m_status may show
    QString m_summaryText;
    MessageBanner* m_banner;
    QSplitter* m_mainSplitter;
    QSplitter* m_rightSplitter;
    QTabWidget* m_tabs;
    QUndoStack* m_undo;
    PlotSync* m_plotSync;
    StudioActions* m_actions = nullptr;
    UndoActions* m_undoActions = nullptr;
    ExperimentsController* m_experiments = nullptr;
    EpochActions* m_epochActions = nullptr;
    RemoteActions* m_remote = nullptr;
    HelpActions* m_help = nullptr;
    QStringList m_comparedRuns; // the runs of the epochs on the Compare tab
};

} // namespace ckpt
