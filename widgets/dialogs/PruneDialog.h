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
    QSpinBox* keepLimitBox() const { return m_limit; }

signals:
    // A plan for the current policy is shown.
    void planned();

private:
    void replan();
    void showPlan(PrunePlan plan);

    Run m_run;
    QString m_host;
    JobRunner* m_runner;
    PrunePlan m_plan;
    bool m_planned = false;
    QComboBox* m_mode;
    QSpinBox* m_limit;
    QTableWidget* m_table;
    QLabel* m_summary;
    QPushButton* m_ok;
};

} // namespace ckpt
