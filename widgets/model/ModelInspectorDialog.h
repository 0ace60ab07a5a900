#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "remote/RemoteRecords.h"

#include <QDialog>

#include <functional>

namespace ckpt {

class ModelInspector;

// A window around ModelInspector, for the epoch table's "Inspect model…" and
// for model files dropped on the main window.
class ModelInspectorDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit ModelInspectorDialog(QWidget* parent = nullptr);

    // `title` names what the file is ("RUN000 · epoch 12"); empty: the file name.
    void openFile(const QString& path, const QString& title = {});
    ModelInspector* inspector() const { return m_inspector; }
    // A model file on `host`, read there (ModelInspector::openRemote).
    void openRemote(std::function<Result<RemoteInspect>(const Progress&)> work, const QString& path,
                    const QString& host, const QString& title = {});

    // A non-modal dialog deleted on close, already shown.
    static ModelInspectorDialog* showFile(const QString& path, QWidget* parent,
                                          const QString& title = {});
    static ModelInspectorDialog*
    showRemote(std::function<Result<RemoteInspect>(const Progress&)> work, const QString& path,
               const QString& host, QWidget* parent, const QString& title = {});

private:
    ModelInspector* m_inspector;
};

} // namespace ckpt
