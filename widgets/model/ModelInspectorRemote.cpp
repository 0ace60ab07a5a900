// ModelInspector's remote side: a model file read by the far `ckpt inspect`,
// shown from its answer (tensors and their statistics; the values stay there).
#include "jobs/JobRunner.h"
#include "model/ModelInspector.h"
#include "model/TensorHistogramPlot.h"
#include "models/AttributeModel.h"
#include "models/H5TreeModel.h"
#include "report/ModelJsonReader.h"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>

namespace ckpt {

namespace {

QString formatName(const RemoteInspect& r)
{
    if (!r.weightsFile.empty())
        return ModelInspector::tr("Keras 3 archive (zip)");
    if (r.format == "hdf5")
        return ModelInspector::tr("HDF5");
    if (r.format == "torch")
        return ModelInspector::tr("PyTorch checkpoint (zip)");
    if (r.format == "mindspore")
        return ModelInspector::tr("MindSpore checkpoint");
    if (r.format == "caffe2")
        return ModelInspector::tr("Caffe2 minidb");
    if (r.format == "synalinks")
        return ModelInspector::tr("Synalinks variables (JSON)");
    return QString::fromStdString(r.format);
}

H5Attribute fact(const std::string& name, const std::string& value)
{
    H5Attribute a;
    a.name = name;
    a.dtype = DType::of(DTypeKind::String);
    a.strings = {value};
    return a;
}

QString number(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'g', 7) : QStringLiteral("\u2014");
}

QString count(const std::optional<std::uint64_t>& n)
{
    return n ? QLocale::c().toString(qulonglong(*n)) : QStringLiteral("\u2014");
}

} // namespace

void ModelInspector::openRemote(InspectWork work, const QString& path, const QString& host)
{
    reset(path);
    m_host = host;
    m_header->setText(tr("Reading %1 on %2\u2026").arg(path.toHtmlEscaped(), host.toHtmlEscaped()));
    m_tensorProgress->setRange(0, 0);
    m_tensorProgress->show();
    m_openJob->start<Result<RemoteInspect>>(std::move(work), [this, host](Result<RemoteInspect> r) {
        m_tensorProgress->hide();
        m_tensorProgress->setRange(0, 1000);
        if (!r) {
            m_header->setText(QStringLiteral("<b>%1</b><br>%2")
                                  .arg(QFileInfo(m_path).fileName().toHtmlEscaped(),
                                       QString::fromStdString(r.error().message).toHtmlEscaped()));
            clearStatistics(tr("Nothing read from %1.").arg(host));
            emit loaded(false);
            return;
        }
        showInspection(*r, host);
    });
}

void ModelInspector::showInspection(const RemoteInspect& inspection, const QString& host)
{
    m_overview.reset();
    m_treeModel->clear();
    m_tensorList->clear();
    m_attributeText->clear();
    m_remote = inspection;
    m_host = host;
    if (m_path.isEmpty())
        m_path = QString::fromStdString(inspection.file);
    const RemoteInspect& r = *m_remote;

    QStringList facts{formatName(r), H5TreeModel::bytesText(r.bytes),
                      tr("%n tensors", nullptr, int(r.tensors.size()))};
    QString html = QStringLiteral("<b>%1</b> &nbsp; on %2 \u00b7 %3")
                       .arg(QFileInfo(m_path).fileName().toHtmlEscaped(), host.toHtmlEscaped(),
                            facts.join(QStringLiteral(" \u00b7 ")).toHtmlEscaped());
    for (const std::string& problem : r.problems)
        html += QStringLiteral("<br><span style=\"color:#b00020\">%1</span>")
                    .arg(QString::fromStdString(problem).toHtmlEscaped());
    m_header->setText(html);

    // The file's own facts as attributes; an HDF5 object's attributes are not
    // in the far answer's tensor list.
    std::vector<H5Attribute> attributes{fact("host", host.toStdString()), fact("file", r.file)};
    if (!r.weightsFile.empty())
        attributes.push_back(fact("weights file", r.weightsFile));
    const auto& j = r.weightsFile.empty() ? r.json : r.json.value("weights", r.json);
    const std::pair<const char*, const char*> kerasFacts[] = {
        {"layout", "Keras layout"},       {"keras_version", "Keras version"},
        {"backend", "backend"},           {"model_class", "model class"},
        {"optimizer_class", "optimizer"}, {"total_params", "parameters"}};
    if (const auto keras = j.find("keras"); keras != j.end() && keras->is_object())
        for (const auto& [key, label] : kerasFacts)
            if (const auto v = keras->find(key); v != keras->end() && !v->is_null() &&
                                                 !(v->is_string() && v->get<std::string>().empty()))
                attributes.push_back(
                    fact(label, v->is_string() ? v->get<std::string>() : v->dump()));
    if (const auto a = r.json.find("attributes"); a != r.json.end() && a->is_object())
        for (const auto& [key, value] : a->items())
            attributes.push_back(
                fact(key, value.is_string() ? value.get<std::string>() : value.dump()));
    m_attributeModel->setAttributes(attributes);
    m_attributes->resizeColumnToContents(AttributeModel::NameColumn);
    m_attributeText->setPlaceholderText(
        tr("The file's facts as ckpt on %1 read them (select one to see it whole). The "
           "attributes of each HDF5 object are not shown for a model on another host.")
            .arg(host));

    for (const RemoteInspect::Tensor& t : r.tensors) {
        QString shape;
        for (std::uint64_t d : t.shape)
            shape += (shape.isEmpty() ? QString() : QStringLiteral(" × ")) + QString::number(d);
        std::optional<std::uint64_t> bytes = t.bytes;
        if (!bytes && t.count)
            bytes = *t.count * std::uint64_t(ModelJsonReader::dtype(t.dtype).size);
        auto* item = new QTreeWidgetItem(
            m_tensorList, {QString::fromStdString(t.name), shape.isEmpty() ? tr("scalar") : shape,
                           QString::fromStdString(t.dtype),
                           bytes ? H5TreeModel::bytesText(*bytes) : QStringLiteral("\u2014")});
        item->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(
            0, QString::fromStdString(t.name) +
                   (t.optimizerState ? QLatin1Char('\n') + tr("optimizer state") : QString()));
        if (t.optimizerState)
            item->setForeground(0, palette().color(QPalette::Disabled, QPalette::Text));
    }
    presentTensorList();
    m_tabs->setCurrentIndex(1); // the statistics: what the far answer carries
    if (m_tensorList->topLevelItemCount() > 0)
        m_tensorList->setCurrentItem(m_tensorList->topLevelItem(0));
    else
        clearStatistics(tr("%1 holds no tensors.").arg(QFileInfo(m_path).fileName()));
    emit loaded(true);
}

void ModelInspector::showRemoteTensor(const QString& name)
{
    m_tensorJob->cancel();
    const RemoteInspect::Tensor* tensor = nullptr;
    for (const RemoteInspect::Tensor& t : m_remote->tensors)
        if (QString::fromStdString(t.name) == name)
            tensor = &t;
    if (tensor && !tensor->error.empty()) {
        clearStatistics(tr("%1 could not be read on %2: %3")
                            .arg(name, m_host, QString::fromStdString(tensor->error)));
        return;
    }
    if (!tensor || !tensor->count) {
        clearStatistics(tr("%1: the answer from %2 has no statistics for it.").arg(name, m_host));
        return;
    }
    clearStatistics({});
    m_statsTitle->setText(tr("%1 (computed on %2)").arg(name, m_host));
    m_stats[QStringLiteral("count")]->setText(count(tensor->count));
    m_stats[QStringLiteral("min")]->setText(number(tensor->min));
    m_stats[QStringLiteral("max")]->setText(number(tensor->max));
    m_stats[QStringLiteral("mean")]->setText(number(tensor->mean));
    m_stats[QStringLiteral("std")]->setText(number(tensor->std));
    m_stats[QStringLiteral("l2")]->setText(number(tensor->l2));
    m_stats[QStringLiteral("zeros")]->setText(count(tensor->zeros));
    m_stats[QStringLiteral("nan")]->setText(count(tensor->nan));
    m_stats[QStringLiteral("inf")]->setText(count(tensor->inf));
    m_histogram->setMessage(tr("No histogram for a model on %1: its values stay there, and "
                               "`ckpt inspect` sends only their statistics.")
                                .arg(m_host));
    emit statisticsReady(name);
}

} // namespace ckpt
