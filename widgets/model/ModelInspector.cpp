#include "model/ModelInspector.h"

#include "jobs/JobRunner.h"
#include "model/TensorHistogramPlot.h"
#include "models/AttributeModel.h"
#include "models/H5TreeModel.h"
#include "tensor/TensorSourceStats.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ckpt {

namespace {

const char* const kStatNames[] = {"count", "min",   "max", "mean", "std",
                                  "l2",    "zeros", "nan", "inf"};

QString statNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("\u2014");
    return QString::number(v, 'g', 7);
}

QString count(std::uint64_t n)
{
    return QLocale::c().toString(qulonglong(n));
}

QString sourceFormatName(std::string_view format)
{
    if (format == "torch")
        return ModelInspector::tr("PyTorch checkpoint (zip)");
    if (format == "mindspore")
        return ModelInspector::tr("MindSpore checkpoint");
    if (format == "caffe2")
        return ModelInspector::tr("Caffe2 minidb");
    if (format == "synalinks")
        return ModelInspector::tr("Synalinks variables (JSON)");
    return QString::fromUtf8(format.data(), qsizetype(format.size()));
}

} // namespace

ModelInspector::ModelInspector(QWidget* parent)
    : QWidget(parent), m_openJob(new JobRunner(this)), m_tensorJob(new JobRunner(this)),
      m_treeModel(new H5TreeModel(this)), m_attributeModel(new AttributeModel(this)),
      m_header(new QLabel(this)), m_left(new QStackedWidget(this)), m_tree(new QTreeView),
      m_zipList(new QTreeWidget), m_tensorList(new QTreeWidget), m_tabs(new QTabWidget),
      m_attributes(new QTableView), m_attributeText(new QPlainTextEdit), m_statsTitle(new QLabel),
      m_tensorProgress(new QProgressBar), m_histogram(new TensorHistogramPlot),
      m_logY(new QCheckBox(tr("Logarithmic counts")))
{
    m_header->setObjectName(QStringLiteral("header"));
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_tree->setModel(m_treeModel);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_zipList->setColumnCount(3);
    m_zipList->setHeaderLabels({tr("Entry"), tr("Size"), tr("Compressed")});
    m_zipList->setRootIsDecorated(false);
    m_tensorList->setObjectName(QStringLiteral("tensorList"));
    m_tensorList->setColumnCount(4);
    m_tensorList->setHeaderLabels({tr("Tensor"), tr("Shape"), tr("Type"), tr("Size")});
    m_tensorList->setRootIsDecorated(false);
    m_tensorList->setUniformRowHeights(true);
    m_tensorList->setAlternatingRowColors(true);
    m_left->addWidget(m_tree);
    m_left->addWidget(m_zipList);
    m_left->addWidget(m_tensorList);

    m_attributes->setModel(m_attributeModel);
    m_attributes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_attributes->setSelectionMode(QAbstractItemView::SingleSelection);
    m_attributes->verticalHeader()->hide();
    m_attributes->horizontalHeader()->setStretchLastSection(true);
    m_attributes->setWordWrap(false);
    m_attributeText->setReadOnly(true);
    m_attributeText->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_attributeText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_attributeText->setPlaceholderText(tr("Select an attribute to see its whole value"));
    auto* attrSplit = new QSplitter(Qt::Vertical);
    attrSplit->addWidget(m_attributes);
    attrSplit->addWidget(m_attributeText);
    attrSplit->setStretchFactor(1, 2);

    auto* histPage = new QWidget;
    auto* histLayout = new QVBoxLayout(histPage);
    histLayout->addWidget(m_histogram, 1);
    histLayout->addWidget(m_logY);
    connect(m_logY, &QCheckBox::toggled, m_histogram, &TensorHistogramPlot::setLogY);

    m_tabs->addTab(attrSplit, tr("Attributes"));
    m_tabs->addTab(buildStatistics(), tr("Statistics"));
    m_tabs->addTab(histPage, tr("Histogram"));

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_left);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(split, 1);

    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ModelInspector::onCurrentChanged);
    connect(m_attributes->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ModelInspector::showAttributeText);
    connect(m_tensorList, &QTreeWidget::currentItemChanged, this, &ModelInspector::onTensorChanged);
    // A far inspect reports its statistics pass (a local open reports nothing).
    connect(m_openJob, &JobRunner::progress, this, [this](quint64 done, quint64 total) {
        if (total == 0)
            return;
        m_tensorProgress->setRange(0, 1000);
        m_tensorProgress->setValue(int(1000.0 * double(done) / double(total)));
    });
    connect(m_tensorJob, &JobRunner::progress, this, [this](quint64 done, quint64 total) {
        m_tensorProgress->setRange(0, 1000);
        m_tensorProgress->setValue(total ? int(1000.0 * double(done) / double(total)) : 0);
    });
    clearStatistics(tr("Select a numeric dataset in the tree."));
    m_header->setText(tr("No model file open."));
}

ModelInspector::~ModelInspector() = default;

QWidget* ModelInspector::buildStatistics()
{
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    m_statsTitle->setWordWrap(true);
    m_statsTitle->setTextFormat(Qt::PlainText);
    layout->addWidget(m_statsTitle);
    auto* form = new QFormLayout;
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const QString labels[] = {tr("Elements"), tr("Min"),   tr("Max"), tr("Mean"), tr("Std dev"),
                              tr("L2 norm"),  tr("Zeros"), tr("NaN"), tr("Inf")};
    for (std::size_t i = 0; i < std::size(kStatNames); ++i) {
        auto* value = new QLabel;
        value->setObjectName(QStringLiteral("stat_") + QLatin1String(kStatNames[i]));
        value->setFont(mono);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        form->addRow(labels[i], value);
        m_stats[QLatin1String(kStatNames[i])] = value;
    }
    layout->addLayout(form);
    m_tensorProgress->setTextVisible(false);
    m_tensorProgress->setMaximumHeight(8);
    m_tensorProgress->hide();
    layout->addWidget(m_tensorProgress);
    layout->addStretch(1);
    return page;
}

bool ModelInspector::isModelFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("h5") || suffix == QLatin1String("hdf5") ||
           suffix == QLatin1String("keras") || suffix == QLatin1String("pt") ||
           suffix == QLatin1String("pth") || suffix == QLatin1String("ckpt") ||
           path.endsWith(QLatin1String(".variables.json"));
}

void ModelInspector::reset(const QString& path)
{
    m_path = path;
    m_remote.reset();
    m_host.clear();
    m_overview.reset();
    m_treeModel->clear();
    m_tensorList->clear();
    m_attributeModel->setAttributes({});
    m_attributeText->clear();
    m_attributeText->setPlaceholderText(tr("Select an attribute to see its whole value"));
    m_tensorJob->cancel();
    clearStatistics(tr("Select a numeric dataset in the tree."));
}

void ModelInspector::open(const QString& path)
{
    reset(path);
    m_header->setText(tr("Opening %1\u2026").arg(path.toHtmlEscaped()));
    const std::string file = path.toStdString();
    const std::string scratch = m_scratch.path().toStdString();
    // A new name per open: an older extraction may still be read by a job.
    const std::string tag = "model-" + std::to_string(++m_opened) + ".weights.h5";
    m_openJob->start<Result<ModelOverview>>(
        [file, scratch, tag](const Progress&) { return ModelOverview::load(file, scratch, tag); },
        [this](Result<ModelOverview> overview) { showOverview(std::move(overview)); });
}

void ModelInspector::showOverview(Result<ModelOverview> overview)
{
    if (!overview) {
        m_header->setText(
            QStringLiteral("<b>%1</b><br>%2")
                .arg(QFileInfo(m_path).fileName().toHtmlEscaped(),
                     QString::fromStdString(overview.error().message).toHtmlEscaped()));
        emit loaded(false);
        return;
    }
    m_overview = std::move(overview.value());
    showHeader();
    if (m_overview->report) {
        m_treeModel->setRoot(m_overview->report->root);
        m_left->setCurrentWidget(m_tree);
        m_tree->expandToDepth(1);
        // Datasets sit deep and start collapsed: size the columns for typical
        // values rather than for what happens to be visible.
        const QFontMetrics fm = m_tree->fontMetrics();
        m_tree->setColumnWidth(H5TreeModel::NameColumn,
                               fm.horizontalAdvance(QLatin1Char('x')) * 34);
        m_tree->setColumnWidth(H5TreeModel::ShapeColumn,
                               fm.horizontalAdvance(QStringLiteral("(1024, 1024)  ")));
        m_tree->setColumnWidth(H5TreeModel::DTypeColumn,
                               fm.horizontalAdvance(QStringLiteral("bfloat16  ")));
        m_tree->setColumnWidth(H5TreeModel::BytesColumn,
                               fm.horizontalAdvance(QStringLiteral("1023.9 MB  ")));
        m_tree->setCurrentIndex(m_treeModel->index(0, 0));
    } else if (m_overview->source) {
        showTensorList();
    } else {
        showZipListing();
    }
    emit loaded(true);
}

void ModelInspector::showHeader()
{
    const ModelSniff& s = m_overview->sniff;
    QString format;
    if (m_overview->source)
        format = sourceFormatName(m_overview->source->format());
    else if (s.format == ModelSniff::Format::Hdf5)
        format = tr("HDF5");
    else if (s.zipKind == ModelSniff::ZipKind::Keras3)
        format = tr("Keras 3 archive (zip)");
    else if (s.zipKind == ModelSniff::ZipKind::TorchSave)
        format = tr("PyTorch archive (zip)");
    else
        format = tr("zip archive");
    QStringList facts;
    facts << format << H5TreeModel::bytesText(s.fileBytes);
    if (m_overview->report) {
        const KerasSummary& k = m_overview->report->keras;
        if (k.layout != KerasSummary::Layout::None) {
            if (!k.kerasVersion.empty())
                facts << tr("Keras %1").arg(QString::fromStdString(k.kerasVersion));
            if (!k.modelClass.empty())
                facts << QString::fromStdString(k.modelClass);
            facts << (k.layers.size() == 1 ? tr("1 layer") : tr("%1 layers").arg(k.layers.size()));
            facts << tr("%1 parameters").arg(count(k.totalParams));
        } else {
            facts << tr("%1 datasets").arg(count(m_overview->report->datasets));
        }
    } else if (m_overview->source) {
        facts << tr("%n tensors", nullptr, int(m_overview->source->tensors().size()));
    } else {
        facts << tr("%n entries", nullptr, int(s.entries.size()));
    }
    QString html = QStringLiteral("<b>%1</b> &nbsp; %2")
                       .arg(QFileInfo(m_path).fileName().toHtmlEscaped(),
                            facts.join(QStringLiteral(" \u00b7 ")).toHtmlEscaped());
    if (!m_overview->note.empty())
        html += QStringLiteral("<br><i>%1</i>")
                    .arg(QString::fromStdString(m_overview->note).toHtmlEscaped());
    if (m_overview->source) {
        for (const std::string& problem : m_overview->source->problems())
            html += QStringLiteral("<br><span style=\"color:#b00020\">%1</span>")
                        .arg(QString::fromStdString(problem).toHtmlEscaped());
    }
    m_header->setText(html);
}

void ModelInspector::showZipListing()
{
    m_zipList->clear();
    for (const ZipEntry& e : m_overview->sniff.entries) {
        auto* item = new QTreeWidgetItem(m_zipList, {QString::fromStdString(e.name),
                                                     H5TreeModel::bytesText(e.size),
                                                     H5TreeModel::bytesText(e.compressedSize)});
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_zipList->resizeColumnToContents(0);
    m_left->setCurrentWidget(m_zipList);
    m_tabs->setEnabled(false);
}

void ModelInspector::showTensorList()
{
    const TensorSource& source = *m_overview->source;
    // The file's own facts (epoch_num, archive version, CRC trailer) as attributes.
    std::vector<H5Attribute> facts;
    for (const auto& [key, value] : source.attributes()) {
        H5Attribute a;
        a.name = key;
        a.dtype = DType::of(DTypeKind::String);
        a.strings = {value};
        facts.push_back(std::move(a));
    }
    m_attributeModel->setAttributes(facts);
    for (const TensorInfo& t : source.tensors()) {
        QString shape;
        for (std::uint64_t d : t.shape)
            shape += (shape.isEmpty() ? QString() : QStringLiteral(" × ")) + QString::number(d);
        auto* item = new QTreeWidgetItem(
            m_tensorList, {QString::fromStdString(t.name), shape.isEmpty() ? tr("scalar") : shape,
                           QString::fromStdString(t.dtype.name), H5TreeModel::bytesText(t.bytes)});
        item->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
        QString tip = QString::fromStdString(t.name);
        if (!t.note.empty())
            tip += QLatin1Char('\n') + QString::fromStdString(t.note);
        if (t.optimizerState)
            tip += QLatin1Char('\n') + tr("optimizer state");
        item->setToolTip(0, tip);
        if (t.optimizerState)
            item->setForeground(0, palette().color(QPalette::Disabled, QPalette::Text));
    }
    presentTensorList();
    if (m_tensorList->topLevelItemCount() > 0)
        m_tensorList->setCurrentItem(m_tensorList->topLevelItem(0));
}

void ModelInspector::presentTensorList()
{
    // Names wide enough to read, never the whole pane.
    const QFontMetrics fm = m_tensorList->fontMetrics();
    m_tensorList->resizeColumnToContents(0);
    m_tensorList->setColumnWidth(
        0, std::min(m_tensorList->columnWidth(0), fm.horizontalAdvance(QLatin1Char('x')) * 48));
    m_tensorList->resizeColumnToContents(1);
    m_tensorList->resizeColumnToContents(2);
    m_left->setCurrentWidget(m_tensorList);
    m_tabs->setEnabled(true);
}

void ModelInspector::onTensorChanged()
{
    const QTreeWidgetItem* item = m_tensorList->currentItem();
    if (item && m_remote) {
        showRemoteTensor(item->text(0));
        return;
    }
    if (!item || !m_overview || !m_overview->source) {
        m_tensorJob->cancel();
        clearStatistics(tr("Select a tensor in the list."));
        return;
    }
    const QString name = item->text(0);
    clearStatistics(tr("%1: computing\u2026").arg(name));
    m_tensorProgress->setValue(0);
    m_tensorProgress->show();
    const std::string file = m_path.toStdString();
    const std::string tensorName = name.toStdString();
    // A reader of its own: the previous job may still be reading the shared one.
    m_tensorJob->start<Result<TensorHistogram::Tensor>>(
        [file, tensorName](const Progress& progress) -> Result<TensorHistogram::Tensor> {
            auto source = TensorSources::open(file);
            if (!source)
                return source.error();
            return TensorSourceStats::histogram(**source, tensorName, TensorHistogram::kAutoBins,
                                                progress);
        },
        [this](Result<TensorHistogram::Tensor> tensor) { showTensor(std::move(tensor)); });
}

bool ModelInspector::selectObject(const QString& objectPath)
{
    if (m_remote || (m_overview && m_overview->source)) {
        const auto found = m_tensorList->findItems(objectPath, Qt::MatchExactly, 0);
        if (found.isEmpty())
            return false;
        m_tensorList->setCurrentItem(found.front());
        return true;
    }
    const QModelIndex index = m_treeModel->indexOfPath(objectPath);
    if (!index.isValid())
        return false;
    m_tree->scrollTo(index);
    m_tree->setCurrentIndex(index);
    return true;
}

QString ModelInspector::statistic(const QString& name) const
{
    const auto it = m_stats.find(name);
    return it == m_stats.end() ? QString() : it->second->text();
}

void ModelInspector::clearStatistics(const QString& message)
{
    m_statsTitle->setText(message);
    for (auto& [name, label] : m_stats)
        label->clear();
    m_tensorProgress->hide();
    m_histogram->setMessage(message);
}

void ModelInspector::onCurrentChanged()
{
    // The HDF5 tree is hidden (and empty) while a tensor list is shown.
    if (m_remote || (m_overview && m_overview->source))
        return;
    m_tabs->setEnabled(true);
    const QModelIndex index = m_tree->currentIndex();
    const H5Node* node = m_treeModel->node(index);
    m_attributeModel->setAttributes(node ? node->attributes : std::vector<H5Attribute>{});
    m_attributes->resizeColumnToContents(AttributeModel::NameColumn);
    m_attributes->resizeColumnToContents(AttributeModel::TypeColumn);
    m_attributeText->clear();
    if (m_attributeModel->rowCount() > 0)
        m_attributes->setCurrentIndex(m_attributeModel->index(0, AttributeModel::ValueColumn));
    if (!node || !index.data(H5TreeModel::NumericRole).toBool() || !m_overview) {
        m_tensorJob->cancel();
        clearStatistics(node && node->kind == H5Node::Kind::Dataset
                            ? tr("%1 is not numeric.").arg(QString::fromStdString(node->path))
                            : tr("Select a numeric dataset in the tree."));
        return;
    }
    const QString objectPath = QString::fromStdString(node->path);
    if (node->dataset && !node->dataset->unread.empty()) {
        // Another file, a decompression bomb, made-up values: never read.
        m_tensorJob->cancel();
        clearStatistics(
            tr("%1: %2; not read.").arg(objectPath, QString::fromStdString(node->dataset->unread)));
        return;
    }
    clearStatistics(tr("%1: computing\u2026").arg(objectPath));
    m_tensorProgress->setValue(0);
    m_tensorProgress->show();
    const std::string file = m_overview->hdf5Path;
    const std::string dataset = node->path;
    m_tensorJob->start<Result<TensorHistogram::Tensor>>(
        [file, dataset](const Progress& progress) {
            return TensorHistogram::ofDataset(file, dataset, TensorHistogram::kAutoBins, progress);
        },
        [this](Result<TensorHistogram::Tensor> tensor) { showTensor(std::move(tensor)); });
}

void ModelInspector::showTensor(Result<TensorHistogram::Tensor> tensor)
{
    m_tensorProgress->hide();
    if (!tensor) {
        clearStatistics(QString::fromStdString(tensor.error().message));
        return;
    }
    const ValueStats& s = tensor->stats;
    const QString objectPath = QString::fromStdString(tensor->path);
    m_statsTitle->setText(objectPath);
    m_stats[QStringLiteral("count")]->setText(count(s.count));
    m_stats[QStringLiteral("min")]->setText(statNumber(s.min));
    m_stats[QStringLiteral("max")]->setText(statNumber(s.max));
    m_stats[QStringLiteral("mean")]->setText(statNumber(s.mean));
    m_stats[QStringLiteral("std")]->setText(statNumber(s.stddev));
    m_stats[QStringLiteral("l2")]->setText(statNumber(s.l2));
    m_stats[QStringLiteral("zeros")]->setText(count(s.zeros));
    m_stats[QStringLiteral("nan")]->setText(count(s.nan));
    m_stats[QStringLiteral("inf")]->setText(count(s.inf));
    std::vector<TensorHistogramPlot::Series> series;
    series.push_back({QString::fromStdString(tensor->path), std::move(tensor->histogram)});
    m_histogram->setSeries(std::move(series));
    emit statisticsReady(objectPath);
}

void ModelInspector::showAttributeText()
{
    const QModelIndex index = m_attributes->currentIndex();
    m_attributeText->setPlainText(
        index.isValid() ? index.data(AttributeModel::FullTextRole).toString() : QString());
}

} // namespace ckpt
