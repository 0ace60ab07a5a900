#pragma once

#include "model/Run.h"
#include "ops/KeepPolicy.h"
#include "ops/Pruner.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace ckpt {

class JobRunner;

// Previews a keep policy on one run before anything is deleted by showing
// exactly what Pruner::plan says (computed in the background, since it reads
// the links and sizes on disk): which epochs go, which stay and why (newest,
// last, best, the policy), and the bytes freed. Accepting hands the policy
// back; the caller prunes, which plans again and re-checks each epoch.
//
// Nothing is destroyed by a reflex: Cancel is the default button (Enter
// cancels), the first choice moves the epochs to the desktop trash (undoable),
// and where the trash cannot take them the dialog says why before anything
// happens and offers only an explicit "Delete Permanently".
class PruneDialog final : public QDialog
{
    Q_OBJECT
public:
    // `remoteHost` set: the run lives there; the plan is made from the run as
    // held (Pruner::planHeld) and the far `ckpt prune` plans again on accept.
    PruneDialog(const QString& runName, Run snapshot, QWidget* parent = nullptr,
                const QString& remoteHost = {});
    ~PruneDialog() override;

    KeepPolicy policy() const;
    // The plan for the current policy; empty while it is being made.
    const PrunePlan* plan() const { return m_planned ? &m_plan : nullptr; }
    std::vector<int> epochsToDelete() const;
    quint64 bytesFreed() const { return m_planned ? m_plan.bytesFreed : 0; }
    // Accepted with "Move to Trash" (true) or "Delete Permanently" (false).
    bool toTrash() const { return m_toTrash; }
    // Why the trash cannot take the epochs; empty when it can (or not known yet).
    QString trashProblem() const { return m_trashProblem; }
    QSpinBox* keepLimitBox() const { return m_limit; }
    QPushButton* trashButton() const { return m_trash; }
    QPushButton* deleteButton() const { return m_delete; }

signals:
    // A plan for the current policy is shown.
    void planned();

private:
    void replan();
    void showPlan(PrunePlan plan, QString trashProblem);

    Run m_run;
    QString m_host;
    JobRunner* m_runner;
    PrunePlan m_plan;
    bool m_planned = false;
    QComboBox* m_mode;
    QSpinBox* m_limit;
    QTableWidget* m_table;
    QLabel* m_summary;
    QPushButton* m_trash;
    QPushButton* m_delete;
    QString m_trashProblem;
    bool m_toTrash = false;
};

} // namespace ckpt
