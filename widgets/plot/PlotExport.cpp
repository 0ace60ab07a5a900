#include "plot/PlotExport.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImageWriter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace ckpt {

QSize PlotExport::size(const QCustomPlot* plot, QSize requested)
{
    if (requested.isValid() && !requested.isEmpty())
        return requested;
    const QSize shown = plot->size();
    // A plot never laid out (hidden tab, offscreen) still exports a useful size.
    return shown.width() >= 64 && shown.height() >= 64 ? shown : QSize(960, 600);
}

Result<QByteArray> PlotExport::render(QCustomPlot* plot, const QString& fileName, QSize requested)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    const QSize size = PlotExport::size(plot, requested);
    const std::string file = fileName.toStdString();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const auto paint = [&](QPaintDevice* device) {
        QCPPainter painter;
        if (!painter.begin(device))
            return false;
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        plot->toPainter(&painter, size.width(), size.height());
        return painter.end();
    };
    if (suffix == QLatin1String("pdf")) {
        // A page the size of the plot (1 px = 1 pt), not an A4 sheet.
        QPdfWriter pdf(&buffer);
        pdf.setCreator(QStringLiteral("ckpt-studio"));
        pdf.setResolution(72);
        pdf.setPageLayout(
            QPageLayout(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
                        QPageLayout::Portrait, QMarginsF()));
        if (!paint(&pdf))
            return Error::at(file, "could not render the plot as PDF");
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(QStringLiteral("ckpt-studio plot"));
        if (!paint(&svg))
            return Error::at(file, "could not render the plot as SVG");
    } else if (QImageWriter::supportedImageFormats().contains(suffix.toLatin1())) {
        const QImage image = plot->toPixmap(size.width(), size.height()).toImage();
        QImageWriter writer(&buffer, suffix.toLatin1());
        if (image.isNull() || !writer.write(image))
            return Error::at(file, std::string("could not render the plot as ") +
                                       suffix.toUpper().toStdString() + ": " +
                                       writer.errorString().toStdString());
    } else {
        return Error::at(file, std::string("unknown image type \"") + suffix.toStdString() +
                                   "\": name the file .png, .svg or .pdf");
    }
    return bytes;
}

} // namespace ckpt
