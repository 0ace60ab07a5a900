#pragma once

#include <QColor>
#include <QFont>
#include <QList>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPen>
#include <QStringList>
#include <QTextItem>

#include <optional>

namespace ckpt::test {

// A paint device that keeps the text painted on it (with its font and pen),
// so a test asserts what a delegate says rather than comparing pixels.
// Header-only: only widget tests use it.
class TextRecorder final : public QPaintDevice
{
public:
    struct Text
    {
        QString text;
        QFont font;
        QColor color;
    };

    explicit TextRecorder(QSize size = {600, 28}) : m_size(size) {}

    QPaintEngine* paintEngine() const override { return &m_engine; }
    const QList<Text>& texts() const { return m_engine.texts; }
    // Everything painted, in order (a string laid out in several runs, e.g.
    // a symbol from a fallback font, is joined again).
    QString joined() const
    {
        QString all;
        for (const Text& t : m_engine.texts)
            all += t.text;
        return all;
    }
    // The font of the run that holds `part`, if any was painted.
    std::optional<QFont> fontOf(const QString& part) const
    {
        for (const Text& t : m_engine.texts)
            if (t.text.contains(part))
                return t.font;
        return std::nullopt;
    }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmWidthMM:
            return m_size.width() * 254 / 960;
        case PdmHeightMM:
            return m_size.height() * 254 / 960;
        case PdmNumColors:
            return 0x7fffffff;
        case PdmDepth:
            return 32;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(devicePixelRatioFScale());
        }
        return 0;
    }

private:
    class Engine final : public QPaintEngine
    {
    public:
        Engine() : QPaintEngine(QPaintEngine::AllFeatures) {}
        bool begin(QPaintDevice*) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState& changed) override
        {
            if (changed.state() & DirtyPen)
                pen = changed.pen();
        }
        void drawTextItem(const QPointF&, const QTextItem& item) override
        {
            texts.append({item.text(), item.font(), pen.color()});
        }
        // Shapes are not recorded.
        void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
        void drawTiledPixmap(const QRectF&, const QPixmap&, const QPointF&) override {}
        void drawImage(const QRectF&, const QImage&, const QRectF&,
                       Qt::ImageConversionFlags) override
        {}
        void drawRects(const QRect*, int) override {}
        void drawRects(const QRectF*, int) override {}
        void drawLines(const QLine*, int) override {}
        void drawLines(const QLineF*, int) override {}
        void drawEllipse(const QRectF&) override {}
        void drawEllipse(const QRect&) override {}
        void drawPath(const QPainterPath&) override {}
        void drawPoints(const QPointF*, int) override {}
        void drawPoints(const QPoint*, int) override {}
        void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
        void drawPolygon(const QPoint*, int, PolygonDrawMode) override {}
        Type type() const override { return QPaintEngine::User; }

        QList<Text> texts;
        QPen pen;
    };

    QSize m_size;
    mutable Engine m_engine;
};

} // namespace ckpt::test
