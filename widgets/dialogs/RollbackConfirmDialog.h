#pragma once

#include <QDialog>

#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace ckpt {

class JobRunner;
struct Run;

// Asks before re-pointing `last` (a roll back) or `best` at an epoch. Before
// the button is enabled it checks the target as a restart would use it
// (Relinker::checkEpoch: ckpt-info.json readable and naming that epoch, model
// present, checksum recomputed), in the background with progress and cancel.
// A target that fails is refused unless the user ticks Force. Warns about what
// a restart from there overwrites (later epochs, a `best` beyond the target)
// and when the link now points outside the run.
class RollbackConfirmDialog final : public QDialog
{
    Q_OBJECT
public:
    struct Request
    {
        QString runName;
        QString runRoot; // where the health check looks; empty: no check
        QString link;    // "last" or "best"
        int epoch = 0;
        std::optional<int> currentTarget;
        std::vector<int> overwritten; // epochs a restart from `epoch` rewrites
        std::optional<int> bestEpoch; // where `best` points now
        QString linkOutside;          // the link's text when it points outside the run
    };
    enum class Health
    {
        Checking,
        Healthy,
        Failed,
        NotChecked // cancelled, or the check itself could not run
    };
    Q_ENUM(Health)

    explicit RollbackConfirmDialog(const Request& request, QWidget* parent = nullptr);
    ~RollbackConfirmDialog() override;

    // The request for pointing `link` of `run` at `epoch`.
    static Request requestFor(const Run& run, const QString& runName, const QString& link,
                              int epoch);
    static QString describe(const Request& request);

    Health health() const { return m_health; }
    QStringList failures() const { return m_failures; }
    // The user ticked Force past the failures.
    bool force() const;
    QPushButton* confirmButton() const { return m_confirm; }
    QCheckBox* forceBox() const { return m_force; }
    QPushButton* checkButton() const { return m_check; }

signals:
    void healthChecked(ckpt::RollbackConfirmDialog::Health health);

private:
    void startCheck();
    void showResult(Health health, const QStringList& failures, const QString& error);
    void updateConfirm();
    void fitToContents();

    Request m_request;
    JobRunner* m_runner;
    QLabel* m_healthLabel;
    QProgressBar* m_progress;
    QPushButton* m_check;
    QCheckBox* m_force;
    QPushButton* m_confirm = nullptr;
    Health m_health = Health::NotChecked;
    QStringList m_failures;
};

} // namespace ckpt
