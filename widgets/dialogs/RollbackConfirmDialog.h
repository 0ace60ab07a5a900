#pragma once

#include <QDialog>

#include <optional>
#include <vector>

namespace ckpt {

// Asks before re-pointing `last` (a roll back) or `best` at an epoch, and says
// which later epochs a restart from there would overwrite.
class RollbackConfirmDialog final : public QDialog
{
    Q_OBJECT
public:
    struct Request
    {
        QString runName;
        QString link; // "last" or "best"
        int epoch = 0;
        std::optional<int> currentTarget;
        std::vector<int> overwritten; // epochs a restart from `epoch` rewrites
    };

    explicit RollbackConfirmDialog(const Request& request, QWidget* parent = nullptr);
    static QString describe(const Request& request);
};

} // namespace ckpt
