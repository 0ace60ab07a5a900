#include "dialogs/PruneDialog.h"

#include "common/Badges.h"
#include "jobs/JobRunner.h"
#include "launch/Lineage.h"
#include "ops/Trash.h"
#include "report/Format.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <map>
#include <utility>

namespace ckpt {

namespace {
QString formatBytes(quint64 bytes)
{
    return QString::fromStdString(Format::bytes(double(bytes)));
}

// A keep reason: newest, policy, or the name of a link that targets the epoch.
QString reasonText(const std::string& reason)
{
    if (reason == kKeepNewest)
        return PruneDialog::tr("newest");
    if (reason == kKeepPolicy)
        return PruneDialog::tr("within the limit");
    return QString::fromStdString(reason);
}
} // namespace

PruneDialog::PruneDialog(const QString& runName, Run snapshot, QWidget* parent,
                         const QString& remoteHost)
    : QDialog(parent), m_run(std::move(snapshot)), m_host(remoteHost),
      m_runner(new JobRunner(this)), m_mode(new QComboBox(this)), m_limit(new QSpinBox(this)),
      m_table(new QTableWidget(this)), m_summary(new QLabel(this))
{
    setWindowTitle(m_host.isEmpty() ? tr("Prune %1").arg(runName)
                                    : tr("Prune %1 on %2").arg(runName, m_host));
    resize(520, 560);
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_mode->addItem(tr("Linear: keep the newest N"), static_cast<int>(KeepMode::Linear));
    m_mode->addItem(tr("Exponential: dense recent, sparse old"),
                    static_cast<int>(KeepMode::Exponential));
    m_limit->setRange(0, 100000);
    m_limit->setValue(5);
    m_limit->setSuffix(tr(" epochs"));
    form->addRow(tr("Keep &mode:"), m_mode);
    form->addRow(tr("Keep &limit:"), m_limit);
    layout->addLayout(form);
    m_table->setColumnCount(3);
    m_table->setHorizontalHeaderLabels({tr("Epoch"), tr("Size"), tr("Fate")});
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    layout->addWidget(m_table, 1);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_trash = buttons->addButton(tr("Move to Trash"), QDialogButtonBox::AcceptRole);
    m_delete = buttons->addButton(tr("Delete Permanently"), QDialogButtonBox::DestructiveRole);
    // Enter, as one presses it to close a dialog, cancels: neither destructive
    // button is ever the default, and neither takes Enter when focused.
    QPushButton* cancel = buttons->button(QDialogButtonBox::Cancel);
    for (QPushButton* b : {m_trash, m_delete}) {
        b->setAutoDefault(false);
        b->setDefault(false);
        b->setEnabled(false);
    }
    cancel->setAutoDefault(true);
    cancel->setDefault(true);
    m_trash->setVisible(m_host.isEmpty()); // a far host's trash is not ours to offer
    connect(m_trash, &QPushButton::clicked, this, [this] {
        m_toTrash = true;
        accept();
    });
    connect(m_delete, &QPushButton::clicked, this, [this] {
        m_toTrash = false;
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &PruneDialog::replan);
    connect(m_limit, &QSpinBox::valueChanged, this, &PruneDialog::replan);
    replan();
}

PruneDialog::~PruneDialog() = default;

KeepPolicy PruneDialog::policy() const
{
    KeepPolicy p;
    p.mode = static_cast<KeepMode>(m_mode->currentData().toInt());
    p.keepLimit = m_limit->value();
    return p;
}

std::vector<int> PruneDialog::epochsToDelete() const
{
    std::vector<int> out;
    if (m_planned)
        for (const auto& c : m_plan.toDelete)
            out.push_back(c.epoch);
    return out;
}

void PruneDialog::replan()
{
    m_planned = false;
    m_trash->setEnabled(false);
    m_delete->setEnabled(false);
    m_summary->setText(tr("Planning…"));
    // The run is copied once more for the worker; a newer policy drops this plan.
    using Planned = std::pair<PrunePlan, QString>;
    m_runner->start<Planned>(
        [run = m_run, policy = policy(), remote = !m_host.isEmpty()](const Progress&) {
            if (remote)
                return Planned{Pruner::planHeld(run, policy), QString()};
            Planned out{Pruner::plan(run, policy, Lineage::forkPins(run.root)), QString()};
            if (!out.first.toDelete.empty())
                if (auto trash = Trash::locationFor(out.first.toDelete.front().dir); !trash)
                    out.second = QString::fromStdString(trash.error().message);
            return out;
        },
        [this](Planned planned) { showPlan(std::move(planned.first), std::move(planned.second)); });
}

void PruneDialog::showPlan(PrunePlan plan, QString trashProblem)
{
    m_plan = std::move(plan);
    m_trashProblem = std::move(trashProblem);
    m_planned = true;
    std::map<int, const PruneCandidate*> doomed;
    for (const auto& c : m_plan.toDelete)
        doomed[c.epoch] = &c;
    std::map<int, const KeptEpoch*> kept;
    for (const auto& k : m_plan.kept)
        kept[k.epoch] = &k;
    m_table->setRowCount(static_cast<int>(m_run.epochs.size()));
    for (int r = 0; r < static_cast<int>(m_run.epochs.size()); ++r) {
        const Epoch& e = m_run.epochs[static_cast<size_t>(r)];
        auto gone = doomed.find(e.number);
        const quint64 bytes =
            gone != doomed.end() ? gone->second->bytes : e.modelBytes().value_or(0);
        QString fate = tr("keep");
        if (gone != doomed.end()) {
            fate = tr("delete");
        } else if (auto k = kept.find(e.number); k != kept.end()) {
            QStringList why;
            bool isProtected = false;
            for (const std::string& reason : k->second->reasons) {
                why << reasonText(reason);
                isProtected = isProtected || reason != kKeepPolicy;
            }
            if (!why.isEmpty())
                fate = (isProtected ? tr("keep (protected: %1)") : tr("keep (%1)"))
                           .arg(why.join(QStringLiteral(", ")));
        }
        auto* epoch = new QTableWidgetItem(QString::number(e.number));
        epoch->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* size = new QTableWidgetItem(formatBytes(bytes));
        size->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* fateItem = new QTableWidgetItem(fate);
        if (gone != doomed.end()) {
            for (auto* item : {epoch, size, fateItem}) {
                item->setForeground(Badges::checksumColor(ChecksumState::Mismatch));
                QFont f = item->font();
                f.setStrikeOut(true);
                item->setFont(f);
            }
        }
        m_table->setItem(r, 0, epoch);
        m_table->setItem(r, 1, size);
        m_table->setItem(r, 2, fateItem);
    }
    const int count = static_cast<int>(m_plan.toDelete.size());
    QString text = tr("%n epoch(s) to remove (%1). Protected (never removed): last, best, "
                      "the newest epoch and the epochs other runs were forked from.",
                      nullptr, count)
                       .arg(formatBytes(m_plan.bytesFreed));
    const bool trashable = m_host.isEmpty() && m_trashProblem.isEmpty();
    if (count > 0 && trashable)
        text += QLatin1Char('\n') +
                tr("Move to Trash can be undone (Edit ▸ Undo); trashed epochs still use the "
                   "disk until the trash is emptied. Delete Permanently cannot be undone.");
    else if (count > 0 && m_host.isEmpty())
        text += QLatin1Char('\n') +
                tr("The trash cannot take them: %1. Only permanent deletion is possible, and it "
                   "cannot be undone.")
                    .arg(m_trashProblem);
    for (const auto& note : m_plan.notes)
        text += QLatin1Char('\n') + QString::fromStdString(note);
    if (!m_host.isEmpty())
        text += QLatin1Char('\n') +
                tr("The files are deleted on %1 by its ckpt, which checks the links again "
                   "there and keeps what they (or runs forked from it) protect.")
                    .arg(m_host);
    m_summary->setText(text);
    m_trash->setText(tr("Move %n Epoch(s) to Trash", nullptr, count));
    m_trash->setEnabled(count > 0 && trashable);
    m_trash->setToolTip(trashable ? QString() : m_trashProblem);
    m_delete->setText(tr("Delete %n Epoch(s) Permanently", nullptr, count));
    m_delete->setEnabled(count > 0);
    emit planned();
}

} // namespace ckpt
