#pragma once

#include <QDialog>

namespace ckpt {

class ModelInspector;

// A window around ModelInspector, for the epoch table's "Inspect model…" and
// for model files dropped on the main window.
class ModelInspectorDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit ModelInspectorDialog(QWidget* parent = nullptr);

    void openFile(const QString& path);
    ModelInspector* inspector() const { return m_inspector; }

    // A non-modal dialog deleted on close, already shown.
    static ModelInspectorDialog* showFile(const QString& path, QWidget* parent);

private:
    ModelInspector* m_inspector;
};

} // namespace ckpt
