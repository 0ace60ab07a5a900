// Alt+letters open what they name: no two menus, tabs, buttons or labels of
// the window share one, so Alt+E opens the Edit menu rather than a tab.
#include "MainWindow.h"
#include "session/Workspace.h"
#include "table/EpochTableView.h"

#include <QAbstractButton>
#include <QApplication>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <map>

using namespace ckpt;

class tst_Mnemonics : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void altLetterOpensMenuOrTab();
    void mnemonicsDoNotClash();

private:
    static QTabWidget* mainTabs(MainWindow& window);
    static QMenu* menu(MainWindow& window, const QString& title);
    static void activate(MainWindow& window);
};

void tst_Mnemonics::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_Mnemonics"));
}

void tst_Mnemonics::init()
{
    QSettings().clear();
}

QTabWidget* tst_Mnemonics::mainTabs(MainWindow& window)
{
    // The table's page sits in the tab widget's stack.
    return qobject_cast<QTabWidget*>(window.epochTable()->parentWidget()->parentWidget());
}

QMenu* tst_Mnemonics::menu(MainWindow& window, const QString& title)
{
    for (QAction* a : window.menuBar()->actions())
        if (QString(a->text()).remove(QLatin1Char('&')) == title)
            return a->menu();
    return nullptr;
}

void tst_Mnemonics::activate(MainWindow& window)
{
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
}

// Alt+E opened the Epochs tab, not the Edit menu: the tab had the same letter.
void tst_Mnemonics::altLetterOpensMenuOrTab()
{
    Workspace workspace;
    MainWindow window(&workspace);
    activate(window);
    QTabWidget* tabs = mainTabs(window);
    QVERIFY(tabs);
    tabs->setCurrentIndex(1);
    window.epochTable()->view()->setFocus();

    QTest::keyClick(QApplication::focusWidget(), Qt::Key_O, Qt::AltModifier);
    QCOMPARE(tabs->currentWidget(), window.epochTable());
    QVERIFY(!QApplication::activePopupWidget());

    QMenu* edit = menu(window, QStringLiteral("Edit"));
    QVERIFY(edit);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_E, Qt::AltModifier);
    QTRY_VERIFY(edit->isVisible());
    QCOMPARE(QApplication::activePopupWidget(), edit);
    QCOMPARE(tabs->currentWidget(), window.epochTable());
    QTest::keyClick(edit, Qt::Key_Escape);
    QTRY_VERIFY(!edit->isVisible());
}

// Every Alt+letter the window answers to is unique wherever it can be pressed:
// the menu bar, the tabs, and the buttons and labels of the window with each
// tab shown (a page's hidden buttons count: they appear with their state).
// Within each menu, no two items share a letter.
void tst_Mnemonics::mnemonicsDoNotClash()
{
    Workspace workspace;
    MainWindow window(&workspace);
    activate(window);
    QTabWidget* tabs = mainTabs(window);
    QVERIFY(tabs);
    const auto key = [](const QString& text) { return QKeySequence::mnemonic(text); };

    for (QAction* bar : window.menuBar()->actions()) {
        QVERIFY2(!key(bar->text()).isEmpty(), qPrintable(bar->text() + " has no mnemonic"));
        std::map<QString, QStringList> items;
        for (QAction* a : bar->menu()->actions())
            if (!a->isSeparator() && !key(a->text()).isEmpty())
                items[key(a->text()).toString()] << a->text();
        for (const auto& [letter, texts] : items)
            QVERIFY2(texts.size() == 1,
                     qPrintable(QStringLiteral("%1 in the %2 menu: %3")
                                    .arg(letter, bar->text(), texts.join(QStringLiteral(", ")))));
    }

    for (int page = 0; page < tabs->count(); ++page) {
        tabs->setCurrentIndex(page);
        std::map<QString, QStringList> owners;
        const auto add = [&](const QString& text, const QString& what) {
            if (const QKeySequence k = key(text); !k.isEmpty())
                owners[k.toString()] << what + QStringLiteral(" \"") + text + QLatin1Char('"');
        };
        for (QAction* bar : window.menuBar()->actions())
            add(bar->text(), QStringLiteral("menu"));
        for (int t = 0; t < tabs->count(); ++t)
            add(tabs->tabText(t), QStringLiteral("tab"));
        const auto onThisPage = [&](const QWidget* w) {
            if (w->window() != &window)
                return false; // a dialog of its own
            for (int other = 0; other < tabs->count(); ++other)
                if (other != page && tabs->widget(other)->isAncestorOf(w))
                    return false;
            return true;
        };
        for (const QAbstractButton* b : window.findChildren<QAbstractButton*>())
            if (onThisPage(b))
                add(b->text(), QStringLiteral("button"));
        for (const QLabel* l : window.findChildren<QLabel*>())
            if (l->buddy() && onThisPage(l))
                add(l->text(), QStringLiteral("label"));
        for (const QGroupBox* g : window.findChildren<QGroupBox*>())
            if (onThisPage(g))
                add(g->title(), QStringLiteral("group"));
        QVERIFY(owners.size() >= 10);
        for (const auto& [letter, what] : owners)
            QVERIFY2(what.size() == 1,
                     qPrintable(QStringLiteral("%1 on the %2 tab: %3")
                                    .arg(letter, tabs->tabText(page), what.join(", "))));
    }
}

QTEST_MAIN(tst_Mnemonics)
#include "tst_Mnemonics.moc"
