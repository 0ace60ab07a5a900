#include "MainWindow.h"
#include "StudioOptions.h"
#include "common/Theme.h"
#include "session/Workspace.h"

#include <QApplication>
#include <QIcon>
#include <QScreen>
#include <QSettings>
#include <QTimer>

#include <cstdio>

using namespace ckpt;

namespace {
// --screenshot: wait until every scan (and the work it started) is done, let
// the layout settle, grab the window and quit. A deadline keeps a stuck scan
// from hanging scripts.
void scheduleScreenshot(MainWindow& window, Workspace& workspace, const QString& path)
{
    auto take = [&window, path] {
        QTimer::singleShot(400, &window, [&window, path] {
            const bool ok = window.grab().save(path);
            std::fprintf(ok ? stdout : stderr, ok ? "%s\n" : "ckpt-studio: cannot write %s\n",
                         qPrintable(path));
            QApplication::exit(ok ? 0 : 2);
        });
    };
    auto* poll = new QTimer(&window);
    poll->setInterval(50);
    QObject::connect(poll, &QTimer::timeout, &window, [poll, &workspace, take] {
        if (!workspace.isIdle())
            return;
        poll->stop();
        take();
    });
    poll->start();
    QTimer::singleShot(60000, &window, [poll, take] {
        if (poll->isActive()) {
            poll->stop();
            take();
        }
    });
}
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ckpt-studio"));
    QApplication::setApplicationDisplayName(QStringLiteral("Ckpt Studio"));
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio"));
    QApplication::setApplicationVersion(QStringLiteral(CKPT_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("ckpt-studio"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/studio/ckpt-studio.svg")));
    const StudioOptions options = StudioOptions::parse(app);
    if (options.dark)
        Theme::forceDark(app);

    Workspace workspace;
    MainWindow window(&workspace);
    QStringList folders = options.folders;
    if (folders.isEmpty())
        folders = QSettings().value("session/folders").toStringList();
    if (folders.isEmpty()) {
        const QString demo = StudioOptions::demoExperiment();
        if (demo.isEmpty()) {
            window.setEmptyHint(StudioOptions::demoHint());
            std::fprintf(stderr, "ckpt-studio: %s\n",
                         qPrintable(StudioOptions::demoHint().replace('\n', ' ')));
        } else
            folders << demo;
    }
    if (!options.screenshot.isEmpty()) {
        window.resize(options.width, options.height);
        window.setAttribute(Qt::WA_DontShowOnScreen, false);
    }
    window.show();
    window.openFolders(folders);
    const std::pair<const char*, const char*> tabs[] = {{"epochs", "focusTable"},
                                                        {"problems", "focusProblems"},
                                                        {"experiments", "focusExperiments"}};
    for (const auto& [tab, action] : tabs)
        if (options.tab == QLatin1String(tab))
            window.action(QLatin1String(action))->trigger();
    if (!options.screenshot.isEmpty())
        scheduleScreenshot(window, workspace, options.screenshot);
    return app.exec();
}
