#include "dialogs/LaunchDialog.h"

#include "dialogs/SlurmForm.h"
#include "dialogs/SweepEditor.h"
#include "jobs/JobRunner.h"
#include "launch/LaunchSweep.h"
#include "launch/Launcher.h"
#include "launch/SweepQueueRunner.h"

#include <QApplication>
#include <QButtonGroup>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace ckpt {

namespace {
enum Column
{
    KeyColumn,
    ValueColumn,
    OriginalColumn,
};

using Plans = std::shared_ptr<Result<std::vector<PreparedLaunch>>>;

QRadioButton* radio(const QString& text, const QString& name, QWidget* parent)
{
    auto* b = new QRadioButton(text, parent);
    b->setObjectName(name);
    return b;
}

QPlainTextEdit* monoView(const QString& name, QWidget* parent)
{
    auto* view = new QPlainTextEdit(parent);
    view->setObjectName(name);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    return view;
}

} // namespace

LaunchDialog::LaunchDialog(PrepRequest request, QWidget* parent)
    : QDialog(parent), m_request(std::move(request)), m_mode(new QButtonGroup(this)),
      m_backend(new QButtonGroup(this)), m_config(new QLineEdit(this)),
      m_template(new QLineEdit(this)), m_params(new QTableWidget(0, 3, this)),
      m_changedOnly(new QCheckBox(tr("Changed only"), this)), m_sweep(new SweepEditor(this)),
      m_slurmBox(new QGroupBox(tr("Slurm job"), this)), m_slurm(new SlurmForm(m_slurmBox)),
      m_views(new QTabWidget(this)), m_plan(monoView(QStringLiteral("plan"), this)),
      m_script(monoView(QStringLiteral("batchScript"), this)), m_error(new QLabel(this)),
      m_force(new QCheckBox(tr("Launch even if the epoch fails its check"), this)),
      m_launch(nullptr), m_debounce(new QTimer(this)), m_runner(new JobRunner(this)),
      m_paramsRunner(new JobRunner(this))
{
    const QString run = QString::fromStdString(m_request.runRoot.string());
    setWindowTitle(tr("Launch from epoch %1").arg(m_request.fromEpoch));
    auto* layout = new QVBoxLayout(this);
    auto* heading = new QLabel(
        tr("<b>%1</b>, epoch %2").arg(run.toHtmlEscaped()).arg(m_request.fromEpoch), this);
    heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(heading);

    auto* modes = new QHBoxLayout;
    auto* restart =
        radio(tr("&Restart in place (later epochs moved aside)"), QStringLiteral("restart"), this);
    auto* fork = radio(tr("&Fork a new run (this run unchanged)"), QStringLiteral("fork"), this);
    m_mode->addButton(restart, static_cast<int>(LaunchPlan::Mode::Restart));
    m_mode->addButton(fork, static_cast<int>(LaunchPlan::Mode::Fork));
    (m_request.mode == LaunchPlan::Mode::Fork ? fork : restart)->setChecked(true);
    modes->addWidget(restart);
    modes->addWidget(fork);
    modes->addStretch();
    modes->addWidget(new QLabel(tr("Run on:"), this));
    auto* local = radio(tr("L&ocal"), QStringLiteral("backendLocal"), this);
    auto* slurm = radio(tr("&Slurm"), QStringLiteral("backendSlurm"), this);
    m_backend->addButton(local, static_cast<int>(LaunchPlan::Backend::Local));
    m_backend->addButton(slurm, static_cast<int>(LaunchPlan::Backend::Slurm));
    const bool slurmRemembered =
        QSettings().value(QStringLiteral("launch/backend")).toString() == QLatin1String("slurm");
    (m_request.backend == LaunchPlan::Backend::Slurm || slurmRemembered ? slurm : local)
        ->setChecked(true);
    modes->addWidget(local);
    modes->addWidget(slurm);
    layout->addLayout(modes);

    auto* form = new QFormLayout;
    m_config->setText(QString::fromStdString(m_request.configFile));
    m_config->setPlaceholderText(tr("the run's own config (from its last launch)"));
    form->addRow(tr("&Config file:"), m_config);
    m_template->setText(QString::fromStdString(m_request.commandTemplate));
    m_template->setCursorPosition(0);
    m_template->setPlaceholderText(
        tr("python3 train.py --config_file {config} --ckpt_directory {ckpt_directory} ..."));
    form->addRow(tr("Co&mmand:"), m_template);
    layout->addLayout(form);

    // Left: what to change (parameters, sweep); right: where it runs and the plan.
    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_params->setObjectName(QStringLiteral("parameters"));
    m_params->setHorizontalHeaderLabels({tr("Parameter"), tr("Value"), tr("Was")});
    m_params->verticalHeader()->hide();
    m_params->horizontalHeader()->setStretchLastSection(true);
    m_params->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                              QAbstractItemView::AnyKeyPressed);
    leftLayout->addWidget(m_params, 1);
    m_changedOnly->setObjectName(QStringLiteral("changedOnly"));
    leftLayout->addWidget(m_changedOnly);
    leftLayout->addWidget(m_sweep);
    auto* right = new QWidget(split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* slurmLayout = new QVBoxLayout(m_slurmBox);
    slurmLayout->addWidget(m_slurm);
    rightLayout->addWidget(m_slurmBox);
    m_plan->setPlaceholderText(tr("Checking the epoch…"));
    m_plan->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_views->addTab(m_plan, tr("Plan"));
    m_views->addTab(m_script, tr("Batch script"));
    rightLayout->addWidget(m_views, 1);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({480, 560});
    layout->addWidget(split, 1);

    m_error->setObjectName(QStringLiteral("message"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_error);
    layout->addWidget(m_force);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_launch = buttons->addButton(tr("&Launch"), QDialogButtonBox::AcceptRole);
    m_launch->setEnabled(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &LaunchDialog::launch);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    m_slurm->load();
    // Every edit asks for a fresh plan, once typing pauses. The backend and
    // the Slurm form change only how the plan runs: shown at once.
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, [this] {
        m_launchError.clear();
        replan();
    });
    const auto later = [this] { m_debounce->start(); };
    connect(m_mode, &QButtonGroup::idClicked, this, later);
    connect(m_backend, &QButtonGroup::idClicked, this, [this] {
        QSettings().setValue(QStringLiteral("launch/backend"),
                             QLatin1String(isSlurm() ? "slurm" : "local"));
        showBackend();
        if (isSlurm())
            m_views->setCurrentWidget(m_script); // what sbatch will get
    });
    connect(m_slurm, &SlurmForm::changed, this, [this] {
        m_slurm->save();
        showBackend();
    });
    connect(m_sweep, &SweepEditor::changed, this, [this] {
        markSwept();
        m_debounce->start();
    });
    connect(m_config, &QLineEdit::textEdited, this, [this] {
        m_filled = false; // another file: its parameters
        loadParameters();
        m_debounce->start();
    });
    connect(m_template, &QLineEdit::textEdited, this, later);
    connect(m_force, &QCheckBox::toggled, this, later);
    connect(m_params, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (item->column() == ValueColumn && m_filled) {
            markChanges();
            m_debounce->start();
        }
    });
    connect(m_changedOnly, &QCheckBox::toggled, this, &LaunchDialog::markChanges);
    resize(1040, 720);
    loadParameters();
    replan();
    showBackend();
}

LaunchDialog::~LaunchDialog() = default;

bool LaunchDialog::isSlurm() const
{
    return m_backend->checkedId() == static_cast<int>(LaunchPlan::Backend::Slurm);
}

std::vector<ParamEdit> LaunchDialog::edits() const
{
    std::vector<ParamEdit> out;
    for (int r = 0; r < m_params->rowCount(); ++r) {
        const QTableWidgetItem* value = m_params->item(r, ValueColumn);
        const QTableWidgetItem* was = m_params->item(r, OriginalColumn);
        if (!value || !was || value->text() == was->text())
            continue;
        auto edit = ParamEdit::parse(
            (m_params->item(r, KeyColumn)->text() + QLatin1Char('=') + value->text())
                .toStdString());
        if (edit)
            out.push_back(std::move(*edit));
    }
    return out;
}

PrepRequest LaunchDialog::currentRequest() const
{
    PrepRequest request = m_request;
    request.mode = static_cast<LaunchPlan::Mode>(m_mode->checkedId());
    request.configFile = m_config->text().trimmed().toStdString();
    request.commandTemplate = m_template->text().trimmed().toStdString();
    request.force = m_force->isChecked();
    request.backend = LaunchPlan::Backend::Local; // showBackend() sets the chosen one
    if (m_filled)
        request.edits = edits();
    return request;
}

void LaunchDialog::loadParameters()
{
    // The table fills from the config alone, before the plan (which checks the epoch).
    const PrepRequest request = currentRequest();
    m_paramsRunner->start<std::shared_ptr<Result<ParamSet>>>(
        [request](const Progress&) {
            return std::make_shared<Result<ParamSet>>(
                LaunchPrep::parameters(request, LaunchRegistry()));
        },
        [this](std::shared_ptr<Result<ParamSet>> params) {
            if (*params && !m_filled)
                fillParameters(params->value());
        });
}

void LaunchDialog::replan()
{
    if (m_launching)
        return; // the launch job's result must not be dropped
    m_prepared.clear();
    m_launch->setEnabled(false);
    const PrepRequest request = currentRequest();
    const bool sweep = m_sweep->isActive();
    auto values =
        sweep ? m_sweep->values() : Result<std::vector<ParamEdit>>(std::vector<ParamEdit>());
    // A sweep is a fan-out of forks: restarting in place N times is not one.
    m_mode->button(static_cast<int>(LaunchPlan::Mode::Restart))->setEnabled(!sweep);
    if (sweep)
        m_mode->button(static_cast<int>(LaunchPlan::Mode::Fork))->setChecked(true);
    if (!values) {
        showPlan(std::make_shared<Result<std::vector<PreparedLaunch>>>(values.error()));
        return;
    }
    m_runner->start<Plans>(
        [request, sweep, edits = *values](const Progress& progress) -> Plans {
            if (sweep)
                return std::make_shared<Result<std::vector<PreparedLaunch>>>(
                    LaunchSweep::prepare(request, edits, LaunchRegistry(), progress));
            auto one = LaunchPrep::prepare(request, LaunchRegistry(), progress);
            if (!one)
                return std::make_shared<Result<std::vector<PreparedLaunch>>>(one.error());
            std::vector<PreparedLaunch> plans;
            plans.push_back(std::move(*one));
            return std::make_shared<Result<std::vector<PreparedLaunch>>>(std::move(plans));
        },
        [this](Plans result) { showPlan(std::move(result)); });
}

void LaunchDialog::showPlan(Plans result)
{
    if (!*result) {
        m_prepared.clear();
        m_planError = QString::fromStdString(result->error().message);
        showBackend();
        emit planned();
        return;
    }
    m_planError.clear();
    m_prepared = std::move(result->value());
    const PreparedLaunch& first = m_prepared.front();
    if (!m_filled)
        fillParameters(first.original);
    // Filled in: shown from their start (the program's name), not scrolled to the end.
    if (m_template->text().isEmpty()) {
        m_template->setText(QString::fromStdString(first.plan.commandTemplate));
        m_template->setCursorPosition(0);
    }
    if (m_config->text().isEmpty()) {
        m_config->setText(QString::fromStdString(first.original.origin()));
        m_config->setCursorPosition(0);
    }
    showBackend();
    emit planned();
}

// The chosen backend and Slurm form applied to the plans: the plan text, the
// batch script (the text sbatch will get), the message and the Launch button.
void LaunchDialog::showBackend()
{
    const bool slurm = isSlurm();
    m_slurmBox->setVisible(slurm);
    m_views->setTabEnabled(1, slurm);
    if (!slurm && m_views->currentIndex() == 1)
        m_views->setCurrentIndex(0);
    const QStringList problems = slurm ? m_slurm->problems() : QStringList();
    QString plan;
    std::vector<LaunchPlan> plans;
    for (PreparedLaunch& p : m_prepared) {
        p.plan.backend = slurm ? LaunchPlan::Backend::Slurm : LaunchPlan::Backend::Local;
        SlurmOptions options = m_slurm->options();
        options.lastLink = (std::filesystem::path(p.plan.runRoot) / "last").string();
        options.jobName = p.plan.slurm.jobName; // a sweep's array is named for it
        p.plan.slurm = options;
        plan += (plan.isEmpty() ? QString() : QStringLiteral("\n")) +
                QString::fromStdString(LaunchPrep::describe(p));
        plans.push_back(p.plan);
    }
    if (m_prepared.size() > 1)
        plan = tr("%1 forks from epoch %2, %3:\n\n")
                   .arg(m_prepared.size())
                   .arg(m_request.fromEpoch)
                   .arg(slurm ? tr("one Slurm job array")
                              : tr("%1 at a time").arg(m_sweep->parallel())) +
               plan;
    m_plan->setPlainText(plan);
    m_script->setPlainText(slurm && !plans.empty()
                               ? QString::fromStdString(Launcher::batchScript(
                                     plans, m_sweep->isActive() ? m_sweep->parallel() : 0))
                               : QString());
    QString message = !m_launchError.isEmpty() ? m_launchError : m_planError;
    if (message.isEmpty() && !problems.isEmpty())
        message = tr("Slurm: %1").arg(problems.join(QStringLiteral("; ")));
    if (message.isEmpty() && !m_prepared.empty() && !m_prepared.front().checkFailures.empty())
        message = tr("The epoch fails its check (launching anyway): %1")
                      .arg(QString::fromStdString(m_prepared.front().checkFailures.front()));
    m_error->setText(message);
    m_launch->setEnabled(!m_prepared.empty() && problems.isEmpty() && !m_launching);
}

void LaunchDialog::fillParameters(const ParamSet& params)
{
    m_filled = false;
    const QSignalBlocker block(m_params);
    m_params->setUpdatesEnabled(false);
    m_params->setRowCount(static_cast<int>(params.params().size()));
    const QBrush disabled = palette().color(QPalette::Disabled, QPalette::Text);
    QStringList keys;
    int row = 0;
    for (const auto& param : params.params()) {
        const QString value = QString::fromStdString(param.value.pythonLiteral());
        keys << QString::fromStdString(param.key);
        auto* key = new QTableWidgetItem(keys.back());
        key->setFlags(key->flags() & ~Qt::ItemIsEditable);
        if (!param.section.empty())
            key->setToolTip(
                tr("[%1], line %2").arg(QString::fromStdString(param.section)).arg(param.line));
        auto* was = new QTableWidgetItem(value);
        was->setFlags(was->flags() & ~Qt::ItemIsEditable);
        was->setForeground(disabled);
        m_params->setItem(row, KeyColumn, key);
        m_params->setItem(row, ValueColumn, new QTableWidgetItem(value));
        m_params->setItem(row, OriginalColumn, was);
        ++row;
    }
    m_params->resizeColumnToContents(KeyColumn);
    m_params->setColumnWidth(ValueColumn, 200);
    m_params->setUpdatesEnabled(true);
    m_sweep->setKeys(keys);
    m_filled = true;
    m_sweptRow = -1;
    markChanges();
    markSwept();
    emit parametersShown();
}

void LaunchDialog::markChanges()
{
    const QSignalBlocker block(m_params);
    const QColor changed(255, 236, 179);
    for (int r = 0; r < m_params->rowCount(); ++r) {
        QTableWidgetItem* value = m_params->item(r, ValueColumn);
        const bool differs = value->text() != m_params->item(r, OriginalColumn)->text();
        // Only rows whose look changes are touched (500 rows stay cheap).
        if (value->font().bold() != differs) {
            for (int c = 0; c < m_params->columnCount(); ++c)
                m_params->item(r, c)->setBackground(differs ? QBrush(changed) : QBrush());
            QFont f = value->font();
            f.setBold(differs);
            value->setFont(f);
        }
        m_params->setRowHidden(r, m_changedOnly->isChecked() && !differs);
    }
}

void LaunchDialog::markSwept()
{
    const QSignalBlocker block(m_params);
    if (QTableWidgetItem* old = m_sweptRow >= 0 ? m_params->item(m_sweptRow, KeyColumn) : nullptr) {
        old->setBackground(m_params->item(m_sweptRow, ValueColumn)->background());
        QFont f = old->font();
        f.setItalic(false);
        old->setFont(f);
    }
    m_sweptRow = -1;
    if (!m_sweep->isActive())
        return;
    for (int r = 0; r < m_params->rowCount(); ++r) {
        QTableWidgetItem* key = m_params->item(r, KeyColumn);
        if (key->text() != m_sweep->key())
            continue;
        key->setBackground(QColor(207, 226, 255));
        QFont f = key->font();
        f.setItalic(true); // varied by the sweep: one fork per value
        key->setFont(f);
        m_sweptRow = r;
    }
}

void LaunchDialog::launch()
{
    if (m_prepared.empty() || !m_launch->isEnabled())
        return;
    m_launching = true;
    m_launch->setEnabled(false);
    m_error->setText(tr("Launching…"));
    auto runs = std::make_shared<std::vector<PreparedLaunch>>(m_prepared);
    const bool slurm = isSlurm();
    const bool sweep = m_sweep->isActive();
    const int parallel = m_sweep->parallel();
    // The local queue of a sweep outlives the dialog: fed by a runner owned
    // by the window that opened it.
    auto queue = std::make_shared<std::shared_ptr<SweepQueue>>();
    m_runner->start<QString>(
        [runs, slurm, sweep, parallel, queue](const Progress&) -> QString {
            auto fail = [](const std::string& m) {
                return QStringLiteral("!") + QString::fromStdString(m);
            };
            if (!sweep) {
                PreparedLaunch& p = runs->front();
                if (Status st = LaunchPrep::apply(p); !st)
                    return fail(st.error().message);
                auto record = Launcher().launch(p.plan);
                if (!record) {
                    // Nothing ran: put the run back as it was.
                    const Status undone = LaunchPrep::undo(p);
                    return fail(record.error().message +
                                (undone ? " (nothing was changed: the preparation was undone)"
                                        : " (undoing failed: " + undone.error().message + ")"));
                }
                return QString::fromStdString(p.plan.runRoot);
            }
            if (Status st = LaunchSweep::apply(*runs); !st)
                return fail(st.error().message);
            QStringList roots;
            for (const PreparedLaunch& p : *runs)
                roots << QString::fromStdString(p.plan.runRoot);
            if (slurm) {
                auto records = LaunchSweep::submitArray(*runs, parallel, Launcher());
                return records ? roots.join(QLatin1Char('\n')) : fail(records.error().message);
            }
            *queue = std::make_shared<SweepQueue>(std::move(*runs), parallel);
            (*queue)->step(); // the first K start now; errors are the dialog's to show
            // Fails only when none started (each that could not was removed).
            const auto& items = (*queue)->items();
            if (std::none_of(items.begin(), items.end(),
                             [](const SweepQueue::Item& i) { return i.record.has_value(); }))
                return fail(items.front().prepared.plan.runRoot + ": " + items.front().error +
                            " (the sweep's forks were removed)");
            return roots.join(QLatin1Char('\n'));
        },
        [this, queue](QString outcome) {
            if (*queue && !(*queue)->done()) {
                QObject* owner = parentWidget() ? static_cast<QObject*>(parentWidget()) : qApp;
                new SweepQueueRunner(*queue, owner);
            }
            if (outcome.startsWith(QLatin1Char('!')))
                launchDone({}, outcome.mid(1));
            else
                launchDone(outcome.split(QLatin1Char('\n')), {});
        });
}

void LaunchDialog::launchDone(const QStringList& roots, const QString& error)
{
    m_launching = false;
    if (!error.isEmpty()) {
        m_launchError = error;
        replan(); // the disk may have changed: plan again before another try
        return;
    }
    m_launchedRoots = roots;
    m_launchedRoot = roots.value(0);
    emit launched(m_launchedRoot);
    accept();
}

} // namespace ckpt
