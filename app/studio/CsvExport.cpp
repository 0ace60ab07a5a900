#include "CsvExport.h"

#include <QFile>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QtConcurrent>

namespace ckpt {

void CsvExport::askAndWrite(QWidget* parent, const QString& csv,
                            std::function<void(const QString&)> done)
{
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export epochs as CSV"),
                                                      QStringLiteral("epochs.csv"),
                                                      QObject::tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    const QByteArray bytes = csv.toUtf8();
    auto* watcher = new QFutureWatcher<bool>(parent);
    QObject::connect(watcher, &QFutureWatcher<bool>::finished, parent,
                     [watcher, path, done = std::move(done)] {
                         done(watcher->result() ? QObject::tr("Exported %1").arg(path)
                                                : QObject::tr("Could not write %1").arg(path));
                         watcher->deleteLater();
                     });
    watcher->setFuture(QtConcurrent::run([path, bytes] {
        QFile f(path);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
    }));
}

} // namespace ckpt
