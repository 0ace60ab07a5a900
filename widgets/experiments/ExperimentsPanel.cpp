#include "experiments/ExperimentsPanel.h"

#include "common/Badges.h"
#include "common/DistinctNameDelegate.h"
#include "experiments/LineageView.h"
#include "experiments/RunStateStyle.h"
#include "launch/LogFollower.h"
#include "launch/RunSummary.h"
#include "models/LaunchedRunsModel.h"
#include "models/ModelRoles.h"

#include <QCheckBox>
#include <QDataStream>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIODevice>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace ckpt {

namespace {

constexpr qint64 LogBacklog = 512 * 1024;
constexpr int LogLines = 20000;
constexpr quint32 StateVersion = 1;

// The State column as a pill in the run's state colour.
class StateDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QString text = opt.text;
        opt.text.clear();
        QStyledItemDelegate::paint(painter, opt, index);
        const QVariant state = index.data(roles::RunStateRole);
        Badges::paintPill(painter, option.rect.adjusted(4, 0, 0, 0), text,
                          state.isValid() ? RunStateStyle::color(RunState(state.toInt()))
                                          : RunStateStyle::neutral());
    }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QSize s = QStyledItemDelegate::sizeHint(option, index);
        s.setWidth(Badges::pillWidth(option.font, index.data().toString()) + 12);
        return s;
    }
};

} // namespace

ExperimentsPanel::ExperimentsPanel(QWidget* parent)
    : ExperimentsPanel(new LaunchedRunsModel(LaunchRegistry(), nullptr), parent)
{
    m_model->setParent(this);
}

ExperimentsPanel::ExperimentsPanel(LaunchedRunsModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_proxy(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)), m_console(new QPlainTextEdit(this)),
      m_logTitle(new QLabel(this)), m_status(new QLabel(this)),
      m_follow(new QCheckBox(tr("Follo&w"), this)), m_stop(new QPushButton(tr("S&top…"), this)),
      m_show(new QPushButton(tr("Show &in Browser"), this)),
      m_refresh(new QPushButton(tr("Refresh"), this)),
      m_forget(new QPushButton(tr("For&get…"), this)), m_lineage(new LineageView(this)),
      m_split(new QSplitter(Qt::Vertical, this)), m_bottom(new QSplitter(Qt::Horizontal, this))
{
    build();
}

ExperimentsPanel::~ExperimentsPanel()
{
    delete m_follower; // joins its thread before the console goes
}

void ExperimentsPanel::build()
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(roles::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // registry order until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setItemDelegateForColumn(LaunchedRunsModel::StateColumn, new StateDelegate(m_table));
    m_table->setItemDelegateForColumn(LaunchedRunsModel::NameColumn,
                                      new DistinctNameDelegate(m_table));
    m_table->setItemDelegateForColumn(LaunchedRunsModel::ParentColumn,
                                      new DistinctNameDelegate(m_table));
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionsMovable(true);
    const int widths[] = {170, 96, 140, 90, 170, 140, 70};
    for (int c = 0; c < LaunchedRunsModel::ColumnCount; ++c)
        m_table->setColumnWidth(c, widths[c]);

    m_console->setReadOnly(true);
    m_console->setMaximumBlockCount(LogLines);
    m_console->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_console->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_console->setPlaceholderText(tr("Select a run to follow its output."));
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest output in view (Alt+L)"));
    m_logTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long log path must not squeeze the lineage graph.
    m_logTitle->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stop->setToolTip(tr("Stop the selected run: SIGTERM, then SIGKILL after a grace time; "
                          "scancel for Slurm (Del)"));
    m_show->setToolTip(tr("Open the run's folder in the browser and select it (Return)"));
    m_refresh->setToolTip(tr("Read the records and ask the processes and Slurm now (F5)"));
    m_forget->setToolTip(tr("Take a finished run off this list; its folder, epochs and launch "
                            "record are not touched (Shift+Del)"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_stop);
    buttons->addWidget(m_show);
    buttons->addWidget(m_refresh);
    buttons->addWidget(m_forget);
    buttons->addWidget(m_status, 1);

    auto* logBox = new QWidget(this);
    auto* logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(0, 0, 0, 0);
    auto* logHeader = new QHBoxLayout;
    logHeader->addWidget(m_logTitle, 1);
    logHeader->addWidget(m_follow);
    logLayout->addLayout(logHeader);
    logLayout->addWidget(m_console);

    auto* lineageBox = new QWidget(this);
    auto* lineageLayout = new QVBoxLayout(lineageBox);
    lineageLayout->setContentsMargins(0, 0, 0, 0);
    auto* lineageTitle = new QLabel(tr("Lineage"), this);
    QFont bold = lineageTitle->font();
    bold.setBold(true);
    lineageTitle->setFont(bold);
    lineageLayout->addWidget(lineageTitle);
    lineageLayout->addWidget(m_lineage);
    m_lineage->setModel(m_model);

    // The table across the top (it needs the width), the log and the graph below.
    m_bottom->addWidget(logBox);
    m_bottom->addWidget(lineageBox);
    m_bottom->setStretchFactor(0, 1);
    m_bottom->setStretchFactor(1, 1);
    m_bottom->setChildrenCollapsible(false);
    m_split->addWidget(m_table);
    m_split->addWidget(m_bottom);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 2);
    m_split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(m_split, 1);

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ExperimentsPanel::onSelectionChanged);
    connect(m_model, &LaunchedRunsModel::refreshed, this, &ExperimentsPanel::onRefreshed);
    connect(m_model, &LaunchedRunsModel::refreshFailed, m_status, &QLabel::setText);
    connect(m_model, &LaunchedRunsModel::stopFinished, this,
            [this](const QString& root, const QString& error) {
                m_status->setText(
                    error.isEmpty()
                        ? tr("%1 stopped.").arg(m_model->nameOf(root))
                        : tr("Could not stop %1: %2").arg(m_model->nameOf(root), error));
                updateButtons();
            });
    connect(m_model, &LaunchedRunsModel::forgetFinished, this,
            [this](const QString& root, const QString& error) {
                m_status->setText(
                    error.isEmpty()
                        ? tr("%1 is no longer listed.").arg(m_model->nameOf(root))
                        : tr("Could not forget %1: %2").arg(m_model->nameOf(root), error));
            });
    connect(m_lineage, &LineageView::runClicked, this, &ExperimentsPanel::selectRun);
    connect(m_stop, &QPushButton::clicked, this, &ExperimentsPanel::confirmStop);
    connect(m_refresh, &QPushButton::clicked, m_model, &LaunchedRunsModel::refresh);
    connect(m_forget, &QPushButton::clicked, this, &ExperimentsPanel::confirmForget);
    connect(m_show, &QPushButton::clicked, this, [this] {
        if (const QString root = selectedRun(); !root.isEmpty())
            emit showInBrowserRequested(root);
    });
    connect(m_table, &QTableView::activated, this, [this] { m_show->click(); });
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_console->verticalScrollBar()->setValue(m_console->verticalScrollBar()->maximum());
    });
    const auto shortcut = [this](QKeySequence key, QPushButton* button) {
        auto* s = new QShortcut(key, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, button, &QPushButton::click);
        // Help ▸ Keyboard Shortcuts lists a shortcut by what it says it does.
        s->setWhatsThis(tr("%1 (Experiments tab)")
                            .arg(button->text().remove(QLatin1Char('&')).remove(QChar(0x2026))));
    };
    shortcut(QKeySequence::Delete, m_stop);
    shortcut(QKeySequence(Qt::Key_F5), m_refresh);
    shortcut(QKeySequence(Qt::SHIFT | Qt::Key_Delete), m_forget);
    updateButtons();
}

void ExperimentsPanel::setRemoteSources(std::vector<RemoteRunsSource> sources)
{
    m_model->setRemoteSources(std::move(sources));
}

void ExperimentsPanel::refresh()
{
    m_model->refresh();
}

QString ExperimentsPanel::selectedRun() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(roles::RunRootRole).toString();
}

void ExperimentsPanel::selectRun(const QString& root)
{
    const int row = m_model->rowOf(root);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void ExperimentsPanel::showRun(const QString& root)
{
    m_follow->setChecked(true);
    if (m_model->rowOf(root) >= 0)
        selectRun(root);
    else
        m_pendingShow = root;
    m_model->refresh();
}

void ExperimentsPanel::onRefreshed()
{
    // Something to look at from the start: the newest run.
    if (m_pendingShow.isEmpty() && selectedRun().isEmpty() && m_model->rowCount() > 0)
        selectRun(m_model->rootAt(m_model->rowCount() - 1));
    if (!m_pendingShow.isEmpty() && m_model->rowOf(m_pendingShow) >= 0) {
        selectRun(m_pendingShow);
        m_pendingShow.clear();
    }
    // A new attempt of the followed run writes a new log.
    const QString root = selectedRun();
    const QString log = m_model->logPathAt(m_model->rowOf(root));
    if (root == m_followedRoot && log != m_followedLog)
        follow(root, log);
    updateButtons();
}

void ExperimentsPanel::onSelectionChanged()
{
    const QString root = selectedRun();
    m_lineage->setCurrentRun(root);
    follow(root, m_model->logPathAt(m_model->rowOf(root)));
    updateButtons();
    emit selectedRunChanged(root);
}

void ExperimentsPanel::follow(const QString& root, const QString& logPath)
{
    if (root == m_followedRoot && logPath == m_followedLog)
        return;
    delete m_follower;
    m_follower = nullptr;
    m_followedRoot = root;
    m_followedLog = logPath;
    m_console->clear();
    if (root.isEmpty() || logPath.isEmpty()) {
        m_logTitle->setText(root.isEmpty() ? tr("Output") : tr("%1: no log yet").arg(root));
        return;
    }
    m_logTitle->setToolTip(logPath);
    if (const QString host = m_model->hostAt(m_model->rowOf(root)); !host.isEmpty()) {
        // Its log is a file on the far host: named, not streamed over ssh.
        m_logTitle->setText(tr("Output of %1 is on %2").arg(m_model->nameOf(root), host));
        m_console->setPlaceholderText(
            tr("%1 writes its output on %2:\n%3").arg(m_model->nameOf(root), host, logPath));
        return;
    }
    m_console->setPlaceholderText(tr("Select a run to follow its output."));
    m_logTitle->setText(
        tr("Output of %1 · %2").arg(m_model->nameOf(root), QFileInfo(logPath).fileName()));
    m_follower = new LogFollower(logPath, 200);
    m_follower->setBacklog(LogBacklog);
    connect(m_follower, &LogFollower::appended, this, &ExperimentsPanel::append);
    connect(m_follower, &LogFollower::skipped, this, [this](qint64 bytes) {
        m_console->appendPlainText(
            tr("[%1 of earlier output not shown]")
                .arg(QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat)));
    });
    connect(m_follower, &LogFollower::failed, m_status, &QLabel::setText);
    m_follower->start();
}

void ExperimentsPanel::append(const QString& text)
{
    QScrollBar* bar = m_console->verticalScrollBar();
    const int keep = bar->value();
    QTextCursor cursor(m_console->document());
    cursor.movePosition(QTextCursor::End);
    // Lines arrive in pieces; the document's own newlines keep them whole.
    cursor.insertText(text);
    if (m_follow->isChecked())
        bar->setValue(bar->maximum());
    else
        bar->setValue(keep);
}

void ExperimentsPanel::confirmStop()
{
    const QString root = selectedRun();
    const int row = m_model->rowOf(root);
    const LaunchRecord* record = m_model->recordAt(row);
    if (!record || !record->latest() || isFinished(m_model->stateAt(row)) ||
        m_model->isStopping(root))
        return;
    const LaunchAttempt& a = *record->latest();
    auto* box = new QMessageBox(QMessageBox::Question, tr("Stop run"),
                                tr("Stop %1?").arg(m_model->nameOf(root)),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("stopConfirmation"));
    const QString host = m_model->hostAt(row);
    box->setInformativeText(
        !host.isEmpty() ? tr("`ckpt stop` on %1: %2")
                              .arg(host, a.plan.backend == LaunchPlan::Backend::Slurm
                                             ? tr("Slurm job %1 is cancelled (scancel).")
                                                   .arg(QString::fromStdString(a.jobId))
                                             : tr("the trainer gets SIGTERM, then SIGKILL "
                                                  "after %1 s.")
                                                   .arg(double(m_grace.count()) / 1000.0))
        : a.plan.backend == LaunchPlan::Backend::Slurm
            ? tr("Slurm job %1 will be cancelled (scancel).").arg(QString::fromStdString(a.jobId))
            : tr("The trainer (%1) gets SIGTERM, then SIGKILL after %2 s. Its last saved epoch "
                 "stays; the epoch in progress is lost.")
                  .arg(QString::fromStdString(RunSummary::process(a)))
                  .arg(double(m_grace.count()) / 1000.0));
    box->button(QMessageBox::Yes)->setText(tr("&Stop"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, root, box](int) {
        if (box->clickedButton() != box->button(QMessageBox::Yes))
            return;
        m_status->setText(tr("Stopping %1…").arg(m_model->nameOf(root)));
        m_model->stop(root, m_grace);
        updateButtons();
    });
    box->open();
}

void ExperimentsPanel::confirmForget()
{
    const QString root = selectedRun();
    const int row = m_model->rowOf(root);
    if (row < 0 || !m_forget->isEnabled())
        return;
    auto* box =
        new QMessageBox(QMessageBox::Question, tr("Forget run"),
                        tr("Take %1 off the list of launched runs?").arg(m_model->nameOf(root)),
                        QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("forgetConfirmation"));
    box->setInformativeText(tr("Nothing on disk changes: the run's folder, epochs and launch "
                               "record stay in %1. `ckpt runs` stops listing it too.")
                                .arg(root));
    box->button(QMessageBox::Yes)->setText(tr("&Forget"));
    // Runs whose folders were deleted pile up: one click takes them all off.
    const QStringList gone = m_model->goneRuns();
    QPushButton* allGone =
        gone.size() > 1 && gone.contains(root)
            ? box->addButton(tr("Forget All %1 &Gone").arg(gone.size()), QMessageBox::AcceptRole)
            : nullptr;
    if (allGone)
        allGone->setObjectName(QStringLiteral("forgetAllGone"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, root, box, allGone, gone](int) {
        QStringList roots;
        if (box->clickedButton() == box->button(QMessageBox::Yes))
            roots << root;
        else if (allGone && box->clickedButton() == allGone)
            roots = gone;
        if (roots.isEmpty())
            return;
        if (m_model->isRemote(root) && roots.size() == 1) { // forgetFinished() says how it went
            m_status->setText(
                tr("Forgetting %1 on %2…")
                    .arg(m_model->nameOf(root), m_model->hostAt(m_model->rowOf(root))));
            m_model->forget(root);
            return;
        }
        QStringList failed;
        for (const QString& r : roots)
            if (const QString error = m_model->forget(r); !error.isEmpty())
                failed << tr("%1: %2").arg(m_model->nameOf(r), error);
        m_status->setText(!failed.isEmpty()
                              ? tr("Could not forget %1").arg(failed.join(QStringLiteral("; ")))
                          : roots.size() == 1
                              ? tr("%1 is no longer listed.").arg(m_model->nameOf(root))
                              : tr("%n gone run(s) no longer listed.", nullptr, int(roots.size())));
    });
    box->open();
}

void ExperimentsPanel::updateButtons()
{
    const QString root = selectedRun();
    const int row = m_model->rowOf(root);
    const RunState state = m_model->stateAt(row);
    m_stop->setEnabled(row >= 0 && !isFinished(state) && !m_model->isStopping(root));
    m_show->setEnabled(row >= 0);
    // A run still going is stopped first: forgetting it would lose sight of a live process.
    const LaunchRecord* record = m_model->recordAt(row);
    m_forget->setEnabled(row >= 0 && (!record || !record->latest() || isFinished(state)) &&
                         !m_model->isStopping(root));
}

QByteArray ExperimentsPanel::saveState() const
{
    QByteArray out;
    QDataStream s(&out, QIODevice::WriteOnly);
    s << StateVersion << m_table->horizontalHeader()->saveState() << m_split->saveState()
      << m_bottom->saveState() << m_follow->isChecked();
    return out;
}

void ExperimentsPanel::restoreState(const QByteArray& state)
{
    QDataStream s(state);
    quint32 version = 0;
    QByteArray header, split, left;
    bool follow = true;
    s >> version >> header >> split >> left >> follow;
    if (version != StateVersion || s.status() != QDataStream::Ok)
        return;
    m_table->horizontalHeader()->restoreState(header);
    m_split->restoreState(split);
    m_bottom->restoreState(left);
    m_follow->setChecked(follow);
}

} // namespace ckpt
