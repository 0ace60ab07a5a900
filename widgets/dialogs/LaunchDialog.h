#pragma once

#include "launch/LaunchPrep.h"

#include <QDialog>

#include <memory>
#include <vector>

class QButtonGroup;
class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace ckpt {

class JobRunner;
class SlurmForm;
class SweepEditor;

// "Restart from this epoch…" / "Fork from this epoch…": the run's parameters
// in an editable table (changed values highlighted, "changed only" toggle),
// the command template, a sweep (one fork per value), the backend (local, or
// Slurm with its form and the exact batch script), and the full plan (what
// moves aside, what is relinked, the argv) recomputed in the background after
// every edit with LaunchPrep::prepare. Launch applies the plan and starts the
// trainer (a sweep: a local queue or one Slurm job array), also in the
// background; a trainer that cannot start is undone (LaunchPrep::undo). The
// dialog closes when the run has started.
class LaunchDialog final : public QDialog
{
    Q_OBJECT

public:
    // `request` names the run, the epoch and the mode; its template and config
    // may be empty (the run's own are used, when known).
    explicit LaunchDialog(PrepRequest request, QWidget* parent = nullptr);
    ~LaunchDialog() override;

    // The launched run's root once Launch succeeded (a sweep: the first's).
    QString launchedRoot() const { return m_launchedRoot; }
    QStringList launchedRoots() const { return m_launchedRoots; }
    // Is a plan ready (and Launch enabled)?
    bool isPlanned() const { return !m_prepared.empty(); }
    QTableWidget* parameterTable() const { return m_params; }
    QLineEdit* templateEdit() const { return m_template; }
    QPlainTextEdit* planView() const { return m_plan; }
    QPlainTextEdit* scriptView() const { return m_script; }
    QPushButton* launchButton() const { return m_launch; }
    QLabel* messageLabel() const { return m_error; }
    SlurmForm* slurmForm() const { return m_slurm; }
    SweepEditor* sweepEditor() const { return m_sweep; }

signals:
    void planned();         // a new plan (or error) is shown
    void parametersShown(); // the parameter table is filled
    void launched(const QString& root);

private:
    PrepRequest currentRequest() const;
    void replan();
    void loadParameters();
    void showPlan(std::shared_ptr<Result<std::vector<PreparedLaunch>>> result);
    void showBackend();
    void fillParameters(const ParamSet& params);
    void markChanges();
    void markSwept();
    void launch();
    void launchDone(const QStringList& roots, const QString& error);
    std::vector<ParamEdit> edits() const;
    bool isSlurm() const;

    PrepRequest m_request;
    QButtonGroup* m_mode;
    QButtonGroup* m_backend;
    QLineEdit* m_config;
    QLineEdit* m_template;
    QTableWidget* m_params;
    QCheckBox* m_changedOnly;
    SweepEditor* m_sweep;
    QGroupBox* m_slurmBox;
    SlurmForm* m_slurm;
    QTabWidget* m_views;
    QPlainTextEdit* m_plan;
    QPlainTextEdit* m_script;
    QLabel* m_error;
    QCheckBox* m_force;
    QPushButton* m_launch;
    QTimer* m_debounce;
    JobRunner* m_runner;
    JobRunner* m_paramsRunner;
    std::vector<PreparedLaunch> m_prepared;
    QString m_planError;
    QString m_launchError; // shown until the next edit
    bool m_launching = false;
    int m_sweptRow = -1; // the parameter the sweep varies, tinted in the table
    bool m_filled = false;
    QString m_launchedRoot;
    QStringList m_launchedRoots;
};

} // namespace ckpt
