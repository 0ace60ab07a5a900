#include "dialogs/SlurmForm.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSpinBox>

#include <utility>

namespace ckpt {

namespace {

QSpinBox* spin(QWidget* parent, int min, int max, const QString& name, const QString& special = {})
{
    auto* box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setObjectName(name);
    if (!special.isEmpty())
        box->setSpecialValueText(special);
    return box;
}

QLineEdit* line(QWidget* parent, const QString& name, const QString& placeholder)
{
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    return edit;
}

} // namespace

SlurmForm::SlurmForm(QWidget* parent)
    : QWidget(parent), m_partition(line(this, QStringLiteral("slurmPartition"), tr("default"))),
      m_time(line(this, QStringLiteral("slurmTime"), tr("HH:MM:SS, D-HH:MM:SS or minutes"))),
      m_nodes(spin(this, 1, 4096, QStringLiteral("slurmNodes"))),
      m_cpus(spin(this, 0, 1024, QStringLiteral("slurmCpus"), tr("default"))),
      m_gpus(spin(this, 0, 64, QStringLiteral("slurmGpus"), tr("none"))),
      m_memory(line(this, QStringLiteral("slurmMemory"), tr("4G, 500M; default"))),
      m_account(line(this, QStringLiteral("slurmAccount"), tr("default"))),
      m_grace(spin(this, 0, 3600, QStringLiteral("slurmGrace"))), m_extra(new QPlainTextEdit(this))
{
    m_grace->setSuffix(tr(" s before the limit"));
    m_extra->setObjectName(QStringLiteral("slurmExtra"));
    m_extra->setPlaceholderText(tr("one sbatch option a line: --qos=low"));
    m_extra->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_extra->setFixedHeight(m_extra->fontMetrics().lineSpacing() * 3 + 12);
    m_extra->setTabChangesFocus(true);

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("P&artition:"), m_partition);
    form->addRow(tr("&Time limit:"), m_time);
    // Nodes, CPUs per task and GPUs on one row, each label a buddy of its box.
    auto* sizes = new QHBoxLayout;
    auto* nodesLabel = new QLabel(tr("&Nodes:"), this);
    nodesLabel->setBuddy(m_nodes);
    sizes->addWidget(m_nodes);
    for (auto [text, box] :
         {std::pair{tr("&CPUs per task:"), m_cpus}, std::pair{tr("G&PUs:"), m_gpus}}) {
        auto* label = new QLabel(text, this);
        label->setBuddy(box);
        sizes->addSpacing(8);
        sizes->addWidget(label);
        sizes->addWidget(box);
    }
    sizes->addStretch();
    const int spinWidth = fontMetrics().horizontalAdvance(tr("default")) + 44;
    for (QSpinBox* box : {m_nodes, m_cpus, m_gpus})
        box->setMinimumWidth(spinWidth);
    form->addRow(nodesLabel, sizes);
    form->addRow(tr("&Memory:"), m_memory);
    form->addRow(tr("Acco&unt:"), m_account);
    form->addRow(tr("Preemption &grace:"), m_grace);
    form->addRow(tr("E&xtra #SBATCH:"), m_extra);
    m_grace->setToolTip(
        tr("Slurm sends USR1 this long before the time limit; the job lets the trainer finish "
           "its epoch, then requeues itself and resumes from `last`."));

    setOptions(SlurmOptions{});
    // A field sbatch would refuse is tinted until it is fixed.
    connect(this, &SlurmForm::changed, this, [this] {
        const auto tint = [](QLineEdit* edit, bool bad) {
            edit->setStyleSheet(bad ? QStringLiteral("QLineEdit { background: #fde2e2; }")
                                    : QString());
        };
        const SlurmOptions o = options();
        tint(m_time, !o.time.empty() && !SlurmOptions::isValidTime(o.time));
        tint(m_memory, !o.memory.empty() && !SlurmOptions::isValidMemory(o.memory));
    });
    for (QLineEdit* edit : {m_partition, m_time, m_memory, m_account})
        connect(edit, &QLineEdit::textChanged, this, &SlurmForm::changed);
    for (QSpinBox* box : {m_nodes, m_cpus, m_gpus, m_grace})
        connect(box, &QSpinBox::valueChanged, this, &SlurmForm::changed);
    connect(m_extra, &QPlainTextEdit::textChanged, this, &SlurmForm::changed);
}

SlurmOptions SlurmForm::options() const
{
    SlurmOptions o;
    o.partition = m_partition->text().trimmed().toStdString();
    o.time = m_time->text().trimmed().toStdString();
    o.nodes = m_nodes->value();
    o.cpusPerTask = m_cpus->value();
    o.gpus = m_gpus->value();
    o.memory = m_memory->text().trimmed().toStdString();
    o.account = m_account->text().trimmed().toStdString();
    o.signalGraceSeconds = m_grace->value();
    for (const QString& l : m_extra->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!l.trimmed().isEmpty())
            o.extraLines.push_back(l.trimmed().toStdString());
    return o;
}

void SlurmForm::setOptions(const SlurmOptions& o)
{
    m_partition->setText(QString::fromStdString(o.partition));
    m_time->setText(QString::fromStdString(o.time));
    m_nodes->setValue(o.nodes);
    m_cpus->setValue(o.cpusPerTask);
    m_gpus->setValue(o.gpus);
    m_memory->setText(QString::fromStdString(o.memory));
    m_account->setText(QString::fromStdString(o.account));
    m_grace->setValue(o.signalGraceSeconds);
    QStringList extra;
    for (const std::string& l : o.extraLines)
        extra << QString::fromStdString(l);
    m_extra->setPlainText(extra.join(QLatin1Char('\n')));
}

QStringList SlurmForm::problems() const
{
    QStringList out;
    for (const std::string& p : options().problems())
        out << QString::fromStdString(p);
    return out;
}

void SlurmForm::load()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("launch/slurm"));
    SlurmOptions o;
    o.partition = settings.value(QStringLiteral("partition")).toString().toStdString();
    o.time = settings.value(QStringLiteral("time")).toString().toStdString();
    o.nodes = settings.value(QStringLiteral("nodes"), o.nodes).toInt();
    o.cpusPerTask = settings.value(QStringLiteral("cpusPerTask"), o.cpusPerTask).toInt();
    o.gpus = settings.value(QStringLiteral("gpus"), o.gpus).toInt();
    o.memory = settings.value(QStringLiteral("memory")).toString().toStdString();
    o.account = settings.value(QStringLiteral("account")).toString().toStdString();
    o.signalGraceSeconds =
        settings.value(QStringLiteral("graceSeconds"), o.signalGraceSeconds).toInt();
    for (const QString& l : settings.value(QStringLiteral("extraLines")).toStringList())
        o.extraLines.push_back(l.toStdString());
    setOptions(o);
}

void SlurmForm::save() const
{
    const SlurmOptions o = options();
    QSettings settings;
    settings.beginGroup(QStringLiteral("launch/slurm"));
    settings.setValue(QStringLiteral("partition"), QString::fromStdString(o.partition));
    settings.setValue(QStringLiteral("time"), QString::fromStdString(o.time));
    settings.setValue(QStringLiteral("nodes"), o.nodes);
    settings.setValue(QStringLiteral("cpusPerTask"), o.cpusPerTask);
    settings.setValue(QStringLiteral("gpus"), o.gpus);
    settings.setValue(QStringLiteral("memory"), QString::fromStdString(o.memory));
    settings.setValue(QStringLiteral("account"), QString::fromStdString(o.account));
    settings.setValue(QStringLiteral("graceSeconds"), o.signalGraceSeconds);
    QStringList extra;
    for (const std::string& l : o.extraLines)
        extra << QString::fromStdString(l);
    settings.setValue(QStringLiteral("extraLines"), extra);
}

} // namespace ckpt
