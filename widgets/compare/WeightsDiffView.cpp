#include "compare/WeightsDiffView.h"

#include "compare/ChangeBarDelegate.h"
#include "compare/TensorOverlayDialog.h"
#include "jobs/JobRunner.h"
#include "modelfile/WeightsDiff.h"
#include "models/LayerRankingModel.h"
#include "models/TensorDiffFilterModel.h"
#include "models/TensorDiffModel.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace ckpt {

namespace {

void setUpTable(QTableView* view)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSortingEnabled(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setHighlightSections(false);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
}

} // namespace

WeightsDiffView::WeightsDiffView(QWidget* parent)
    : QWidget(parent), m_job(new JobRunner(this)), m_tensorModel(new TensorDiffModel(this)),
      m_filter(new TensorDiffFilterModel(this)), m_layerModel(new LayerRankingModel(this)),
      m_summary(new QLabel(this)), m_progress(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_optimizerBox(new QCheckBox(this)),
      m_tensors(new QTableView), m_layers(new QTableView)
{
    m_summary->setObjectName(QStringLiteral("weightsSummary"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    m_progress->hide();
    m_cancel->hide();

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_progress);
    top->addWidget(m_cancel);

    auto* filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("Show:")));
    const std::pair<int, QString> boxes[] = {{TensorDiffFilterModel::Changed, tr("changed")},
                                             {TensorDiffFilterModel::Same, tr("same")},
                                             {TensorDiffFilterModel::OnlyA, tr("only in A")},
                                             {TensorDiffFilterModel::OnlyB, tr("only in B")},
                                             {TensorDiffFilterModel::Mismatch, tr("mismatch")}};
    for (const auto& [flag, text] : boxes) {
        auto* box = new QCheckBox(text, this);
        box->setChecked(true);
        box->setProperty("filter", flag);
        connect(box, &QCheckBox::toggled, this, [this, f = flag](bool on) {
            m_filter->setFilterEnabled(TensorDiffFilterModel::Filter(f), on);
            updateSummary();
        });
        filters->addWidget(box);
        m_statusBoxes << box;
    }
    filters->addStretch(1);
    m_optimizerBox->setText(tr("Op&timizer state"));
    m_optimizerBox->setToolTip(tr("Also show the optimizer's tensors and step counters "
                                  "(hidden: they crowd out the model's layers)"));
    connect(m_optimizerBox, &QCheckBox::toggled, this, [this](bool on) {
        m_filter->setShowOptimizer(on);
        showLayers();
        updateSummary();
    });
    filters->addWidget(m_optimizerBox);

    m_filter->setSourceModel(m_tensorModel);
    m_tensors->setModel(m_filter);
    setUpTable(m_tensors);
    m_tensors->setItemDelegate(
        new ChangeBarDelegate(TensorDiffModel::BarValueRole, TensorDiffModel::BadRole, m_tensors));
    m_tensors->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_tensors->horizontalHeader()->setStretchLastSection(true);
    m_tensors->setToolTip(tr("Double-click a tensor to see both sides' histograms"));
    m_layers->setModel(m_layerModel);
    setUpTable(m_layers);
    m_layers->setSortingEnabled(false); // the ranking is the order
    m_layers->setItemDelegate(new ChangeBarDelegate(LayerRankingModel::BarValueRole,
                                                    LayerRankingModel::BadRole, m_layers));
    m_layers->horizontalHeader()->setStretchLastSection(false);

    auto* layerBox = new QWidget;
    auto* layerLayout = new QVBoxLayout(layerBox);
    layerLayout->setContentsMargins(0, 0, 0, 0);
    auto* layerTitle = new QLabel(tr("<b>Layers that moved most</b>"));
    layerLayout->addWidget(layerTitle);
    layerLayout->addWidget(m_layers);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_tensors);
    split->addWidget(layerBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(filters);
    layout->addWidget(split, 1);

    connect(m_cancel, &QPushButton::clicked, this, &WeightsDiffView::cancel);
    connect(m_job, &JobRunner::progress, this, [this](quint64 done, quint64 total) {
        if (total == 0)
            return;
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(1000.0 * double(done) / double(total)));
    });
    connect(m_tensors, &QTableView::doubleClicked, this, &WeightsDiffView::openOverlay);
    clear(tr("Choose two epochs to compare their weights."));
}

WeightsDiffView::~WeightsDiffView() = default;

QCheckBox* WeightsDiffView::statusFilter(int filter) const
{
    for (QCheckBox* box : m_statusBoxes)
        if (box->property("filter").toInt() == filter)
            return box;
    return nullptr;
}

bool WeightsDiffView::isRunning() const
{
    return m_job->isRunning();
}

void WeightsDiffView::clear(const QString& message)
{
    m_job->cancel();
    m_diff.reset();
    m_tensorModel->clear();
    m_layerModel->clear();
    m_progress->hide();
    m_cancel->hide();
    m_summary->setText(message.toHtmlEscaped());
    setResultsEnabled(false);
}

// Greyed while there is nothing to filter or sort: the message says why.
void WeightsDiffView::setResultsEnabled(bool enabled)
{
    for (QCheckBox* box : m_statusBoxes)
        box->setEnabled(enabled);
    m_optimizerBox->setEnabled(enabled);
    m_tensors->setEnabled(enabled);
    m_layers->setEnabled(enabled);
}

void WeightsDiffView::cancel()
{
    if (!m_job->isRunning())
        return;
    m_job->cancel();
    m_progress->hide();
    m_cancel->hide();
    m_summary->setText(tr("Comparison cancelled."));
    emit finished(false);
}

void WeightsDiffView::compare(const QString& modelA, const QString& labelA, const QString& modelB,
                              const QString& labelB)
{
    clear();
    m_host.clear();
    m_labelA = labelA.isEmpty() ? QFileInfo(modelA).fileName() : labelA;
    m_labelB = labelB.isEmpty() ? QFileInfo(modelB).fileName() : labelB;
    const std::string a = modelA.toStdString(), b = modelB.toStdString();
    const std::string scratch = m_scratch.path().toStdString();
    const std::string run = std::to_string(++m_runs);
    start(
        [a, b, scratch, run](const Progress& progress) -> Outcome {
            // Keras 3 archives are compared through their extracted weights file.
            auto diff = WeightsDiff::diff(a, b, scratch, run, TensorDiff::Options{}, progress);
            if (!diff)
                return Outcome{diff.error(), {}, {}};
            return Outcome{std::move(diff->diff), diff->hdf5A, diff->hdf5B};
        },
        tr("Comparing <b>%1</b> with <b>%2</b>\u2026")
            .arg(m_labelA.toHtmlEscaped(), m_labelB.toHtmlEscaped()));
}

void WeightsDiffView::compareWith(DiffWork work, const QString& labelA, const QString& labelB,
                                  const QString& host)
{
    clear();
    m_host = host;
    m_labelA = labelA;
    m_labelB = labelB;
    start(
        [work = std::move(work)](const Progress& progress) -> Outcome {
            return Outcome{work(progress), {}, {}};
        },
        tr("Comparing <b>%1</b> with <b>%2</b> on %3\u2026")
            .arg(m_labelA.toHtmlEscaped(), m_labelB.toHtmlEscaped(), host.toHtmlEscaped()));
}

void WeightsDiffView::start(std::function<Outcome(const Progress&)> work, const QString& busyText)
{
    m_summary->setText(busyText);
    // A far diff may say nothing until it is done: busy until its first step.
    m_progress->setRange(0, m_host.isEmpty() ? 1000 : 0);
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_tensors->setToolTip(m_host.isEmpty()
                              ? tr("Double-click a tensor to see both sides' histograms")
                              : tr("Compared on %1: the tensors' values stay there, so no "
                                   "histograms are drawn here")
                                    .arg(m_host));
    m_job->start<Outcome>(std::move(work),
                          [this](Outcome outcome) { showOutcome(std::move(outcome)); });
}

void WeightsDiffView::showOutcome(Outcome outcome)
{
    m_progress->hide();
    m_cancel->hide();
    if (!outcome.diff) {
        QString text = QString::fromStdString(outcome.diff.error().message).toHtmlEscaped();
        // Which comparison failed where: the far message may name neither.
        if (!m_host.isEmpty())
            text = tr("<b>%1</b> \u2192 <b>%2</b> on %3: %4")
                       .arg(m_labelA.toHtmlEscaped(), m_labelB.toHtmlEscaped(),
                            m_host.toHtmlEscaped(), text);
        m_summary->setText(text);
        emit finished(false);
        return;
    }
    m_hdf5A = QString::fromStdString(outcome.hdf5A);
    m_hdf5B = QString::fromStdString(outcome.hdf5B);
    m_diff = std::move(outcome.diff.value());
    m_tensorModel->setDiff(m_diff->tensors);
    setResultsEnabled(true);
    showLayers();
    m_tensors->sortByColumn(TensorDiffModel::RelChangeColumn, Qt::DescendingOrder);
    m_tensors->resizeColumnsToContents();
    m_tensors->setColumnWidth(
        TensorDiffModel::RelChangeColumn,
        std::max(m_tensors->columnWidth(TensorDiffModel::RelChangeColumn), 120));
    m_layers->resizeColumnsToContents();
    updateSummary();
    emit finished(true);
}

void WeightsDiffView::showLayers()
{
    if (!m_diff)
        return;
    if (m_filter->showsOptimizer()) {
        m_layerModel->setLayers(m_diff->layers);
        return;
    }
    // A layer made only of optimizer state ("optimizer", "optimizer_weights").
    std::set<std::string> model;
    for (const TensorDiffEntry& e : m_diff->tensors)
        if (!e.optimizerState)
            model.insert(TensorDiff::layerOf(e.key));
    std::vector<LayerDiff> layers;
    for (const LayerDiff& l : m_diff->layers)
        if (model.count(l.name))
            layers.push_back(l);
    m_layerModel->setLayers(std::move(layers));
}

void WeightsDiffView::updateSummary()
{
    if (!m_diff)
        return;
    int counts[5] = {0, 0, 0, 0, 0};
    int optimizer = 0;
    int unreadable = 0;
    for (const TensorDiffEntry& e : m_diff->tensors) {
        if (e.optimizerState) {
            ++optimizer;
            if (!m_filter->showsOptimizer())
                continue;
        }
        if (e.status == TensorDiffEntry::Status::Unreadable) {
            ++unreadable; // told apart from the mismatches below, though filtered with them
            continue;
        }
        const int f = TensorDiffFilterModel::filterOf(int(e.status));
        for (int bit = 0; bit < 5; ++bit)
            if (f == (1 << bit))
                ++counts[bit];
    }
    const std::size_t counted =
        m_diff->tensors.size() - (m_filter->showsOptimizer() ? 0 : std::size_t(optimizer));
    QString text = tr("<b>%1</b> \u2192 <b>%2</b>: %3 tensors, %4 changed, %5 same")
                       .arg(m_labelA.toHtmlEscaped(), m_labelB.toHtmlEscaped())
                       .arg(counted)
                       .arg(counts[0])
                       .arg(counts[1]);
    if (counts[2] || counts[3] || counts[4])
        text += tr(", %1 only in A, %2 only in B, %3 mismatched")
                    .arg(counts[2])
                    .arg(counts[3])
                    .arg(counts[4]);
    if (unreadable)
        text += tr(", <b>%n unreadable</b> (hover one for why)", nullptr, unreadable);
    const int bad = m_tensorModel->badCount();
    if (bad)
        text += tr(", <b>%n with NaN/Inf</b>", nullptr, bad);
    if (optimizer && !m_filter->showsOptimizer())
        text += optimizer == 1 ? tr("; 1 optimizer tensor hidden")
                               : tr("; %1 optimizer tensors hidden").arg(optimizer);
    if (m_filter->rowCount() != int(counted))
        text += tr(" (showing %1)").arg(m_filter->rowCount());
    m_summary->setText(text);
}

void WeightsDiffView::openOverlay(const QModelIndex& proxyIndex)
{
    // The overlay reads HDF5 datasets; other formats show their numbers in the table.
    if (!proxyIndex.isValid() || !m_diff || m_hdf5A.isEmpty() || m_hdf5B.isEmpty())
        return;
    const int row = m_filter->mapToSource(proxyIndex).row();
    const TensorDiffEntry& e = m_tensorModel->entry(row);
    TensorOverlayDialog::Side a{m_labelA, m_hdf5A, QString::fromStdString(e.pathA)};
    TensorOverlayDialog::Side b{m_labelB, m_hdf5B, QString::fromStdString(e.pathB)};
    if (e.pathA.empty() || e.pathB.empty()) {
        // One side only: show that one against itself is misleading; show it alone.
        const TensorOverlayDialog::Side& only = e.pathA.empty() ? b : a;
        a = only;
        b = only;
    }
    auto* dialog = new TensorOverlayDialog(a, b, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_overlay = dialog;
    connect(dialog, &QObject::destroyed, this, [this, dialog] {
        if (m_overlay == dialog)
            m_overlay = nullptr;
    });
    dialog->show();
}

} // namespace ckpt
