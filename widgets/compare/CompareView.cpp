#include "compare/CompareView.h"

#include "compare/DiffHighlightDelegate.h"
#include "compare/WeightsDiffView.h"
#include "models/CompareModel.h"
#include "models/ModelRoles.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

namespace ckpt {

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), m_proxy(new QSortFilterProxyModel(this)), m_tabs(new QTabWidget(this)),
      m_table(new QTableView(this)), m_summary(new QLabel(this)),
      m_onlyDifferences(new QCheckBox(tr("Only differences"), this)), m_weightsPage(new QWidget),
      m_weights(nullptr)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    auto* metadata = new QWidget;
    auto* mLayout = new QVBoxLayout(metadata);
    mLayout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_onlyDifferences);
    mLayout->addLayout(bar);
    mLayout->addWidget(m_table, 1);
    m_summary->setWordWrap(true);
    m_proxy->setFilterRole(roles::DifferentRole);
    m_table->setModel(m_proxy);
    m_table->setItemDelegate(new DiffHighlightDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->setAccessibleName(tr("Compared fields"));
    connect(m_onlyDifferences, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setFilterFixedString(on ? QStringLiteral("true") : QString());
    });
    m_tabs->addTab(metadata, tr("Metadata"));

    auto* wLayout = new QVBoxLayout(m_weightsPage);
    wLayout->setContentsMargins(0, 0, 0, 0);
    m_weights = new WeightsDiffView(m_weightsPage);
    wLayout->addWidget(m_weights);
    m_tabs->addTab(m_weightsPage, tr("Weights"));
    connect(m_tabs, &QTabWidget::currentChanged, this, &CompareView::startWeightsIfShown);
}

void CompareView::setModelFiles(const QString& modelA, const QString& labelA, const QString& modelB,
                                const QString& labelB)
{
    if (modelA.isEmpty() || modelB.isEmpty()) {
        setWeightsUnavailable(
            tr("%1 has no model file to compare.").arg(modelA.isEmpty() ? labelA : labelB));
        return;
    }
    m_pendingWeights = [this, modelA, labelA, modelB, labelB] {
        m_weights->compare(modelA, labelA, modelB, labelB);
    };
    m_weights->clear(tr("Open this tab to compare the weights of %1 and %2.").arg(labelA, labelB));
    startWeightsIfShown();
}

void CompareView::setRemoteWeights(std::function<Result<ModelDiff>(const Progress&)> work,
                                   const QString& labelA, const QString& labelB,
                                   const QString& host)
{
    m_pendingWeights = [this, work = std::move(work), labelA, labelB, host] {
        m_weights->compareWith(work, labelA, labelB, host);
    };
    m_weights->clear(
        tr("Open this tab to compare the weights of %1 and %2 on %3.").arg(labelA, labelB, host));
    startWeightsIfShown();
}

void CompareView::setWeightsUnavailable(const QString& why)
{
    m_pendingWeights = {};
    m_weights->clear(why);
}

void CompareView::startWeightsIfShown()
{
    if (!m_pendingWeights || m_tabs->currentWidget() != m_weightsPage)
        return;
    const auto start = std::exchange(m_pendingWeights, {});
    start();
}

void CompareView::setModel(CompareModel* model)
{
    m_model = model;
    m_proxy->setSourceModel(model);
    connect(model, &QAbstractItemModel::modelReset, this, &CompareView::updateSummary);
    updateSummary();
}

void CompareView::updateSummary()
{
    if (!m_model || m_model->isEmpty()) {
        // Also after a comparison is cleared: the last one's summary must not stay.
        m_summary->setText(tr("Select two epochs (Ctrl+click in the table; they may belong to "
                              "two runs) and choose Compare (Ctrl+D)."));
        return;
    }
    m_summary->setText(
        tr("<b>%1</b> vs <b>%2</b>: %n field(s) differ", nullptr, m_model->differenceCount())
            .arg(m_model->headerData(CompareModel::LeftColumn, Qt::Horizontal)
                     .toString()
                     .toHtmlEscaped(),
                 m_model->headerData(CompareModel::RightColumn, Qt::Horizontal)
                     .toString()
                     .toHtmlEscaped()));
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->resizeSection(
        0, std::max(160, m_table->horizontalHeader()->sectionSize(0)));
    for (int c = 1; c < 3; ++c)
        m_table->horizontalHeader()->resizeSection(
            c, std::min(420, std::max(200, m_table->horizontalHeader()->sectionSize(c))));
}

} // namespace ckpt
