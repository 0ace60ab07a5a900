#include "compare/TensorOverlayDialog.h"

#include "jobs/JobRunner.h"
#include "model/TensorHistogramPlot.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace ckpt {

namespace {

QString statsLine(const QString& label, const ValueStats& s)
{
    auto n = [](double v) {
        return std::isnan(v) ? QStringLiteral("\u2014") : QString::number(v, 'g', 5);
    };
    QString line = QStringLiteral("<b>%1</b>: min %2, max %3, mean %4, std %5")
                       .arg(label.toHtmlEscaped(), n(s.min), n(s.max), n(s.mean), n(s.stddev));
    if (s.nan || s.inf)
        line += QStringLiteral(", <b>%1 NaN, %2 Inf</b>").arg(s.nan).arg(s.inf);
    return line;
}

} // namespace

TensorOverlayDialog::TensorOverlayDialog(Side a, Side b, QWidget* parent)
    : QDialog(parent), m_a(std::move(a)), m_b(std::move(b)), m_job(new JobRunner(this)),
      m_summary(new QLabel(this)), m_histogram(new TensorHistogramPlot(this)),
      m_logY(new QCheckBox(tr("Logarithmic counts"), this))
{
    setWindowTitle(tr("Histograms: %1").arg(m_a.path.isEmpty() ? m_b.path : m_a.path));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Reading both tensors\u2026"));
    m_histogram->setMessage(tr("Reading both tensors\u2026"));
    connect(m_logY, &QCheckBox::toggled, m_histogram, &TensorHistogramPlot::setLogY);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_histogram, 1);
    layout->addWidget(m_logY);
    layout->addWidget(buttons);
    resize(760, 480);

    const std::string fa = m_a.file.toStdString(), pa = m_a.path.toStdString();
    const std::string fb = m_b.file.toStdString(), pb = m_b.path.toStdString();
    using Pair = Result<std::pair<TensorHistogram::Tensor, TensorHistogram::Tensor>>;
    m_job->start<Pair>(
        [fa, pa, fb, pb](const Progress& progress) {
            return TensorHistogram::ofPair(fa, pa, fb, pb, TensorHistogram::kAutoBins, progress);
        },
        [this](Pair result) { showResult(std::move(result)); });
}

TensorOverlayDialog::~TensorOverlayDialog() = default;

void TensorOverlayDialog::showResult(
    Result<std::pair<TensorHistogram::Tensor, TensorHistogram::Tensor>> result)
{
    if (!result) {
        const QString message = QString::fromStdString(result.error().message);
        m_summary->setText(message.toHtmlEscaped());
        m_histogram->setMessage(message);
        emit ready(false);
        return;
    }
    auto& [ta, tb] = result.value();
    m_summary->setText(statsLine(m_a.label, ta.stats) + QStringLiteral("<br>") +
                       statsLine(m_b.label, tb.stats));
    std::vector<TensorHistogramPlot::Series> series;
    series.push_back({m_a.label, std::move(ta.histogram)});
    series.push_back({m_b.label, std::move(tb.histogram)});
    m_histogram->setSeries(std::move(series));
    emit ready(true);
}

} // namespace ckpt
