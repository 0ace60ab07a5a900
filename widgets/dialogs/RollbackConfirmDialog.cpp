#include "dialogs/RollbackConfirmDialog.h"

#include "jobs/JobRunner.h"
#include "model/Run.h"
#include "ops/Relinker.h"
#include "report/Format.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace ckpt {

namespace {
QString epochList(const std::vector<int>& epochs)
{
    QStringList parts;
    const size_t shown = std::min<size_t>(epochs.size(), 12);
    for (size_t i = 0; i < shown; ++i)
        parts << QString::number(epochs[i]);
    if (epochs.size() > shown)
        parts << QObject::tr("… (%1 more)").arg(epochs.size() - shown);
    return parts.join(QStringLiteral(", "));
}

struct CheckResult
{
    bool ok = false;
    QStringList failures;
    QString error;
};
} // namespace

RollbackConfirmDialog::Request RollbackConfirmDialog::requestFor(const Run& run,
                                                                 const QString& runName,
                                                                 const QString& link, int epoch)
{
    Request r;
    r.runName = runName;
    r.runRoot = QString::fromStdString(run.root);
    r.link = link;
    r.epoch = epoch;
    const bool isLast = link == QLatin1String("last");
    if (const RunLink* current = run.link(link.toStdString())) {
        r.currentTarget = current->epoch;
        // A copy's link into the original (or a moved run's) is shown as the
        // local epoch; say where it really points.
        if (current->relocated)
            r.linkOutside = QString::fromStdString(current->target);
    }
    if (isLast) {
        r.overwritten = Relinker::restartOverwrites(run, epoch);
        if (const RunLink* best = run.link("best"))
            r.bestEpoch = best->epoch;
    }
    return r;
}

QString RollbackConfirmDialog::describe(const Request& r)
{
    const bool isLast = r.link == QLatin1String("last");
    QString text = isLast
                       ? tr("<p>Make epoch <b>%1</b> the <b>last</b> checkpoint of <b>%2</b> "
                            "(roll back)?</p>")
                             .arg(r.epoch)
                             .arg(r.runName.toHtmlEscaped())
                       : tr("<p>Make epoch <b>%1</b> the <b>best</b> checkpoint of <b>%2</b>?</p>")
                             .arg(r.epoch)
                             .arg(r.runName.toHtmlEscaped());
    if (!r.linkOutside.isEmpty())
        text += tr("<p><b>%1 now points outside this run</b>, at %2 (a moved or copied run). "
                   "Afterwards it points at this run's own epoch %3.</p>")
                    .arg(r.link, r.linkOutside.toHtmlEscaped())
                    .arg(r.epoch);
    else if (r.currentTarget)
        text += tr("<p>%1 now points at epoch %2.</p>").arg(r.link).arg(*r.currentTarget);
    if (isLast) {
        if (r.overwritten.empty())
            text += tr("<p>A restart from here overwrites no saved epoch.</p>");
        else
            text += tr("<p><b>A restart from epoch %1 would overwrite %n later epoch(s):</b> "
                       "%2.</p>",
                       nullptr, static_cast<int>(r.overwritten.size()))
                        .arg(r.epoch)
                        .arg(epochList(r.overwritten));
        if (r.bestEpoch && *r.bestEpoch > r.epoch)
            text += tr("<p><b>best points at epoch %1, beyond epoch %2:</b> the restarted run "
                       "overwrites it, and the best model so far is lost unless you copy "
                       "epochs/%3 aside first.</p>")
                        .arg(*r.bestEpoch)
                        .arg(r.epoch)
                        .arg(*r.bestEpoch, 3, 10, QLatin1Char('0'));
    }
    text += tr("<p>The link is replaced atomically and the change is logged in ckpt.log. "
               "Edit ▸ Undo reverts it.</p>");
    return text;
}

RollbackConfirmDialog::RollbackConfirmDialog(const Request& request, QWidget* parent)
    : QDialog(parent), m_request(request), m_runner(new JobRunner(this)),
      m_healthLabel(new QLabel(this)), m_progress(new QProgressBar(this)),
      m_check(new QPushButton(this)), m_force(new QCheckBox(this))
{
    const bool isLast = request.link == QLatin1String("last");
    setWindowTitle(isLast ? tr("Roll back") : tr("Change best"));
    auto* layout = new QVBoxLayout(this);
    auto* label = new QLabel(describe(request), this);
    label->setObjectName(QStringLiteral("description"));
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setMinimumWidth(460);
    layout->addWidget(label);

    m_healthLabel->setObjectName(QStringLiteral("health"));
    m_healthLabel->setWordWrap(true);
    m_healthLabel->setTextFormat(Qt::RichText);
    m_healthLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_healthLabel);
    auto* progressRow = new QHBoxLayout;
    m_progress->setTextVisible(true);
    progressRow->addWidget(m_progress, 1);
    progressRow->addStretch(); // keeps the button its own size once the bar is hidden
    progressRow->addWidget(m_check);
    layout->addLayout(progressRow);
    m_force->setText(tr("&Force: point %1 at epoch %2 anyway (a restart from it may fail or load "
                        "a damaged model)")
                         .arg(request.link)
                         .arg(request.epoch));
    m_force->setVisible(false);
    layout->addWidget(m_force);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_confirm = buttons->addButton(isLast ? tr("Make &last") : tr("Make &best"),
                                   QDialogButtonBox::AcceptRole);
    m_confirm->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(m_force, &QCheckBox::toggled, this, &RollbackConfirmDialog::updateConfirm);
    connect(m_check, &QPushButton::clicked, this, [this] {
        if (m_health == Health::Checking) {
            m_runner->cancel();
            showResult(Health::NotChecked, {}, tr("Check cancelled."));
        } else {
            startCheck();
        }
    });
    connect(m_runner, &JobRunner::progress, this, [this](quint64 done, quint64 total) {
        m_progress->setRange(0, total > 0 ? 1000 : 0);
        if (total > 0)
            m_progress->setValue(int(1000.0 * double(done) / double(total)));
        m_progress->setFormat(
            QString::fromStdString(Format::bytes(double(done))) +
            (total > 0 ? tr(" of %1").arg(QString::fromStdString(Format::bytes(double(total))))
                       : QString()));
    });
    startCheck();
}

RollbackConfirmDialog::~RollbackConfirmDialog() = default;

bool RollbackConfirmDialog::force() const
{
    return m_health == Health::Failed && m_force->isChecked();
}

void RollbackConfirmDialog::startCheck()
{
    if (m_request.runRoot.isEmpty()) {
        showResult(Health::NotChecked, {}, tr("No run folder to check."));
        return;
    }
    m_health = Health::Checking;
    m_failures.clear();
    m_healthLabel->setText(tr("Checking epoch %1 as a restart would read it: ckpt-info.json, the "
                              "model file and its checksum…")
                               .arg(m_request.epoch));
    m_progress->setRange(0, 0);
    m_progress->setFormat(QString());
    m_progress->setVisible(true);
    m_check->setText(tr("Cancel Check"));
    m_force->setVisible(false);
    updateConfirm();
    const std::string root = m_request.runRoot.toStdString();
    const int epoch = m_request.epoch;
    m_runner->start<CheckResult>(
        [root, epoch](const Progress& progress) {
            CheckResult out;
            auto r = Relinker::checkEpoch(root, epoch, progress);
            if (!r) {
                out.error = QString::fromStdString(r.error().message);
                return out;
            }
            out.ok = true;
            for (const auto& f : *r)
                out.failures << QString::fromStdString(f);
            return out;
        },
        [this](CheckResult r) {
            if (!r.ok)
                showResult(Health::NotChecked, {}, r.error);
            else
                showResult(r.failures.isEmpty() ? Health::Healthy : Health::Failed, r.failures, {});
        });
}

void RollbackConfirmDialog::showResult(Health health, const QStringList& failures,
                                       const QString& error)
{
    m_health = health;
    m_failures = failures;
    m_progress->setVisible(false);
    m_check->setText(tr("Check &Again"));
    switch (health) {
    case Health::Healthy:
        m_healthLabel->setText(tr("<p>✔ Epoch %1 is fit for a restart: ckpt-info.json reads and "
                                  "names it, the model file is there and its checksum matches (or "
                                  "checksums are disabled).</p>")
                                   .arg(m_request.epoch));
        break;
    case Health::Failed: {
        QString list;
        for (const QString& f : failures)
            list += QStringLiteral("<li>%1</li>").arg(f.toHtmlEscaped());
        m_healthLabel->setText(tr("<p><b>✘ A restart from epoch %1 would fail or load a damaged "
                                  "model:</b></p><ul>%2</ul>")
                                   .arg(m_request.epoch)
                                   .arg(list));
        m_force->setVisible(true);
        break;
    }
    case Health::NotChecked:
    case Health::Checking:
        m_healthLabel->setText(
            tr("<p>%1 The link is changed only after epoch %2 has been checked.</p>")
                .arg(error.toHtmlEscaped())
                .arg(m_request.epoch));
        break;
    }
    updateConfirm();
    fitToContents();
    emit healthChecked(health);
}

void RollbackConfirmDialog::fitToContents()
{
    // The check's answer is longer than "Checking…": grow with it, or the
    // word-wrapped labels are laid over each other.
    layout()->activate();
    const int needed = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width())
                                                     : layout()->totalSizeHint().height();
    setMinimumHeight(needed);
    if (height() < needed)
        resize(width(), needed);
}

void RollbackConfirmDialog::updateConfirm()
{
    if (!m_confirm)
        return;
    const bool isLast = m_request.link == QLatin1String("last");
    const bool forced = force();
    m_confirm->setEnabled(m_health == Health::Healthy || forced);
    m_confirm->setText(forced ? (isLast ? tr("Force &last") : tr("Force &best"))
                              : (isLast ? tr("Make &last") : tr("Make &best")));
}

} // namespace ckpt
