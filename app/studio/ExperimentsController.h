#pragma once

#include "launch/LaunchPlan.h"

#include <QObject>
#include <QStringList>

class QAction;
class QLabel;
class QMainWindow;
class QTabWidget;

namespace ckpt {

class EpochTableView;
class ExperimentsPanel;
class RunSidebar;
class Workspace;

// Wires the experiment manager into the window: the Experiments tab (Ctrl+4)
// with its panel, Restart/Fork from the selected epoch through LaunchDialog
// (the launched run shows in the panel at once, selected, its log followed),
// and "Show in Browser" (the run's folder opened if needed, the run selected
// in the sidebar). The panel's layout is remembered when the window closes.
class ExperimentsController final : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        QMainWindow* window = nullptr;
        Workspace* workspace = nullptr;
        RunSidebar* sidebar = nullptr;
        EpochTableView* table = nullptr;
        QTabWidget* tabs = nullptr;
        QLabel* status = nullptr;
        QAction* focusAction = nullptr; // Go to Experiments
    };
    explicit ExperimentsController(const Parts& parts);

    ExperimentsPanel* panel() const { return m_panel; }
    void launchFrom(LaunchPlan::Mode mode);
    void showInBrowser(const QString& root);

signals:
    // Folders the window should open (a fork outside the open folders).
    void openRequested(const QStringList& folders);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void focus();

    Parts m_parts;
    ExperimentsPanel* m_panel;
    QString m_selectWhenAdded;
};

} // namespace ckpt
