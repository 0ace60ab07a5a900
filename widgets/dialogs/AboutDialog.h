#pragma once

#include <QDialog>

namespace ckpt {

class AboutDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);
};

} // namespace ckpt
