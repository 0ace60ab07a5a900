// The Help menu: a shortcut list read from the real actions, F1 opening the
// local guide at the section about the current view, an About box that
// matches the product.
#include "CandleFixture.h"
#include "MainWindow.h"
#include "Screenshots.h"
#include "dialogs/AboutDialog.h"
#include "dialogs/ShortcutsDialog.h"
#include "dialogs/UserGuideDialog.h"
#include "plotpanel/PlotPanel.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

#include <algorithm>

using namespace ckpt;
using test::CandleFixture;

class tst_HelpMenu : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void keyboardShortcutsListsEveryAction();
    void f1OpensGuideAtCurrentView_data();
    void f1OpensGuideAtCurrentView();
    void guideNotFoundSaysWhereItLooked();
    void aboutNamesEveryFramework();

private:
    static QTabWidget* mainTabs(MainWindow& window);
    static QMenu* menu(MainWindow& window, const QString& title);
    static void activate(MainWindow& window);
    static QString writeGuide(const QTemporaryDir& dir);
};

void tst_HelpMenu::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_HelpMenu"));
}

void tst_HelpMenu::init()
{
    QSettings().clear();
    qunsetenv("CKPT_DOCS_DIR");
}

QTabWidget* tst_HelpMenu::mainTabs(MainWindow& window)
{
    // The table's page sits in the tab widget's stack.
    return qobject_cast<QTabWidget*>(window.epochTable()->parentWidget()->parentWidget());
}

QMenu* tst_HelpMenu::menu(MainWindow& window, const QString& title)
{
    for (QAction* a : window.menuBar()->actions())
        if (ShortcutsDialog::plainText(a->text()) == title)
            return a->menu();
    return nullptr;
}

void tst_HelpMenu::activate(MainWindow& window)
{
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
}

// Opened from the Help menu by keyboard (Alt+H, K): every action of the window
// that has a shortcut is listed with it, read from the actions themselves.
void tst_HelpMenu::keyboardShortcutsListsEveryAction()
{
    QTemporaryDir dir;
    const std::filesystem::path base = dir.path().toStdString();
    for (const char* r : {"EXP000/RUN000/ckpts", "EXP000/RUN001/ckpts"}) {
        CandleFixture f(base / r);
        for (int e = 1; e <= 4; ++e)
            f.addEpoch(e, 1.0 / e, 64, e == 1);
        f.linkAbsolute("last", 4);
    }
    Workspace workspace;
    MainWindow window(&workspace);
    activate(window);
    window.openFolders({dir.path()});
    QTRY_COMPARE(workspace.runRoots().size(), 2);
    QTRY_VERIFY(workspace.isIdle());
    // An action added after start-up is listed too: nothing is hard-coded.
    auto* late = new QAction(QStringLiteral("&Late Action"), &window);
    late->setShortcut(QKeySequence(QStringLiteral("Ctrl+Alt+K")));
    window.addAction(late);

    window.epochTable()->view()->setFocus();
    QMenu* help = menu(window, QStringLiteral("Help"));
    QVERIFY(help);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_H, Qt::AltModifier);
    QTRY_VERIFY(help->isVisible());
    QTest::keyClick(help, Qt::Key_K);
    ShortcutsDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<ShortcutsDialog*>()) && dialog->isVisible());

    QStringList listed;
    const QAbstractItemModel* model = dialog->view()->model();
    for (int g = 0; g < model->rowCount(); ++g) {
        const QModelIndex group = model->index(g, 0);
        for (int r = 0; r < model->rowCount(group); ++r)
            listed << model->index(r, 0, group).data().toString() + QStringLiteral(" = ") +
                          model->index(r, 1, group).data().toString();
    }
    int withShortcut = 0;
    for (const QAction* a : window.findChildren<QAction*>()) {
        if (a->shortcut().isEmpty())
            continue;
        ++withShortcut;
        const QString row = ShortcutsDialog::plainText(a->text()) + QStringLiteral(" = ") +
                            a->shortcut().toString(QKeySequence::NativeText);
        QVERIFY2(std::any_of(listed.begin(), listed.end(),
                             [&](const QString& l) { return l.startsWith(row); }),
                 qPrintable(row + QStringLiteral(" not in:\n") + listed.join('\n')));
    }
    QVERIFY(withShortcut >= 25);
    for (const char* row : {"User Guide = F1", "Keyboard Shortcuts = Ctrl+/", "Undo = Ctrl+Z",
                            "Make Last (Roll Back) = Ctrl+L", "Open Folder = Ctrl+O",
                            "Late Action = Ctrl+Alt+K", "Refresh (Experiments tab) = F5"})
        QVERIFY2(listed.contains(QLatin1String(row)), row);
    test::keepScreenshot(&window, QStringLiteral("help-window.png"));
    test::keepScreenshot(dialog, QStringLiteral("help-shortcuts.png"));

    // Searchable: typing narrows the list to the matching actions.
    QTest::keyClicks(dialog->searchEdit(), QStringLiteral("verify"));
    QStringList found;
    for (int g = 0; g < model->rowCount(); ++g)
        for (int r = 0; r < model->rowCount(model->index(g, 0)); ++r)
            found << model->index(r, 0, model->index(g, 0)).data().toString();
    found.sort();
    QCOMPARE(found,
             (QStringList{"Verify Everything", "Verify Selected Epochs", "Verify Selected Runs"}));
    test::keepScreenshot(dialog, QStringLiteral("help-shortcuts-search.png"));
    dialog->close();

    // Its own shortcut opens it again, with the whole list.
    activate(window);
    QTest::keyClick(window.epochTable()->view(), Qt::Key_Slash, Qt::ControlModifier);
    QTRY_VERIFY(dialog->isVisible());
    QVERIFY(dialog->searchEdit()->text().isEmpty());
    QVERIFY(model->rowCount() >= 6);
}

QString tst_HelpMenu::writeGuide(const QTemporaryDir& dir)
{
    // The headings the guide has (docs/user-guide.md), each with a screenful of text.
    QString text = QStringLiteral("# User guide\n\nIntro.\n\n");
    for (const char* heading :
         {"Starting the window", "Opening folders and reading runs",
          "Verify, roll back, prune, "
          "repair",
          "The plot", "Compare", "The Experiments tab and the lineage graph", "Slurm"}) {
        text += QStringLiteral("## %1\n\n").arg(QLatin1String(heading));
        for (int p = 0; p < 30; ++p)
            text += QStringLiteral("Paragraph %1 about %2.\n\n").arg(p).arg(QLatin1String(heading));
    }
    const QString path = dir.filePath(QStringLiteral("user-guide.md"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0)
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void tst_HelpMenu::f1OpensGuideAtCurrentView_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("heading");
    QTest::newRow("plot") << "plot"
                          << "The plot";
    QTest::newRow("runs sidebar") << "runs"
                                  << "Opening folders and reading runs";
    QTest::newRow("epochs tab") << "Epochs"
                                << "Opening folders and reading runs";
    QTest::newRow("compare tab") << "Compare"
                                 << "Compare";
    QTest::newRow("problems tab") << "Problems"
                                  << "Verify, roll back, prune, repair";
    QTest::newRow("experiments tab") << "Experiments"
                                     << "The Experiments tab and the lineage graph";
}

void tst_HelpMenu::f1OpensGuideAtCurrentView()
{
    QFETCH(QString, view);
    QFETCH(QString, heading);
    QTemporaryDir docs;
    const QString guide = writeGuide(docs);
    qputenv("CKPT_DOCS_DIR", docs.path().toLocal8Bit());
    QTemporaryDir runs;
    CandleFixture run(std::filesystem::path(runs.path().toStdString()) / "RUN000/ckpts");
    for (int e = 1; e <= 3; ++e)
        run.addEpoch(e, 1.0 / e, 64, e == 1);
    Workspace workspace;
    MainWindow window(&workspace);
    activate(window);
    window.openFolders({runs.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.runRoots().size() == 1);
    QTabWidget* tabs = mainTabs(window);
    QWidget* area = nullptr;
    if (view == QLatin1String("plot")) {
        area = window.plotPanel();
    } else if (view == QLatin1String("runs")) {
        area = window.sidebar();
    } else {
        for (int t = 0; t < tabs->count(); ++t)
            if (ShortcutsDialog::plainText(tabs->tabText(t)).startsWith(view))
                tabs->setCurrentIndex(t);
        QVERIFY(ShortcutsDialog::plainText(tabs->tabText(tabs->currentIndex())).startsWith(view));
        area = tabs->currentWidget();
    }
    // What a click there would focus: its first visible list, table or field.
    QWidget* target = nullptr;
    for (QWidget* w : area->findChildren<QWidget*>())
        if (!target && w->isVisible() && w->focusPolicy() & Qt::ClickFocus &&
            (qobject_cast<QAbstractItemView*>(w) || qobject_cast<QLineEdit*>(w)))
            target = w;
    QVERIFY(target);
    target->setFocus();
    QTRY_COMPARE(QApplication::focusWidget(), target);

    QTest::keyClick(target, Qt::Key_F1);
    UserGuideDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<UserGuideDialog*>()) && dialog->isVisible());
    QCOMPARE(dialog->file(), guide);
    QCOMPARE(dialog->currentHeading(), heading);
    // The section starts at the top of the view.
    QTextBrowser* browser = dialog->browser();
    const QRect at = browser->cursorRect();
    QVERIFY2(at.top() >= 0 && at.top() < browser->viewport()->height() / 4,
             qPrintable(QStringLiteral("heading at y=%1").arg(at.top())));
    QVERIFY(browser->toPlainText().contains(QStringLiteral("Paragraph 29 about Slurm")));
    if (view == QLatin1String("Compare"))
        test::keepScreenshot(dialog, QStringLiteral("help-guide-compare.png"));
}

void tst_HelpMenu::guideNotFoundSaysWhereItLooked()
{
    QTemporaryDir docs;
    qputenv("CKPT_DOCS_DIR", docs.path().toLocal8Bit());
    Workspace workspace;
    MainWindow window(&workspace);
    activate(window);
    // From the menu, as one would look for it.
    QMenu* help = menu(window, QStringLiteral("Help"));
    window.epochTable()->view()->setFocus();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_H, Qt::AltModifier);
    QTRY_VERIFY(help->isVisible());
    QTest::keyClick(help, Qt::Key_U);
    UserGuideDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<UserGuideDialog*>()) && dialog->isVisible());
    QVERIFY(dialog->file().isEmpty());
    const QString shown = dialog->browser()->toPlainText();
    QVERIFY2(shown.contains(QStringLiteral("not found")), qPrintable(shown));
    QVERIFY2(shown.contains(QDir(docs.path()).filePath(QStringLiteral("user-guide.md"))),
             qPrintable(shown));
    QVERIFY(shown.contains(QStringLiteral("CKPT_DOCS_DIR")));
}

void tst_HelpMenu::aboutNamesEveryFramework()
{
    AboutDialog about;
    QString text;
    for (const QLabel* l : about.findChildren<QLabel*>())
        text += l->text();
    for (const char* framework :
         {"CANDLE", "PyTorch Lightning", "Keras", "MindSpore", "Orbax", "Caffe2"})
        QVERIFY2(text.contains(QLatin1String(framework)), framework);
}

QTEST_MAIN(tst_HelpMenu)
#include "tst_HelpMenu.moc"
