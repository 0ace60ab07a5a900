#include "dialogs/LaunchDialog.h"

#include "config/HyperValue.h"
#include "dialogs/SlurmForm.h"
#include "dialogs/SweepEditor.h"
#include "jobs/JobRunner.h"
#include "launch/LaunchSweep.h"
#include "launch/LocalLaunchSource.h"
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
#include <QStackedWidget>
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
    TypeColumn,
};

// The Python type of a value as the run has it: an edit keeps it (ParamEdit::checkType).
QString typeOf(const std::string& literal)
{
    const auto value = HyperValue::parseLiteral(literal);
    if (!value)
        return QStringLiteral("str");
    switch (value->kind()) {
    case HyperValue::Kind::Null:
        return QStringLiteral("None");
    case HyperValue::Kind::Bool:
        return QStringLiteral("bool");
    case HyperValue::Kind::Int:
        return QStringLiteral("int");
    case HyperValue::Kind::Double:
        return QStringLiteral("float");
    case HyperValue::Kind::String:
        return QStringLiteral("str");
    case HyperValue::Kind::List:
        return QStringLiteral("list");
    }
    return {};
}

using Preview = std::shared_ptr<Result<LaunchPreview>>;

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
    : LaunchDialog(std::make_shared<LocalLaunchSource>(request),
                   LaunchChoice{request.mode,
                                request.configFile,
                                request.commandTemplate,
                                {},
                                {},
                                1,
                                false,
                                request.backend,
                                request.slurm,
                                {}},
                   parent)
{}

LaunchDialog::LaunchDialog(std::shared_ptr<const LaunchSource> source, const LaunchChoice& initial,
                           QWidget* parent)
    : QDialog(parent), m_source(std::move(source)), m_mode(new QButtonGroup(this)),
      m_backend(new QButtonGroup(this)), m_config(new QLineEdit(this)),
      m_template(new QLineEdit(this)), m_forkName(new QLineEdit(this)),
      m_paramsStack(new QStackedWidget(this)), m_paramsStatus(new QLabel(this)),
      m_retry(new QPushButton(tr("&Retry"), this)), m_params(new QTableWidget(0, 4, this)),
      m_changedOnly(new QCheckBox(tr("Changed only"), this)), m_sweep(new SweepEditor(this)),
      m_slurmBox(new QGroupBox(tr("Slurm job"), this)), m_slurm(new SlurmForm(m_slurmBox)),
      m_views(new QTabWidget(this)), m_plan(monoView(QStringLiteral("plan"), this)),
      m_script(monoView(QStringLiteral("batchScript"), this)), m_error(new QLabel(this)),
      m_force(new QCheckBox(tr("Launch even if the epoch fails its check"), this)),
      m_launch(nullptr), m_debounce(new QTimer(this)), m_runner(new JobRunner(this)),
      m_paramsRunner(new JobRunner(this))
{
    const QString run = QString::fromStdString(m_source->runName());
    const QString host = QString::fromStdString(m_source->host());
    const int from = m_source->fromEpoch();
    setWindowTitle(host.isEmpty() ? tr("Launch from epoch %1").arg(from)
                                  : tr("Launch on %1 from epoch %2").arg(host).arg(from));
    auto* layout = new QVBoxLayout(this);
    auto* heading = new QLabel(
        host.isEmpty()
            ? tr("<b>%1</b>, epoch %2").arg(run.toHtmlEscaped()).arg(from)
            : tr("<b>%1</b> on <b>%2</b>, epoch %3").arg(run.toHtmlEscaped(), host).arg(from),
        this);
    heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(heading);

    auto* modes = new QHBoxLayout;
    auto* restart =
        radio(m_source->restartsBeside()
                  ? tr("&Restart beside it (goes on in a new folder; this run unchanged)")
                  : tr("&Restart in place (later epochs moved aside)"),
              QStringLiteral("restart"), this);
    auto* fork = radio(tr("&Fork a new run (this run unchanged)"), QStringLiteral("fork"), this);
    m_mode->addButton(restart, static_cast<int>(LaunchPlan::Mode::Restart));
    m_mode->addButton(fork, static_cast<int>(LaunchPlan::Mode::Fork));
    (initial.mode == LaunchPlan::Mode::Fork ? fork : restart)->setChecked(true);
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
    (initial.backend == LaunchPlan::Backend::Slurm || slurmRemembered ? slurm : local)
        ->setChecked(true);
    modes->addWidget(local);
    modes->addWidget(slurm);
    layout->addLayout(modes);

    auto* form = new QFormLayout;
    m_config->setObjectName(QStringLiteral("configFile"));
    m_config->setText(QString::fromStdString(initial.configFile));
    m_config->setPlaceholderText(
        host.isEmpty() ? tr("the run's own config (from its last launch)")
                       : tr("the run's own config on %1 (from its last launch)").arg(host));
    form->addRow(tr("&Config file:"), m_config);
    m_template->setText(QString::fromStdString(initial.commandTemplate));
    m_template->setCursorPosition(0);
    m_template->setPlaceholderText(QString::fromStdString(m_source->exampleCommand()));
    form->addRow(tr("Co&mmand:"), m_template);
    m_forkName->setObjectName(QStringLiteral("forkName"));
    m_forkName->setToolTip(tr("The fork's folder, beside the parent's run folder."));
    form->addRow(tr("Fork &name:"), m_forkName);
    // A far run's fork is named by the far ckpt (`ckpt launch --into` there).
    m_forkName->setVisible(host.isEmpty());
    form->labelForField(m_forkName)->setVisible(host.isEmpty());
    layout->addLayout(form);

    // Left: what to change (parameters, sweep); right: where it runs and the plan.
    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_params->setObjectName(QStringLiteral("parameters"));
    m_params->setHorizontalHeaderLabels({tr("Parameter"), tr("Value"), tr("Was"), tr("Type")});
    m_params->verticalHeader()->hide();
    m_params->horizontalHeader()->setStretchLastSection(true);
    m_params->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                              QAbstractItemView::AnyKeyPressed);
    // While the parameters are read (over ssh: a round trip) or could not be,
    // their place says so, with Retry.
    auto* statusPage = new QWidget(m_paramsStack);
    auto* statusLayout = new QVBoxLayout(statusPage);
    m_paramsStatus->setObjectName(QStringLiteral("parametersStatus"));
    m_paramsStatus->setWordWrap(true);
    m_paramsStatus->setAlignment(Qt::AlignCenter);
    m_paramsStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_retry->setObjectName(QStringLiteral("retryParameters"));
    m_retry->hide();
    statusLayout->addStretch();
    statusLayout->addWidget(m_paramsStatus);
    statusLayout->addWidget(m_retry, 0, Qt::AlignCenter);
    statusLayout->addStretch();
    m_paramsStack->addWidget(m_params);
    m_paramsStack->addWidget(statusPage);
    leftLayout->addWidget(m_paramsStack, 1);
    m_changedOnly->setObjectName(QStringLiteral("changedOnly"));
    leftLayout->addWidget(m_changedOnly);
    leftLayout->addWidget(m_sweep);
    if (!m_source->canSweep()) {
        m_sweep->setEnabled(false);
        m_sweep->setTitle(tr("Sweep: on %1, `ckpt launch --sweep` there").arg(host));
        m_sweep->setToolTip(tr("A sweep on %1 is `ckpt launch --sweep` there.").arg(host));
    }
    auto* right = new QWidget(split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* slurmLayout = new QVBoxLayout(m_slurmBox);
    slurmLayout->addWidget(m_slurm);
    rightLayout->addWidget(m_slurmBox);
    m_plan->setPlaceholderText(host.isEmpty() ? tr("Checking the epoch…")
                                              : tr("Checking the epoch on %1…").arg(host));
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
        if (!m_filled) // another config file typed: its parameters (once typing pauses)
            loadParameters();
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
        if (m_source->previewsBackend())
            m_debounce->start();
    });
    connect(m_slurm, &SlurmForm::changed, this, [this] {
        m_slurm->save();
        showBackend();
        if (m_source->previewsBackend())
            m_debounce->start();
    });
    connect(m_retry, &QPushButton::clicked, this, [this] { m_debounce->start(); });
    connect(m_sweep, &SweepEditor::changed, this, [this] {
        markSwept();
        m_debounce->start();
    });
    connect(m_config, &QLineEdit::textEdited, this, [this] {
        m_filled = false; // another file: its parameters
        m_debounce->start();
    });
    connect(m_template, &QLineEdit::textEdited, this, later);
    connect(m_forkName, &QLineEdit::textEdited, this, [this, later] {
        // Cleared: back to the suggestion.
        m_forkNameTyped = !m_forkName->text().trimmed().isEmpty();
        later();
    });
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

std::vector<std::string> LaunchDialog::edits() const
{
    std::vector<std::string> out;
    for (int r = 0; r < m_params->rowCount(); ++r) {
        const QTableWidgetItem* value = m_params->item(r, ValueColumn);
        const QTableWidgetItem* was = m_params->item(r, OriginalColumn);
        if (value && was && value->text() != was->text())
            out.push_back((m_params->item(r, KeyColumn)->text() + QLatin1Char('=') + value->text())
                              .toStdString());
    }
    return out;
}

LaunchChoice LaunchDialog::currentChoice() const
{
    LaunchChoice c;
    c.mode = static_cast<LaunchPlan::Mode>(m_mode->checkedId());
    c.configFile = m_config->text().trimmed().toStdString();
    c.commandTemplate = m_template->text().trimmed().toStdString();
    c.force = m_force->isChecked();
    // Untyped, the field only shows the default name the plan chose.
    if (m_forkNameTyped)
        c.forkName = m_forkName->text().trimmed().toStdString();
    c.backend = isSlurm() ? LaunchPlan::Backend::Slurm : LaunchPlan::Backend::Local;
    c.slurm = m_slurm->options();
    c.parallel = m_sweep->parallel();
    if (m_sweep->isActive()) {
        if (auto values = m_sweep->values()) // a bad list: replan() says so
            c.sweep = std::move(*values);
        c.mode = LaunchPlan::Mode::Fork;
    }
    if (m_filled)
        c.sets = edits();
    return c;
}

void LaunchDialog::loadParameters()
{
    // The table fills from the config alone, before the plan (which checks the epoch).
    const LaunchChoice choice = currentChoice();
    const QString host = QString::fromStdString(m_source->host());
    if (!host.isEmpty() && !m_filled) {
        m_paramsStatus->setText(tr("Reading parameters from %1…").arg(host));
        m_retry->hide();
        m_paramsStack->setCurrentIndex(1);
    }
    m_paramsRunner->start<std::shared_ptr<Result<LaunchParameters>>>(
        [source = m_source, choice](const Progress& progress) {
            return std::make_shared<Result<LaunchParameters>>(source->parameters(choice, progress));
        },
        [this, host, choice](std::shared_ptr<Result<LaunchParameters>> params) {
            if (*params) {
                if (!m_filled)
                    fillParameters(params->value());
                return;
            }
            if (host.isEmpty() || m_filled)
                return; // a local run's plan says what is wrong
            const QString file = QString::fromStdString(
                choice.configFile.empty() ? m_source->runName() : choice.configFile);
            const QString message =
                tr("Could not read the parameters of %1 from %2.\n\n%3")
                    .arg(file, host, QString::fromStdString(params->error().message));
            m_paramsStatus->setText(message);
            m_retry->show();
            m_paramsStack->setCurrentIndex(1);
            emit parametersFailed(message);
        });
}

void LaunchDialog::replan()
{
    if (m_launching)
        return; // the launch job's result must not be dropped
    m_preview.reset();
    m_launch->setEnabled(false);
    const bool sweep = m_sweep->isActive();
    // A sweep is a fan-out of forks: restarting in place N times is not one.
    m_mode->button(static_cast<int>(LaunchPlan::Mode::Restart))->setEnabled(!sweep);
    if (sweep)
        m_mode->button(static_cast<int>(LaunchPlan::Mode::Fork))->setChecked(true);
    if (auto values = m_sweep->values(); sweep && !values) {
        showPlan(std::make_shared<Result<LaunchPreview>>(values.error()));
        return;
    }
    const LaunchChoice choice = currentChoice();
    m_runner->start<Preview>(
        [source = m_source, choice](const Progress& progress) {
            return std::make_shared<Result<LaunchPreview>>(source->preview(choice, progress));
        },
        [this](Preview result) { showPlan(std::move(result)); });
}

void LaunchDialog::showPlan(Preview result)
{
    if (!*result) {
        m_preview.reset();
        m_planError = QString::fromStdString(result->error().message);
        if (!m_source->host().empty())
            m_planError = tr("`ckpt launch --dry-run` %1").arg(m_planError);
        // The plan pane never keeps saying "Checking the epoch…" after an answer.
        m_plan->setPlaceholderText(tr("No plan: %1").arg(m_planError));
        showBackend();
        emit planned();
        return;
    }
    m_planError.clear();
    m_preview = std::move(result->value());
    if (!m_filled && m_preview->parameters)
        fillParameters(*m_preview->parameters);
    // Filled in: shown from their start (the program's name), not scrolled to the end.
    if (m_template->text().isEmpty() && !m_preview->commandTemplate.empty()) {
        m_template->setText(QString::fromStdString(m_preview->commandTemplate));
        m_template->setCursorPosition(0);
    }
    if (m_config->text().isEmpty() && !m_preview->configFile.empty()) {
        m_config->setText(QString::fromStdString(m_preview->configFile));
        m_config->setCursorPosition(0);
    }
    const bool fork = !m_preview->forkName.empty();
    m_forkName->setEnabled(fork);
    if (fork && !m_forkNameTyped) {
        // The default says what differs: RUN001-fork-e011-learning_rate-0.003.
        m_forkName->setText(QString::fromStdString(m_preview->forkName));
        m_forkName->setCursorPosition(0);
    }
    showBackend();
    emit planned();
}

// The chosen backend and Slurm form applied to the preview: the plan text,
// the batch script (the text sbatch will get), the message and Launch.
void LaunchDialog::showBackend()
{
    const bool slurm = isSlurm();
    m_slurmBox->setVisible(slurm);
    m_views->setTabEnabled(1, slurm);
    if (!slurm && m_views->currentIndex() == 1)
        m_views->setCurrentIndex(0);
    const QStringList problems = slurm ? m_slurm->problems() : QStringList();
    if (m_preview)
        m_source->render(*m_preview, currentChoice());
    m_plan->setPlainText(m_preview ? QString::fromStdString(m_preview->text) : QString());
    m_script->setPlainText(slurm && m_preview ? QString::fromStdString(m_preview->batchScript)
                                              : QString());
    QString message = !m_launchError.isEmpty() ? m_launchError : m_planError;
    if (message.isEmpty() && !problems.isEmpty())
        message = tr("Slurm: %1").arg(problems.join(QStringLiteral("; ")));
    if (message.isEmpty() && m_preview && !m_preview->checkFailures.empty())
        message = tr("The epoch fails its check (launching anyway): %1")
                      .arg(QString::fromStdString(m_preview->checkFailures.front()));
    m_error->setText(message);
    m_launch->setEnabled(m_preview && problems.isEmpty() && !m_launching);
    // A disabled Launch says why in words.
    m_launch->setToolTip(m_launch->isEnabled() ? QString()
                         : m_launching         ? tr("Launching…")
                         : !message.isEmpty()  ? message
                                              : tr("Waiting for the plan (checking the epoch)…"));
}

void LaunchDialog::fillParameters(const LaunchParameters& params)
{
    m_filled = false;
    m_paramsStack->setCurrentIndex(0);
    const QSignalBlocker block(m_params);
    m_params->setUpdatesEnabled(false);
    m_params->setRowCount(static_cast<int>(params.list.size()));
    const QBrush disabled = palette().color(QPalette::Disabled, QPalette::Text);
    QStringList keys;
    int row = 0;
    for (const auto& param : params.list) {
        const QString value = QString::fromStdString(param.literal);
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
        auto* type = new QTableWidgetItem(typeOf(param.literal));
        type->setFlags(type->flags() & ~Qt::ItemIsEditable);
        type->setForeground(disabled);
        type->setToolTip(tr("An edit keeps this type (int and float mix); to make it a string, "
                            "quote it: 'text'."));
        m_params->setItem(row, TypeColumn, type);
        ++row;
    }
    m_params->resizeColumnToContents(KeyColumn);
    m_params->setColumnWidth(ValueColumn, 200);
    m_params->setUpdatesEnabled(true);
    m_sweep->setKeys(keys);
    if (m_config->text().isEmpty() && !params.file.empty()) {
        m_config->setText(QString::fromStdString(params.file));
        m_config->setCursorPosition(0);
    }
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
    if (!m_preview || !m_launch->isEnabled())
        return;
    m_launching = true;
    m_launch->setEnabled(false);
    const QString host = QString::fromStdString(m_source->host());
    m_error->setText(host.isEmpty() ? tr("Launching…") : tr("Launching on %1…").arg(host));
    const LaunchChoice choice = currentChoice();
    using Launched = std::shared_ptr<Result<LaunchOutcome>>;
    m_runner->start<Launched>(
        [source = m_source, choice, preview = *m_preview](const Progress& progress) {
            return std::make_shared<Result<LaunchOutcome>>(
                source->launch(choice, preview, progress));
        },
        [this, host](Launched outcome) {
            if (!*outcome) {
                const QString error = QString::fromStdString(outcome->error().message);
                launchDone({}, host.isEmpty() ? error : tr("`ckpt launch` %1").arg(error));
                return;
            }
            // The local queue of a sweep outlives the dialog: fed by a runner
            // owned by the window that opened it.
            if (const auto& queue = (*outcome)->queue; queue && !queue->done()) {
                QObject* owner = parentWidget() ? static_cast<QObject*>(parentWidget()) : qApp;
                new SweepQueueRunner(queue, owner);
            }
            QStringList roots;
            for (const std::string& root : (*outcome)->roots)
                roots << QString::fromStdString(root);
            launchDone(roots, {});
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
