#include "CandleFixture.h"
#include "MainWindow.h"
#include "dialogs/RollbackConfirmDialog.h"
#include "models/EpochTableModel.h"
#include "models/ModelRoles.h"
#include "models/ProblemsModel.h"
#include "problems/ProblemsPanel.h"
#include "session/Workspace.h"
#include "table/EpochTableView.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

#include <filesystem>

using namespace ckpt;
using ckpt::test::CandleFixture;
namespace fs = std::filesystem;

// Receives what "Open Folder" asks the desktop to open.
class UrlCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> urls;
public slots:
    void open(const QUrl& url) { urls << url; }
};

// The everyday situations of §3: an experiment copied with `cp -a` (absolute
// links into the original), a leftover work/, a truncated ckpt-info.json; all
// on real files, driven through the real window.
class tst_CopiedExperiment : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void copyShowsLocalLinksAndRepairsAll();
    void leftoverWorkMovesAsideAfterConfirmation();
    void openFolderOfABadInfo();
    void errorsListedBeforeNotes();

private:
    int problemRow(const QString& kind) const;
    void selectProblem(int sourceRow);
    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_base;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<MainWindow> m_window;
};

void tst_CopiedExperiment::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_CopiedExperiment"));
}

void tst_CopiedExperiment::init()
{
    QSettings().clear();
    m_window.reset();
    m_workspace.reset();
    m_tmp = std::make_unique<QTemporaryDir>();
    m_base = m_tmp->path().toStdString();
    for (const char* run : {"EXP000/RUN000/ckpts", "EXP000/RUN001/ckpts"}) {
        CandleFixture f(m_base / run);
        // best_metric_last is the best so far: epoch 4 did not improve on 3.
        for (int e = 1; e <= 4; ++e)
            f.addEpoch(e, 1.0 / std::min(e, 3), 64, e == 1);
        f.linkAbsolute("last", 4);
        f.linkAbsolute("best", 3);
    }
}

int tst_CopiedExperiment::problemRow(const QString& kind) const
{
    const ProblemsModel* problems = m_workspace->problems();
    for (int r = 0; r < problems->rowCount(); ++r)
        if (problems->index(r, 0).data(roles::ProblemKindRole).toString() == kind)
            return r;
    return -1;
}

void tst_CopiedExperiment::selectProblem(int sourceRow)
{
    QTableView* view = m_window->problemsPanel()->view();
    const QString root = m_workspace->problems()->rootAt(sourceRow);
    const QString kind =
        m_workspace->problems()->index(sourceRow, 0).data(roles::ProblemKindRole).toString();
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QModelIndex i = view->model()->index(r, 0);
        if (i.data(roles::RunRootRole).toString() == root &&
            i.data(roles::ProblemKindRole).toString() == kind) {
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(i).center());
            QCOMPARE(m_window->problemsPanel()->currentRow(), sourceRow);
            return;
        }
    }
    QFAIL("problem row not shown");
}

void tst_CopiedExperiment::copyShowsLocalLinksAndRepairsAll()
{
    const fs::path copy = m_base / "EXP000-copy";
    QCOMPARE(QProcess::execute("cp", {"-a", QString::fromStdString((m_base / "EXP000").string()),
                                      QString::fromStdString(copy.string())}),
             0);
    m_workspace = std::make_unique<Workspace>();
    m_window = std::make_unique<MainWindow>(m_workspace.get());
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->openFolders({QString::fromStdString(copy.string())});
    QTRY_VERIFY(m_workspace->isIdle() && m_workspace->runRoots().size() == 2);

    // last/best show as the copy's own epochs, not as errors without links.
    const QString root = QString::fromStdString((copy / "RUN000/ckpts").string());
    const Run* run = m_workspace->run(root);
    QVERIFY(run && run->link("last") && run->link("best"));
    QCOMPARE(run->linkedEpoch("last"), std::optional<int>(4));
    QCOMPARE(run->linkedEpoch("best"), std::optional<int>(3));
    QTRY_COMPARE(m_workspace->problems()->rowCount(), 4);
    QVERIFY(problemRow("link_outside_run") < 0);
    const int row = problemRow("copied_link");
    QVERIFY(row >= 0);
    QCOMPARE(m_workspace->problems()->index(row, ProblemsModel::KindColumn).data().toString(),
             QString("Link into the original (copied run)"));

    // One click repairs every link of both runs, relative, undoable.
    m_window->action("focusProblems")->trigger();
    // The short columns are wide enough to read whole (no "Link i…d run").
    QTableView* view = m_window->problemsPanel()->view();
    for (int c : {ProblemsModel::KindColumn, ProblemsModel::RunColumn})
        for (int r = 0; r < view->model()->rowCount(); ++r) {
            const QString text = view->model()->index(r, c).data().toString();
            QTRY_VERIFY2(view->columnWidth(c) > view->fontMetrics().horizontalAdvance(text),
                         qPrintable(text));
        }
    QPushButton* repairAll = m_window->problemsPanel()->repairAllButton();
    QVERIFY(repairAll->isEnabled());
    QTest::mouseClick(repairAll, Qt::LeftButton);
    for (const char* r : {"RUN000", "RUN001"}) {
        QTRY_COMPARE(fs::read_symlink(copy / r / "ckpts/last").string(), std::string("epochs/004"));
        QTRY_COMPARE(fs::read_symlink(copy / r / "ckpts/best").string(), std::string("epochs/003"));
    }
    QTRY_COMPARE(m_workspace->problems()->rowCount(), 0);
    QTRY_VERIFY(m_workspace->isIdle());
    QVERIFY(!repairAll->isEnabled());
    // The original is untouched.
    QCOMPARE(fs::read_symlink(m_base / "EXP000/RUN000/ckpts/last"),
             fs::absolute(m_base / "EXP000/RUN000/ckpts/epochs/004"));
    QTRY_COMPARE(m_window->undoStack()->count(), 4);

    // Edit ▸ Undo reverts the last repair, after the check a relink runs.
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTRY_VERIFY(m_window->action("undo")->isEnabled());
    QTimer::singleShot(0, qApp, [] {
        auto* dialog = qobject_cast<RollbackConfirmDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->confirmButton()->isEnabled());
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
    });
    m_window->action("undo")->trigger();
    QTRY_VERIFY(fs::read_symlink(copy / "RUN001/ckpts/best").is_absolute() ||
                fs::read_symlink(copy / "RUN000/ckpts/best").is_absolute());
}

void tst_CopiedExperiment::leftoverWorkMovesAsideAfterConfirmation()
{
    const fs::path root = m_base / "EXP000/RUN000/ckpts";
    fs::create_directories(root / "work");
    CandleFixture::writeText(root / "work/model.h5", "partial");
    // Hours old: a crash's leftover, not a save in progress.
    const auto then = fs::file_time_type::clock::now() - std::chrono::hours(3);
    fs::last_write_time(root / "work/model.h5", then);
    fs::last_write_time(root / "work", then);
    m_workspace = std::make_unique<Workspace>();
    m_window = std::make_unique<MainWindow>(m_workspace.get());
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->openFolders({QString::fromStdString(m_base.string())});
    QTRY_VERIFY(m_workspace->isIdle() && problemRow("interrupted_save") >= 0);
    m_window->action("focusProblems")->trigger();
    ProblemsPanel* panel = m_window->problemsPanel();

    // Cancel first: nothing moves.
    for (const QString& answer : {QStringLiteral("Cancel"), QStringLiteral("Move Aside")}) {
        selectProblem(problemRow("interrupted_save"));
        QVERIFY(panel->moveAsideButton()->isEnabled());
        QTest::mouseClick(panel->moveAsideButton(), Qt::LeftButton);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = panel->findChild<QMessageBox*>("moveAsideConfirmation")) &&
                    box->isVisible());
        QVERIFY(box->informativeText().contains(QString::fromStdString((root / "work").string())));
        for (QAbstractButton* b : box->buttons())
            if (b->text() == answer)
                QTest::mouseClick(b, Qt::LeftButton);
        if (answer == QLatin1String("Cancel")) {
            QTRY_VERIFY(!panel->findChild<QMessageBox*>("moveAsideConfirmation"));
            QVERIFY(fs::exists(root / "work/model.h5"));
        }
    }
    QTRY_VERIFY(!fs::exists(root / "work"));
    int aside = 0;
    for (const auto& e : fs::directory_iterator(root))
        if (e.path().filename().string().starts_with("work.interrupted-")) {
            ++aside;
            QCOMPARE(CandleFixture::readText(e.path() / "model.h5"), std::string("partial"));
        }
    QCOMPARE(aside, 1);
    QTRY_VERIFY(problemRow("interrupted_save") < 0);
}

void tst_CopiedExperiment::openFolderOfABadInfo()
{
    const fs::path root = m_base / "EXP000/RUN001/ckpts";
    CandleFixture(root).writeInfo(2, "{\"epoch\": 2, \"save_be");
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    m_workspace = std::make_unique<Workspace>();
    m_window = std::make_unique<MainWindow>(m_workspace.get());
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->openFolders({QString::fromStdString(m_base.string())});
    QTRY_VERIFY(m_workspace->isIdle() && problemRow("bad_info") >= 0);
    m_window->action("focusProblems")->trigger();
    selectProblem(problemRow("bad_info"));
    ProblemsPanel* panel = m_window->problemsPanel();
    QVERIFY(!panel->moveAsideButton()->isEnabled());
    QTest::mouseClick(panel->openButton(), Qt::LeftButton);
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    QCOMPARE(catcher.urls.size(), 1);
    QCOMPARE(catcher.urls.first().toLocalFile(),
             QString::fromStdString((root / "epochs/002").string()));
}

void tst_CopiedExperiment::errorsListedBeforeNotes()
{
    // A copy: eight notes (links into the original) that sort before
    // "Unreadable ckpt-info.json" by name; the one error still comes first.
    const fs::path copy = m_base / "EXP000-copy";
    QCOMPARE(QProcess::execute("cp", {"-a", QString::fromStdString((m_base / "EXP000").string()),
                                      QString::fromStdString(copy.string())}),
             0);
    CandleFixture(copy / "RUN001/ckpts").writeInfo(2, "{\"epoch\": 2, \"save_be");
    m_workspace = std::make_unique<Workspace>();
    m_window = std::make_unique<MainWindow>(m_workspace.get());
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->openFolders({QString::fromStdString(copy.string())});
    QTRY_VERIFY(m_workspace->isIdle() && m_workspace->problems()->rowCount() == 5);
    const QAbstractItemModel* shown = m_window->problemsPanel()->view()->model();
    QCOMPARE(shown->index(0, 0).data(roles::ProblemKindRole).toString(), QString("bad_info"));
    for (int r = 1; r < shown->rowCount(); ++r)
        QCOMPARE(shown->index(r, 0).data(roles::ProblemKindRole).toString(),
                 QString("copied_link"));
}

QTEST_MAIN(tst_CopiedExperiment)
#include "tst_CopiedExperiment.moc"
