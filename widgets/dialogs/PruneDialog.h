#pragma once

#include "ops/KeepPolicy.h"

#include <QDialog>

#include <set>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace ckpt {

// Previews a keep policy on one run before anything is deleted: which epochs
// go, which stay and why (last, best, newest are protected), and the bytes
// freed. Accepting hands the plan back; the caller deletes.
class PruneDialog final : public QDialog
{
    Q_OBJECT
public:
    struct EpochEntry
    {
        int epoch = 0;
        quint64 bytes = 0;
    };

    PruneDialog(const QString& runName, std::vector<EpochEntry> epochs,
                std::set<int> protectedEpochs, QWidget* parent = nullptr);

    KeepPolicy policy() const;
    std::vector<int> epochsToDelete() const { return m_toDelete; }
    quint64 bytesFreed() const { return m_bytesFreed; }
    QSpinBox* keepLimitBox() const { return m_limit; }

private:
    void updatePreview();

    std::vector<EpochEntry> m_epochs;
    std::set<int> m_protected;
    std::vector<int> m_toDelete;
    quint64 m_bytesFreed = 0;
    QComboBox* m_mode;
    QSpinBox* m_limit;
    QTableWidget* m_table;
    QLabel* m_summary;
    QPushButton* m_ok;
};

} // namespace ckpt
