#include "compare/CompareView.h"

#include "compare/DiffHighlightDelegate.h"
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

namespace ckpt {

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), m_proxy(new QSortFilterProxyModel(this)), m_tabs(new QTabWidget(this)),
      m_table(new QTableView(this)), m_summary(new QLabel(this)),
      m_onlyDifferences(new QCheckBox(tr("Only differences"), this)), m_weightsPage(new QWidget)
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
    m_summary->setText(tr("Select two epochs (Ctrl+click in the table; they may belong to two "
                          "runs) and choose Compare (Ctrl+D)."));
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

    // Reserved for the weights comparison: kept visible so the place is obvious.
    auto* wLayout = new QVBoxLayout(m_weightsPage);
    auto* placeholder =
        new QLabel(tr("<h3>Weights</h3><p>The tensor-by-tensor comparison of the two model files "
                      "(per-layer shapes, max |Δ|, relative change) will appear here.</p>"
                      "<p><i>Not available yet: it is being built separately.</i></p>"),
                   m_weightsPage);
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setWordWrap(true);
    placeholder->setObjectName(QStringLiteral("weightsPlaceholder"));
    wLayout->addWidget(placeholder);
    m_tabs->addTab(m_weightsPage, tr("Weights"));
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
    if (!m_model || m_model->isEmpty())
        return;
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
