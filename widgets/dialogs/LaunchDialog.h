#pragma once

#include "launch/LaunchPrep.h"

#include <QDialog>

#include <memory>

class QButtonGroup;
class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTimer;

namespace ckpt {

class JobRunner;

// "Restart from this epoch…" / "Fork from this epoch…": the run's parameters
// in an editable table (changed values highlighted, "changed only" toggle),
// the command template, and the full plan (what moves aside, what is
// relinked, the argv) recomputed in the background after every edit with
// LaunchPrep::prepare. Launch applies the plan and starts the trainer, also in
// the background; the dialog closes when the run has started.
class LaunchDialog final : public QDialog
{
    Q_OBJECT

public:
    // `request` names the run, the epoch and the mode; its template and config
    // may be empty (the run's own are used, when known).
    explicit LaunchDialog(PrepRequest request, QWidget* parent = nullptr);
    ~LaunchDialog() override;

    // The launched run's root once Launch succeeded.
    QString launchedRoot() const { return m_launchedRoot; }
    // Is a plan ready (and Launch enabled)?
    bool isPlanned() const { return m_prepared != nullptr; }
    QTableWidget* parameterTable() const { return m_params; }
    QLineEdit* templateEdit() const { return m_template; }
    QPlainTextEdit* planView() const { return m_plan; }
    QPushButton* launchButton() const { return m_launch; }

signals:
    void planned(); // a new plan (or error) is shown
    void launched(const QString& root);

private:
    void replan();
    void showPlan(std::shared_ptr<Result<PreparedLaunch>> result);
    void fillParameters(const ParamSet& params);
    void markChanges();
    void launch();
    std::vector<ParamEdit> edits() const;

    PrepRequest m_request;
    QButtonGroup* m_mode;
    QLineEdit* m_config;
    QLineEdit* m_template;
    QTableWidget* m_params;
    QCheckBox* m_changedOnly;
    QPlainTextEdit* m_plan;
    QLabel* m_error;
    QCheckBox* m_force;
    QPushButton* m_launch;
    QTimer* m_debounce;
    JobRunner* m_runner;
    std::shared_ptr<PreparedLaunch> m_prepared;
    bool m_filled = false;
    QString m_launchedRoot;
};

} // namespace ckpt
