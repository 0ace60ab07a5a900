#pragma once

#include "common/Result.h"
#include "config/ConfigWriter.h"

#include <QGroupBox>

#include <vector>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace ckpt {

// The launch dialog's fan-out: a parameter and several values (learning_rate
// 1e-3, 3e-4, 1e-4) make one fork per value from the same epoch. Checkable:
// unchecked, the dialog launches one run.
class SweepEditor final : public QGroupBox
{
    Q_OBJECT

public:
    explicit SweepEditor(QWidget* parent = nullptr);

    // The parameters to choose from (the run's config), keeping the choice
    // when it is still among them.
    void setKeys(const QStringList& keys);
    bool isActive() const { return isChecked(); }
    QString key() const;
    // One edit per value; an error naming the value that is not one.
    Result<std::vector<ParamEdit>> values() const;
    // Runs at a time (local queue, or the job array's %K).
    int parallel() const;

    QComboBox* keyBox() const { return m_key; }
    QLineEdit* valuesEdit() const { return m_values; }
    QSpinBox* parallelBox() const { return m_parallel; }

signals:
    void changed();

private:
    QComboBox* m_key;
    QLineEdit* m_values;
    QSpinBox* m_parallel;
};

} // namespace ckpt
