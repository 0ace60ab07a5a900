#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QTabWidget;
class QWidget;

namespace ckpt {

class CompareModel;
class CompareView;
class EpochTableView;
class ProblemsPanel;
class RunSidebar;
class Workspace;

// What the window does with the selected epochs and runs: compare two epochs,
// inspect a model, roll back or move best (RollbackConfirmDialog), verify,
// prune (PruneDialog) and repair a problem. Each asks the run's layout whether
// it can, shows the dialog, and hands the work to the workspace's operations.
class EpochActions final : public QObject
{
    Q_OBJECT
public:
    enum VerifyScope
    {
        VerifySelectedRuns,
        VerifySelectedEpochs,
        VerifyAll
    };
    struct Parts
    {
        QWidget* window = nullptr;
        Workspace* workspace = nullptr;
        RunSidebar* sidebar = nullptr;
        EpochTableView* table = nullptr;
        ProblemsPanel* problems = nullptr;
        CompareModel* compareModel = nullptr;
        CompareView* compareView = nullptr;
        QTabWidget* tabs = nullptr;
        QLabel* status = nullptr;
    };
    explicit EpochActions(const Parts& parts, QObject* parent = nullptr);

    void compareSelected();
    void inspectModel();
    void rollback(const QString& link);
    void verify(VerifyScope scope);
    void prune();
    void repairProblem(int row);

private:
    Parts m_parts;
};

} // namespace ckpt
