#pragma once

#include "launch/LaunchPrep.h"
#include "launch/LaunchSource.h"

#include <QDialog>

#include <memory>
#include <optional>
#include <vector>

class QButtonGroup;
class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
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
// every edit. Where it is planned and started is the LaunchSource's: this
// machine (LaunchPrep; Launch applies the plan and starts the trainer, a sweep
// as a local queue or one Slurm job array; a trainer that cannot start is
// undone) or the far `ckpt` over ssh (parameters read there, the plan a far
// dry run, Launch a detached far launch). Everything runs on worker threads;
// the dialog closes when the run has started and stays open on a failure.
class LaunchDialog final : public QDialog
{
    Q_OBJECT

public:
    // `initial`: the mode, and the config, template and backend to start
    // from (empty: the run's own).
    LaunchDialog(std::shared_ptr<const LaunchSource> source, const LaunchChoice& initial,
                 QWidget* parent = nullptr);
    // A run on this machine: `request` names the run, the epoch and the mode;
    // its template and config may be empty (the run's own are used, when known).
    explicit LaunchDialog(PrepRequest request, QWidget* parent = nullptr);
    ~LaunchDialog() override;

    // The launched run's root once Launch succeeded (a sweep: the first's).
    QString launchedRoot() const { return m_launchedRoot; }
    QStringList launchedRoots() const { return m_launchedRoots; }
    // Is a plan ready (and Launch enabled)?
    bool isPlanned() const { return m_preview.has_value(); }
    QTableWidget* parameterTable() const { return m_params; }
    QLineEdit* configEdit() const { return m_config; }
    QLineEdit* templateEdit() const { return m_template; }
    // A fork's folder name (local runs): suggested from the parent, the epoch
    // and the changed values until the user types one.
    QLineEdit* forkNameEdit() const { return m_forkName; }
    QPlainTextEdit* planView() const { return m_plan; }
    QPlainTextEdit* scriptView() const { return m_script; }
    QPushButton* launchButton() const { return m_launch; }
    QLabel* messageLabel() const { return m_error; }
    // What the parameter table's place shows while it is read or could not be.
    QLabel* parametersStatus() const { return m_paramsStatus; }
    QPushButton* retryButton() const { return m_retry; }
    SlurmForm* slurmForm() const { return m_slurm; }
    SweepEditor* sweepEditor() const { return m_sweep; }

signals:
    void planned();         // a new plan (or error) is shown
    void parametersShown(); // the parameter table is filled
    void parametersFailed(const QString& message);
    void launched(const QString& root);

private:
    LaunchChoice currentChoice() const;
    void replan();
    void loadParameters();
    void showPlan(std::shared_ptr<Result<LaunchPreview>> result);
    void showBackend();
    void fillParameters(const LaunchParameters& params);
    void markChanges();
    void markSwept();
    void launch();
    void launchDone(const QStringList& roots, const QString& error);
    std::vector<std::string> edits() const;
    bool isSlurm() const;

    std::shared_ptr<const LaunchSource> m_source;
    QButtonGroup* m_mode;
    QButtonGroup* m_backend;
    QLineEdit* m_config;
    QLineEdit* m_template;
    QLineEdit* m_forkName;
    bool m_forkNameTyped = false;
    QStackedWidget* m_paramsStack;
    QLabel* m_paramsStatus;
    QPushButton* m_retry;
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
    std::optional<LaunchPreview> m_preview;
    QString m_planError;
    QString m_launchError; // shown until the next edit
    bool m_launching = false;
    int m_sweptRow = -1; // the parameter the sweep varies, tinted in the table
    bool m_filled = false;
    QString m_launchedRoot;
    QStringList m_launchedRoots;
};

} // namespace ckpt
