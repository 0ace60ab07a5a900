#include "dialogs/PruneDialog.h"

#include "common/Badges.h"
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

namespace ckpt {

namespace {
QString formatBytes(quint64 bytes)
{
    return QString::fromStdString(Format::bytes(double(bytes)));
}
} // namespace

PruneDialog::PruneDialog(const QString& runName, std::vector<EpochEntry> epochs,
                         std::set<int> protectedEpochs, QWidget* parent)
    : QDialog(parent), m_epochs(std::move(epochs)), m_protected(std::move(protectedEpochs)),
      m_mode(new QComboBox(this)), m_limit(new QSpinBox(this)), m_table(new QTableWidget(this)),
      m_summary(new QLabel(this))
{
    setWindowTitle(tr("Prune %1").arg(runName));
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
    m_ok = buttons->addButton(tr("Delete"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &PruneDialog::updatePreview);
    connect(m_limit, &QSpinBox::valueChanged, this, &PruneDialog::updatePreview);
    updatePreview();
}

KeepPolicy PruneDialog::policy() const
{
    KeepPolicy p;
    p.mode = static_cast<KeepMode>(m_mode->currentData().toInt());
    p.keepLimit = m_limit->value();
    return p;
}

void PruneDialog::updatePreview()
{
    std::vector<int> numbers;
    for (const auto& e : m_epochs)
        numbers.push_back(e.epoch);
    m_toDelete = policy().toDelete(numbers, m_protected);
    const std::set<int> doomed(m_toDelete.begin(), m_toDelete.end());
    m_bytesFreed = 0;
    m_table->setRowCount(static_cast<int>(m_epochs.size()));
    for (int r = 0; r < static_cast<int>(m_epochs.size()); ++r) {
        const auto& e = m_epochs[static_cast<size_t>(r)];
        const bool gone = doomed.count(e.epoch) > 0;
        if (gone)
            m_bytesFreed += e.bytes;
        auto* epoch = new QTableWidgetItem(QString::number(e.epoch));
        epoch->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* size = new QTableWidgetItem(formatBytes(e.bytes));
        size->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* fate = new QTableWidgetItem(gone                         ? tr("delete")
                                          : m_protected.count(e.epoch) ? tr("keep (protected)")
                                                                       : tr("keep"));
        if (gone) {
            for (auto* item : {epoch, size, fate}) {
                item->setForeground(Badges::checksumColor(ChecksumState::Mismatch));
                QFont f = item->font();
                f.setStrikeOut(true);
                item->setFont(f);
            }
        }
        m_table->setItem(r, 0, epoch);
        m_table->setItem(r, 1, size);
        m_table->setItem(r, 2, fate);
    }
    m_summary->setText(tr("%n epoch(s) will be deleted, freeing %1. Protected (never deleted): "
                          "last, best and the newest epoch.",
                          nullptr, static_cast<int>(m_toDelete.size()))
                           .arg(formatBytes(m_bytesFreed)));
    m_ok->setText(tr("Delete %n epoch(s)", nullptr, static_cast<int>(m_toDelete.size())));
    m_ok->setEnabled(!m_toDelete.empty());
}

} // namespace ckpt
