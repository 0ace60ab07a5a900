#include "dialogs/SweepEditor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace ckpt {

SweepEditor::SweepEditor(QWidget* parent)
    : QGroupBox(tr("S&weep: one fork per value"), parent), m_key(new QComboBox(this)),
      m_values(new QLineEdit(this)), m_parallel(new QSpinBox(this))
{
    setObjectName(QStringLiteral("sweep"));
    setCheckable(true);
    setChecked(false);
    m_key->setObjectName(QStringLiteral("sweepKey"));
    m_key->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_key->setMinimumContentsLength(16);
    m_values->setObjectName(QStringLiteral("sweepValues"));
    m_values->setPlaceholderText(tr("1e-3, 3e-4, 1e-4"));
    m_parallel->setObjectName(QStringLiteral("sweepParallel"));
    m_parallel->setRange(1, 256);
    m_parallel->setSuffix(tr(" at a time"));
    m_parallel->setToolTip(tr("Local: trainers running at once. Slurm: the job array's %K."));

    auto* form = new QFormLayout(this);
    auto* row = new QHBoxLayout;
    row->addWidget(m_key);
    row->addWidget(new QLabel(tr("values:"), this));
    row->addWidget(m_values, 1);
    form->addRow(tr("Parameter:"), row);
    auto* runs = new QHBoxLayout;
    runs->addWidget(m_parallel);
    runs->addWidget(new QLabel(tr("(local queue, or the Slurm array's limit)"), this));
    runs->addStretch();
    form->addRow(tr("Runs:"), runs);

    connect(this, &QGroupBox::toggled, this, &SweepEditor::changed);
    connect(m_key, &QComboBox::currentIndexChanged, this, &SweepEditor::changed);
    connect(m_values, &QLineEdit::textChanged, this, &SweepEditor::changed);
    connect(m_parallel, &QSpinBox::valueChanged, this, &SweepEditor::changed);
}

void SweepEditor::setKeys(const QStringList& keys)
{
    const QString current = m_key->currentText();
    const QSignalBlocker block(m_key);
    m_key->clear();
    m_key->addItems(keys);
    int index = keys.indexOf(current);
    if (index < 0)
        index = keys.indexOf(QStringLiteral("learning_rate"));
    m_key->setCurrentIndex(std::max<int>(index, 0));
}

QString SweepEditor::key() const
{
    return m_key->currentText();
}

Result<std::vector<ParamEdit>> SweepEditor::values() const
{
    if (key().isEmpty())
        return Error::at({}, "sweep: choose a parameter");
    if (m_values->text().trimmed().isEmpty())
        return Error::at({}, "sweep: give the values of " + key().toStdString() +
                                 ", separated by commas");
    return ParamEdit::parseSweep((key() + QLatin1Char('=') + m_values->text()).toStdString());
}

int SweepEditor::parallel() const
{
    return m_parallel->value();
}

} // namespace ckpt
