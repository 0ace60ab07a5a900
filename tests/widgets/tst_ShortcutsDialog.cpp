// Help ▸ Keyboard Shortcuts: read from the window's actions when it opens,
// grouped by menu, searchable by name or key.
#include "dialogs/ShortcutsDialog.h"

#include <QAction>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenuBar>
#include <QShortcut>
#include <QTest>
#include <QTreeView>

using namespace ckpt;

class tst_ShortcutsDialog : public QObject
{
    Q_OBJECT
private slots:
    void listsEveryShortcutByMenu();
    void searchFindsActionsAndKeys_data();
    void searchFindsActionsAndKeys();

private:
    // File (Open…, Open Recent ▸ Reopen Last, Quit), Edit (Undo, Copy without a
    // key), an action outside the menus, a described QShortcut, an undescribed one.
    static void buildWindow(QMainWindow& window);
    // "group / action / keys" of every row the dialog shows, in order.
    static QStringList shown(const ShortcutsDialog& dialog);
};

void tst_ShortcutsDialog::buildWindow(QMainWindow& window)
{
    const auto make = [&window](const QString& text, const QString& keys) {
        auto* a = new QAction(text, &window);
        if (!keys.isEmpty())
            a->setShortcut(QKeySequence(keys));
        window.addAction(a);
        return a;
    };
    QMenu* file = window.menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(make(QStringLiteral("&Open Folder…"), QStringLiteral("Ctrl+O")));
    QMenu* recent = file->addMenu(QStringLiteral("Open &Recent"));
    recent->addAction(make(QStringLiteral("Reopen &Last"), QStringLiteral("Ctrl+Shift+T")));
    file->addSeparator();
    file->addAction(make(QStringLiteral("&Quit"), QStringLiteral("Ctrl+Q")));
    QMenu* edit = window.menuBar()->addMenu(QStringLiteral("&Edit"));
    edit->addAction(make(QStringLiteral("&Undo"), QStringLiteral("Ctrl+Z")));
    edit->addAction(make(QStringLiteral("&Copy"), QString()));
    make(QStringLiteral("Cancel Running Task"), QStringLiteral("Esc"));
    auto* described = new QShortcut(QKeySequence(Qt::Key_F5), &window);
    described->setWhatsThis(QStringLiteral("Refresh (Experiments tab)"));
    new QShortcut(QKeySequence(Qt::Key_F6), &window);
}

QStringList tst_ShortcutsDialog::shown(const ShortcutsDialog& dialog)
{
    QStringList rows;
    const QAbstractItemModel* model = dialog.view()->model();
    for (int g = 0; g < model->rowCount(); ++g) {
        const QModelIndex group = model->index(g, 0);
        for (int r = 0; r < model->rowCount(group); ++r)
            rows << QStringLiteral("%1 / %2 / %3")
                        .arg(group.data().toString(), model->index(r, 0, group).data().toString(),
                             model->index(r, 1, group).data().toString());
    }
    return rows;
}

void tst_ShortcutsDialog::listsEveryShortcutByMenu()
{
    QMainWindow window;
    buildWindow(window);
    ShortcutsDialog dialog(&window);
    const QStringList expected{
        "File / Open Folder / Ctrl+O",
        "File / Quit / Ctrl+Q",
        "File ▸ Open Recent / Reopen Last / Ctrl+Shift+T",
        "Edit / Undo / Ctrl+Z",
        "Other / Cancel Running Task / Esc",
        "Other / Refresh (Experiments tab) / F5",
    };
    QCOMPARE(shown(dialog), expected);

    // Read again when refilled: an action added since is listed.
    auto* later = new QAction(QStringLiteral("&Verify Everything"), &window);
    later->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+R")));
    window.menuBar()->actions().first()->menu()->addAction(later);
    dialog.refill();
    QVERIFY2(shown(dialog).contains("File / Verify Everything / Ctrl+Shift+R"),
             qPrintable(shown(dialog).join(QLatin1Char('\n'))));
}

void tst_ShortcutsDialog::searchFindsActionsAndKeys_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QStringList>("rows");
    QTest::newRow("action name, any case") << "undo" << QStringList{"Edit / Undo / Ctrl+Z"};
    QTest::newRow("a key") << "ctrl+shift"
                           << QStringList{"File ▸ Open Recent / Reopen Last / Ctrl+Shift+T"};
    // A menu's name shows the whole menu.
    QTest::newRow("menu name") << "file"
                               << QStringList{"File / Open Folder / Ctrl+O", "File / Quit / Ctrl+Q",
                                              "File ▸ Open Recent / Reopen Last / Ctrl+Shift+T"};
    QTest::newRow("nothing") << "zzz" << QStringList{};
}

void tst_ShortcutsDialog::searchFindsActionsAndKeys()
{
    QFETCH(QString, typed);
    QFETCH(QStringList, rows);
    QMainWindow window;
    buildWindow(window);
    ShortcutsDialog dialog(&window);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTest::keyClicks(dialog.searchEdit(), typed);
    QStringList got = shown(dialog);
    got.sort();
    rows.sort();
    QCOMPARE(got, rows);
    // Clearing the search shows everything again.
    dialog.searchEdit()->clear();
    QCOMPARE(shown(dialog).size(), 6);
}

QTEST_MAIN(tst_ShortcutsDialog)
#include "tst_ShortcutsDialog.moc"
