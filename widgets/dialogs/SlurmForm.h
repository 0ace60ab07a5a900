#pragma once

#include "launch/SlurmOptions.h"

#include <QStringList>
#include <QWidget>

class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace ckpt {

// The Slurm part of the launch dialog: partition, time limit, nodes, CPUs per
// task, GPUs, memory, account, extra #SBATCH lines and the preemption grace.
// Its values are remembered per user (QSettings, group "launch/slurm").
class SlurmForm final : public QWidget
{
    Q_OBJECT

public:
    explicit SlurmForm(QWidget* parent = nullptr);

    // The form as options; the run-specific fields (lastLink, jobName,
    // requeue arguments) keep their defaults.
    SlurmOptions options() const;
    void setOptions(const SlurmOptions& options);
    // SlurmOptions::problems() of the form, for the dialog's message.
    QStringList problems() const;

    void load();       // the remembered values
    void save() const; // remembers the current ones

signals:
    void changed(); // any field edited

private:
    QLineEdit* m_partition;
    QLineEdit* m_time;
    QSpinBox* m_nodes;
    QSpinBox* m_cpus;
    QSpinBox* m_gpus;
    QLineEdit* m_memory;
    QLineEdit* m_account;
    QSpinBox* m_grace;
    QPlainTextEdit* m_extra;
};

} // namespace ckpt
