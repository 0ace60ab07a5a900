#include "StudioActions.h"

#include <QAction>
#include <QMainWindow>
#include <QMenuBar>

namespace ckpt {

namespace {
constexpr int MaxRecent = 10;

struct Definition
{
    const char* name;
    const char* text;
    QKeySequence key;
};
} // namespace

StudioActions::StudioActions(QMainWindow* window, QAction* copy) : QObject(window), m_window(window)
{
    const Definition definitions[] = {
        {"open", QT_TR_NOOP("&Open Folder…"), QKeySequence::Open},
        {"connect", QT_TR_NOOP("Connect to &Cluster…"),
         QKeySequence(QStringLiteral("Ctrl+Shift+O"))},
        {"retryRemote", QT_TR_NOOP("Re&try Connection Now"), QKeySequence()},
        {"closeFolder", QT_TR_NOOP("Close &Folder"), QKeySequence(QStringLiteral("Ctrl+W"))},
        {"closeAll", QT_TR_NOOP("Close &All"), QKeySequence(QStringLiteral("Ctrl+Shift+W"))},
        {"exportCsv", QT_TR_NOOP("&Export Table as CSV…"), QKeySequence(QStringLiteral("Ctrl+E"))},
        {"quit", QT_TR_NOOP("&Quit"), QKeySequence::Quit},
        {"undo", QT_TR_NOOP("&Undo"), QKeySequence::Undo},
        {"redo", QT_TR_NOOP("&Redo"), QKeySequence::Redo},
        {"find", QT_TR_NOOP("&Filter Epochs"), QKeySequence::Find},
        {"makeLast", QT_TR_NOOP("Make &Last (Roll Back)…"), QKeySequence(QStringLiteral("Ctrl+L"))},
        {"makeBest", QT_TR_NOOP("Make &Best…"), QKeySequence(QStringLiteral("Ctrl+B"))},
        {"restartFrom", QT_TR_NOOP("&Restart from This Epoch…"),
         QKeySequence(QStringLiteral("Ctrl+Shift+L"))},
        {"forkFrom", QT_TR_NOOP("&Fork from This Epoch…"),
         QKeySequence(QStringLiteral("Ctrl+Shift+F"))},
        {"compare", QT_TR_NOOP("&Compare Selected Epochs"), QKeySequence(QStringLiteral("Ctrl+D"))},
        {"inspectModel", QT_TR_NOOP("&Inspect Model…"), QKeySequence(QStringLiteral("Ctrl+I"))},
        {"verifyEpochs", QT_TR_NOOP("&Verify Selected Epochs"),
         QKeySequence(QStringLiteral("Ctrl+Shift+V"))},
        {"verifyRuns", QT_TR_NOOP("Verify Selected &Runs"), QKeySequence(QStringLiteral("Ctrl+R"))},
        {"verifyAll", QT_TR_NOOP("Verify &Everything"),
         QKeySequence(QStringLiteral("Ctrl+Shift+R"))},
        {"cancel", QT_TR_NOOP("Cancel Running Task"), QKeySequence(Qt::Key_Escape)},
        {"prune", QT_TR_NOOP("&Prune Run…"), QKeySequence(QStringLiteral("Ctrl+Shift+P"))},
        {"focusRuns", QT_TR_NOOP("Go to &Runs"), QKeySequence(QStringLiteral("Ctrl+1"))},
        {"focusTable", QT_TR_NOOP("Go to &Epochs"), QKeySequence(QStringLiteral("Ctrl+2"))},
        {"focusProblems", QT_TR_NOOP("Go to &Problems"), QKeySequence(QStringLiteral("Ctrl+3"))},
        {"focusExperiments", QT_TR_NOOP("Go to E&xperiments"),
         QKeySequence(QStringLiteral("Ctrl+4"))},
        {"userGuide", QT_TR_NOOP("&User Guide"), QKeySequence::HelpContents},
        {"shortcuts", QT_TR_NOOP("&Keyboard Shortcuts"), QKeySequence(QStringLiteral("Ctrl+/"))},
        {"about", QT_TR_NOOP("&About Ckpt Studio"), QKeySequence()},
    };
    for (const Definition& d : definitions) {
        auto* a = new QAction(tr(d.text), window);
        a->setObjectName(QLatin1String(d.name));
        if (!d.key.isEmpty())
            a->setShortcut(d.key);
        m_actions.insert(QLatin1String(d.name), a);
        window->addAction(a);
    }
    m_actions.insert(QStringLiteral("copy"), copy);
}

void StudioActions::buildMenus()
{
    // A null name is a separator.
    const auto menu = [this](const QString& title, std::initializer_list<const char*> names) {
        QMenu* m = m_window->menuBar()->addMenu(title);
        // A disabled action's tooltip says why (e.g. not available remotely).
        m->setToolTipsVisible(true);
        for (const char* name : names) {
            if (!name)
                m->addSeparator();
            else if (QLatin1String(name) == QLatin1String("recent"))
                m_recentMenu = m->addMenu(tr("Open &Recent"));
            else
                m->addAction(action(QLatin1String(name)));
        }
    };
    menu(tr("&File"), {"open", "connect", "recent", nullptr, "retryRemote", "closeFolder",
                       "closeAll", nullptr, "exportCsv", nullptr, "quit"});
    menu(tr("&Edit"), {"undo", "redo", nullptr, "copy", "find"});
    menu(tr("E&poch"), {"makeLast", "makeBest", nullptr, "restartFrom", "forkFrom", nullptr,
                        "compare", "inspectModel", "verifyEpochs"});
    menu(tr("&Run"), {"verifyRuns", "verifyAll", "cancel", nullptr, "prune"});
    menu(tr("&View"), {"focusRuns", "focusTable", "focusProblems", "focusExperiments"});
    menu(tr("&Help"), {"userGuide", "shortcuts", nullptr, "about"});
    rebuildRecentMenu();
}

void StudioActions::setRecent(const QStringList& folders)
{
    m_recent = folders.mid(0, MaxRecent);
    rebuildRecentMenu();
}

void StudioActions::addRecent(const QStringList& folders)
{
    for (const QString& f : folders) {
        m_recent.removeAll(f);
        m_recent.prepend(f);
    }
    while (m_recent.size() > MaxRecent)
        m_recent.removeLast();
    rebuildRecentMenu();
}

void StudioActions::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (int i = 0; i < m_recent.size(); ++i) {
        const QString folder = m_recent[i];
        QAction* a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(folder));
        connect(a, &QAction::triggered, this, [this, folder] { emit recentChosen(folder); });
    }
    m_recentMenu->setEnabled(!m_recent.isEmpty());
}

} // namespace ckpt
