#include "HelpActions.h"

#include "dialogs/AboutDialog.h"
#include "dialogs/ShortcutsDialog.h"
#include "dialogs/UserGuideDialog.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTabWidget>

namespace ckpt {

namespace {
const QString GuideName = QStringLiteral("user-guide.md");

bool inside(const QWidget* area, const QWidget* w)
{
    return area && w && (area == w || area->isAncestorOf(w));
}

// The guide's sections use several words for a view: its own name first.
QStringList keywordsFor(const QString& view)
{
    static const QHash<QString, QStringList> more = {
        {QStringLiteral("plot"), {QStringLiteral("metric"), QStringLiteral("curve")}},
        {QStringLiteral("runs"), {QStringLiteral("Opening folders"), QStringLiteral("folder")}},
        {QStringLiteral("epochs"), {QStringLiteral("epoch"), QStringLiteral("reading runs")}},
        {QStringLiteral("compare"), {QStringLiteral("diff"), QStringLiteral("reading runs")}},
        {QStringLiteral("problems"),
         {QStringLiteral("problem"), QStringLiteral("repair"), QStringLiteral("verify")}},
        {QStringLiteral("experiments"), {QStringLiteral("lineage"), QStringLiteral("launch")}},
    };
    return QStringList{view} + more.value(view.toLower());
}
} // namespace

HelpActions::HelpActions(const Parts& parts, QObject* parent) : QObject(parent), m_parts(parts) {}

void HelpActions::showShortcuts()
{
    auto* dialog = m_shortcuts;
    if (!dialog) {
        dialog = new ShortcutsDialog(m_parts.window, m_parts.window);
        m_shortcuts = dialog;
    } else {
        dialog->refill();
    }
    dialog->searchEdit()->clear();
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    dialog->searchEdit()->setFocus();
}

QStringList HelpActions::guideFolders()
{
    if (qEnvironmentVariableIsSet("CKPT_DOCS_DIR"))
        return {qEnvironmentVariable("CKPT_DOCS_DIR")};
    QStringList folders{QDir::cleanPath(QApplication::applicationDirPath() +
                                        QStringLiteral("/../") +
                                        QStringLiteral(CKPT_INSTALL_DOCDIR))};
    for (const QString& data :
         QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation))
        folders << QDir::cleanPath(data + QStringLiteral("/doc/ckpt-studio"));
    folders << QStringLiteral(CKPT_SOURCE_DIR "/docs");
    folders.removeDuplicates();
    return folders;
}

QStringList HelpActions::currentTopic() const
{
    const QWidget* focus = QApplication::focusWidget();
    if (inside(m_parts.plot, focus))
        return keywordsFor(QStringLiteral("Plot"));
    if (inside(m_parts.sidebar, focus))
        return keywordsFor(QStringLiteral("Runs"));
    // "Pro&blems (3)" names the Problems tab.
    const QString tab =
        ShortcutsDialog::plainText(m_parts.tabs->tabText(m_parts.tabs->currentIndex()))
            .section(QLatin1Char(' '), 0, 0);
    return keywordsFor(tab);
}

void HelpActions::showUserGuide()
{
    const QStringList topic = currentTopic();
    auto* guide = m_guide;
    if (!guide) {
        guide = new UserGuideDialog(m_parts.window);
        m_guide = guide;
    }
    QString found;
    const QStringList folders = guideFolders();
    for (const QString& folder : folders)
        if (const QFileInfo f(QDir(folder).filePath(GuideName)); f.isFile()) {
            found = f.absoluteFilePath();
            break;
        }
    // Read anew each time: the guide on disk may have been updated.
    if (found.isEmpty()) {
        QStringList lookedIn;
        for (const QString& folder : folders)
            lookedIn << QDir(folder).filePath(GuideName);
        guide->showNotFound(lookedIn);
    } else {
        guide->load(found);
    }
    guide->show();
    guide->raise();
    guide->activateWindow();
    if (!found.isEmpty())
        guide->showSection(topic);
}

void HelpActions::showAbout()
{
    AboutDialog dialog(m_parts.window);
    dialog.exec();
}

} // namespace ckpt
