#include "dialogs/ConnectDialog.h"

#include "jobs/JobRunner.h"
#include "remote/RemoteTarget.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ckpt {

ConnectDialog::ConnectDialog(const QStringList& hosts, const QStringList& recent,
                             const RemoteOptions& baseOptions, QWidget* parent)
    : QDialog(parent), m_base(baseOptions), m_recent(new QComboBox(this)),
      m_host(new QComboBox(this)), m_user(new QLineEdit(this)), m_port(new QSpinBox(this)),
      m_path(new QLineEdit(this)), m_ckpt(new QLineEdit(this)), m_result(new QLabel(this)),
      m_test(new QPushButton(tr("&Test"), this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)),
      m_runner(new JobRunner(this))
{
    setWindowTitle(tr("Connect to Cluster"));
    m_recent->setObjectName(QStringLiteral("recent"));
    m_recent->addItem(recent.isEmpty() ? tr("(none yet)") : tr("(choose one)"));
    m_recent->addItems(recent);
    m_recent->setEnabled(!recent.isEmpty());
    m_host->setEditable(true);
    m_host->setObjectName(QStringLiteral("host"));
    m_host->addItems(hosts);
    m_host->setCurrentIndex(-1);
    m_host->lineEdit()->setPlaceholderText(
        hosts.isEmpty() ? tr("cluster.example.org") : tr("a Host of ~/.ssh/config, or any name"));
    m_user->setObjectName(QStringLiteral("user"));
    m_user->setPlaceholderText(tr("as ssh decides (~/.ssh/config, or your name)"));
    m_port->setObjectName(QStringLiteral("port"));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("default"));
    m_path->setObjectName(QStringLiteral("path"));
    m_path->setPlaceholderText(tr("/scratch/me/experiments or ~/experiments"));
    m_ckpt->setObjectName(QStringLiteral("ckpt"));
    m_ckpt->setPlaceholderText(tr("ckpt on the far PATH (e.g. ~/.local/ckpt/bin/ckpt)"));
    m_result->setObjectName(QStringLiteral("result"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setMinimumWidth(460);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Connect"));
    m_buttons->addButton(m_test, QDialogButtonBox::ActionRole);

    auto* form = new QFormLayout;
    form->addRow(tr("&Recent:"), m_recent);
    form->addRow(tr("&Host:"), m_host);
    form->addRow(tr("&User:"), m_user);
    form->addRow(tr("P&ort:"), m_port);
    form->addRow(tr("&Folder:"), m_path);
    form->addRow(tr("&ckpt there:"), m_ckpt);
    auto* hint = new QLabel(
        tr("Your ssh set-up is used as it is (keys, agent, ProxyJump); no password is asked. "
           "No ckpt there? scripts/install-remote.sh HOST puts one in ~/.local/ckpt."),
        this);
    hint->setWordWrap(true);
    hint->setEnabled(false);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(m_result);
    layout->addWidget(m_buttons);

    connect(m_recent, &QComboBox::activated, this, [this](int row) {
        if (row > 0)
            fillFrom(m_recent->itemText(row));
    });
    connect(m_test, &QPushButton::clicked, this, [this] { probe(false); });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_runner, &JobRunner::runningChanged, this, &ConnectDialog::updateButtons);
    connect(m_host, &QComboBox::editTextChanged, this, &ConnectDialog::updateButtons);
    connect(m_path, &QLineEdit::textChanged, this, &ConnectDialog::updateButtons);
    if (!recent.isEmpty())
        fillFrom(recent.first());
    updateButtons();
}

ConnectDialog::~ConnectDialog() = default;

void ConnectDialog::fillFrom(const QString& url)
{
    auto target = RemoteTarget::parse(url.toStdString());
    if (!target)
        return;
    m_host->setEditText(QString::fromStdString(target->host));
    m_user->setText(QString::fromStdString(target->user));
    m_port->setValue(target->port.value_or(0));
    m_path->setText(QString::fromStdString(target->path));
}

QString ConnectDialog::url() const
{
    RemoteTarget t;
    t.host = m_host->currentText().trimmed().toStdString();
    t.user = m_user->text().trimmed().toStdString();
    if (m_port->value() > 0)
        t.port = m_port->value();
    t.path = m_path->text().trimmed().toStdString();
    return QString::fromStdString(t.url());
}

QString ConnectDialog::ckptPath() const
{
    return m_ckpt->text().trimmed();
}

void ConnectDialog::setCkptPath(const QString& path)
{
    m_ckpt->setText(path);
}

RemoteOptions ConnectDialog::options() const
{
    RemoteOptions o = m_base;
    if (!ckptPath().isEmpty())
        o.ckpt = ckptPath().toStdString();
    return o;
}

void ConnectDialog::updateButtons()
{
    const bool complete = !m_host->currentText().trimmed().isEmpty() &&
                          !m_path->text().trimmed().isEmpty() && !m_runner->isRunning();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(complete);
    m_test->setEnabled(complete);
}

void ConnectDialog::accept()
{
    probe(true);
}

void ConnectDialog::probe(bool thenAccept)
{
    auto target = RemoteTarget::parse(url().toStdString());
    if (!target) {
        m_result->setText(QString::fromStdString(target.error().message));
        emit probed(false, m_result->text());
        return;
    }
    m_accepting = thenAccept;
    m_result->setText(tr("Connecting to %1…").arg(QString::fromStdString(target->display())));
    using Probed = Result<RemoteCkpt::Version>;
    m_runner->start<Probed>(
        [client = RemoteCkpt(*target, options())](const Progress&) { return client.probe(); },
        [this, host = QString::fromStdString(target->display())](Probed v) {
            const bool ok = static_cast<bool>(v);
            m_result->setText(ok ? tr("✓ ckpt %1 on %2 answers (protocol %3).")
                                       .arg(QString::fromStdString(v->version), host)
                                       .arg(v->protocol)
                                 : tr("✗ %1").arg(QString::fromStdString(v.error().message)));
            updateButtons();
            emit probed(ok, m_result->text());
            if (ok && m_accepting)
                QDialog::accept();
        });
    updateButtons();
}

} // namespace ckpt
