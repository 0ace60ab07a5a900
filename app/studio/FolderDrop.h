#pragma once

#include <QObject>
#include <QStringList>

namespace ckpt {

// Accepts local files and folders dropped on a widget (an event filter):
// model files go to modelDropped, anything else to foldersDropped.
class FolderDrop final : public QObject
{
    Q_OBJECT
public:
    explicit FolderDrop(QWidget* target);

signals:
    void foldersDropped(const QStringList& folders);
    void modelDropped(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace ckpt
