#include "VerifyProgress.h"

#include "common/ProgressStrip.h"
#include "session/Workspace.h"

#include <QAction>

namespace ckpt {

void VerifyProgress::follow(Workspace* workspace, ProgressStrip* strip, QAction* cancel)
{
    QObject::connect(workspace, &Workspace::verifyStarted, strip, [strip, cancel](int epochs) {
        strip->start(Workspace::tr("Verifying %n epoch(s)", nullptr, epochs));
        cancel->setEnabled(true);
    });
    QObject::connect(workspace, &Workspace::verifyProgress, strip,
                     [strip](quint64 done, quint64 total) {
                         strip->setProgress(done, total, QStringLiteral("bytes"));
                     });
    QObject::connect(workspace, &Workspace::verifyFinished, strip,
                     [strip, cancel](const QString& summary) {
                         strip->finish(summary);
                         cancel->setEnabled(false);
                     });
    QObject::connect(strip, &ProgressStrip::cancelRequested, workspace, &Workspace::cancelVerify);
}

} // namespace ckpt
