#include "plot/PlotTheme.h"

#include <array>

namespace ckpt {

namespace {

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

// Okabe-Ito hues (safe for the common colour-vision deficiencies), then a few
// more so that up to ten runs stay apart.
constexpr std::array<QRgb, 10> kLightHues = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00,
                                             0x56B4E9, 0x7F3C8D, 0x8C564B, 0x3B3B3B, 0xB8A000};
constexpr std::array<QRgb, 10> kDarkHues = {0x56B4E9, 0xFF8C42, 0x3DDC97, 0xF28DC4, 0xF0C040,
                                            0x9AD0F5, 0xC39BD3, 0xD9A273, 0xE0E0E0, 0xF0E442};

} // namespace

PlotTheme::PlotTheme(const QPalette& palette)
{
    m_background = palette.color(QPalette::Base);
    m_text = palette.color(QPalette::Text);
    m_dark = m_background.lightnessF() < m_text.lightnessF();
    m_axis = mix(m_background, m_text, 0.75);
    m_grid = mix(m_background, m_text, 0.18);
    m_subGrid = mix(m_background, m_text, 0.08);
    m_legendBackground = m_background;
    m_legendBackground.setAlpha(225);
    m_legendBorder = mix(m_background, m_text, 0.35);
    m_highlight = palette.color(QPalette::Highlight);
}

QColor PlotTheme::runColour(int run) const
{
    const auto& hues = m_dark ? kDarkHues : kLightHues;
    const int n = int(hues.size());
    return QColor::fromRgb(hues[std::size_t(((run % n) + n) % n)]);
}

QColor PlotTheme::faint(QColor colour) const
{
    colour.setAlpha(m_dark ? 90 : 70);
    return colour;
}

QColor PlotTheme::faded(QColor colour) const
{
    colour.setAlpha(m_dark ? 120 : 100);
    return colour;
}

Qt::PenStyle PlotTheme::metricStyle(int metric)
{
    static constexpr std::array<Qt::PenStyle, 5> styles = {Qt::SolidLine, Qt::DashLine, Qt::DotLine,
                                                           Qt::DashDotLine, Qt::DashDotDotLine};
    return styles[std::size_t(metric) % styles.size()];
}

} // namespace ckpt
