#include "dialogs/LaunchDialog.h"

#include "jobs/JobRunner.h"
#include "launch/Launcher.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFont>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ckpt {

namespace {
enum Column
{
    KeyColumn,
    ValueColumn,
    OriginalColumn,
};
} // namespace

LaunchDialog::LaunchDialog(PrepRequest request, QWidget* parent)
    : QDialog(parent), m_request(std::move(request)), m_mode(new QButtonGroup(this)),
      m_config(new QLineEdit(this)), m_template(new QLineEdit(this)),
      m_params(new QTableWidget(0, 3, this)),
      m_changedOnly(new QCheckBox(tr("Changed only"), this)), m_plan(new QPlainTextEdit(this)),
      m_error(new QLabel(this)),
      m_force(new QCheckBox(tr("Launch even if the epoch fails its check"), this)),
      m_launch(nullptr), m_debounce(new QTimer(this)), m_runner(new JobRunner(this))
{
    const QString run = QString::fromStdString(m_request.runRoot.string());
    setWindowTitle(tr("Launch from epoch %1").arg(m_request.fromEpoch));
    auto* layout = new QVBoxLayout(this);
    auto* heading = new QLabel(
        tr("<b>%1</b>, epoch %2").arg(run.toHtmlEscaped()).arg(m_request.fromEpoch), this);
    heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(heading);

    auto* modes = new QHBoxLayout;
    auto* restart = new QRadioButton(tr("&Restart in place (later epochs moved aside)"), this);
    auto* fork = new QRadioButton(tr("&Fork a new run (this run unchanged)"), this);
    m_mode->addButton(restart, static_cast<int>(LaunchPlan::Mode::Restart));
    m_mode->addButton(fork, static_cast<int>(LaunchPlan::Mode::Fork));
    (m_request.mode == LaunchPlan::Mode::Fork ? fork : restart)->setChecked(true);
    modes->addWidget(restart);
    modes->addWidget(fork);
    modes->addStretch();
    layout->addLayout(modes);

    auto* form = new QFormLayout;
    m_config->setText(QString::fromStdString(m_request.configFile));
    m_config->setPlaceholderText(tr("the run's own config (from its last launch)"));
    form->addRow(tr("&Config file:"), m_config);
    m_template->setText(QString::fromStdString(m_request.commandTemplate));
    m_template->setPlaceholderText(
        tr("python3 train.py --config_file {config} --ckpt_directory {ckpt_directory} ..."));
    form->addRow(tr("Co&mmand:"), m_template);
    layout->addLayout(form);

    m_params->setObjectName(QStringLiteral("parameters"));
    m_params->setHorizontalHeaderLabels({tr("Parameter"), tr("Value"), tr("Was")});
    m_params->verticalHeader()->hide();
    m_params->horizontalHeader()->setStretchLastSection(true);
    m_params->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                              QAbstractItemView::AnyKeyPressed);
    layout->addWidget(m_params, 2);
    layout->addWidget(m_changedOnly);

    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_plan->setFont(mono);
    m_plan->setReadOnly(true);
    m_plan->setObjectName(QStringLiteral("plan"));
    m_plan->setPlaceholderText(tr("Checking the epoch…"));
    layout->addWidget(m_plan, 1);
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

    // Every edit asks for a fresh plan, once typing pauses.
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &LaunchDialog::replan);
    const auto later = [this] { m_debounce->start(); };
    connect(m_mode, &QButtonGroup::idClicked, this, later);
    connect(m_config, &QLineEdit::textEdited, this, [this] {
        m_filled = false; // another file: its parameters
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
    resize(760, 640);
    replan();
}

LaunchDialog::~LaunchDialog() = default;

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

void LaunchDialog::replan()
{
    m_prepared.reset();
    m_launch->setEnabled(false);
    PrepRequest request = m_request;
    request.mode = static_cast<LaunchPlan::Mode>(m_mode->checkedId());
    request.configFile = m_config->text().trimmed().toStdString();
    request.commandTemplate = m_template->text().trimmed().toStdString();
    request.force = m_force->isChecked();
    if (m_filled)
        request.edits = edits();
    m_runner->start<std::shared_ptr<Result<PreparedLaunch>>>(
        [request](const Progress& progress) {
            return std::make_shared<Result<PreparedLaunch>>(
                LaunchPrep::prepare(request, LaunchRegistry(), progress));
        },
        [this](std::shared_ptr<Result<PreparedLaunch>> result) { showPlan(std::move(result)); });
}

void LaunchDialog::showPlan(std::shared_ptr<Result<PreparedLaunch>> result)
{
    if (!*result) {
        m_error->setText(QString::fromStdString(result->error().message));
        m_plan->clear();
        emit planned();
        return;
    }
    PreparedLaunch& p = result->value();
    if (!m_filled)
        fillParameters(p.original);
    if (m_template->text().isEmpty())
        m_template->setText(QString::fromStdString(p.plan.commandTemplate));
    if (m_config->text().isEmpty())
        m_config->setText(QString::fromStdString(p.original.origin()));
    m_error->setText(p.checkFailures.empty()
                         ? QString()
                         : tr("The epoch fails its check (launching anyway): %1")
                               .arg(QString::fromStdString(p.checkFailures.front())));
    m_plan->setPlainText(QString::fromStdString(LaunchPrep::describe(p)));
    m_prepared = std::make_shared<PreparedLaunch>(std::move(p));
    m_launch->setEnabled(true);
    emit planned();
}

void LaunchDialog::fillParameters(const ParamSet& params)
{
    m_filled = false;
    m_params->setRowCount(0);
    for (const auto& param : params.params()) {
        const int row = m_params->rowCount();
        m_params->insertRow(row);
        const QString value = QString::fromStdString(param.value.pythonLiteral());
        auto* key = new QTableWidgetItem(QString::fromStdString(param.key));
        key->setFlags(key->flags() & ~Qt::ItemIsEditable);
        if (!param.section.empty())
            key->setToolTip(
                tr("[%1], line %2").arg(QString::fromStdString(param.section)).arg(param.line));
        auto* was = new QTableWidgetItem(value);
        was->setFlags(was->flags() & ~Qt::ItemIsEditable);
        was->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        m_params->setItem(row, KeyColumn, key);
        m_params->setItem(row, ValueColumn, new QTableWidgetItem(value));
        m_params->setItem(row, OriginalColumn, was);
    }
    m_params->resizeColumnToContents(KeyColumn);
    m_params->setColumnWidth(ValueColumn, 220);
    m_filled = true;
    markChanges();
}

void LaunchDialog::markChanges()
{
    const QSignalBlocker block(m_params);
    const QColor changed(255, 236, 179);
    for (int r = 0; r < m_params->rowCount(); ++r) {
        QTableWidgetItem* value = m_params->item(r, ValueColumn);
        const bool differs = value->text() != m_params->item(r, OriginalColumn)->text();
        for (int c = 0; c < m_params->columnCount(); ++c)
            m_params->item(r, c)->setBackground(differs ? QBrush(changed) : QBrush());
        QFont f = value->font();
        f.setBold(differs);
        value->setFont(f);
        m_params->setRowHidden(r, m_changedOnly->isChecked() && !differs);
    }
}

void LaunchDialog::launch()
{
    if (!m_prepared)
        return;
    m_launch->setEnabled(false);
    m_error->setText(tr("Launching…"));
    auto prepared = m_prepared;
    m_runner->start<QString>(
        [prepared](const Progress&) -> QString {
            if (Status st = LaunchPrep::apply(*prepared); !st)
                return QStringLiteral("!") + QString::fromStdString(st.error().message);
            auto record = Launcher().launch(prepared->plan);
            if (!record)
                return QStringLiteral("!") + QString::fromStdString(record.error().message);
            return QString::fromStdString(prepared->plan.runRoot);
        },
        [this](QString outcome) {
            if (outcome.startsWith(QLatin1Char('!'))) {
                m_error->setText(outcome.mid(1));
                replan(); // the disk may have changed: plan again before another try
                return;
            }
            m_launchedRoot = outcome;
            emit launched(outcome);
            accept();
        });
}

} // namespace ckpt
