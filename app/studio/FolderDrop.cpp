#include "FolderDrop.h"

#include "model/ModelInspector.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QUrl>
#include <QWidget>

namespace ckpt {

FolderDrop::FolderDrop(QWidget* target) : QObject(target)
{
    target->setAcceptDrops(true);
    target->installEventFilter(this);
}

bool FolderDrop::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::DragEnter) {
        auto* e = static_cast<QDragEnterEvent*>(event);
        for (const QUrl& url : e->mimeData()->urls())
            if (url.isLocalFile()) {
                e->acceptProposedAction();
                return true;
            }
        return false;
    }
    if (event->type() != QEvent::Drop)
        return QObject::eventFilter(watched, event);
    auto* e = static_cast<QDropEvent*>(event);
    QStringList folders;
    for (const QUrl& url : e->mimeData()->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        if (QFileInfo(path).isFile() && ModelInspector::isModelFile(path))
            emit modelDropped(path);
        else
            folders << path;
    }
    if (!folders.isEmpty()) {
        e->acceptProposedAction();
        emit foldersDropped(folders);
    }
    return true;
}

} // namespace ckpt
