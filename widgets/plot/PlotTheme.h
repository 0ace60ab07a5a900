#pragma once

#include <QColor>
#include <QPalette>

namespace ckpt {

// The plot's colours, derived from the widget palette so that the plot reads as
// part of the application in light and in dark mode alike.
class PlotTheme
{
public:
    explicit PlotTheme(const QPalette& palette);

    bool dark() const { return m_dark; }
    QColor background() const { return m_background; }
    QColor text() const { return m_text; }
    QColor axis() const { return m_axis; }
    QColor grid() const { return m_grid; }
    QColor subGrid() const { return m_subGrid; }
    QColor legendBackground() const { return m_legendBackground; }
    QColor legendBorder() const { return m_legendBorder; }
    QColor highlight() const { return m_highlight; }

    // Distinct, colour-blind-friendly hues for overlaid runs; lighter on dark.
    QColor runColour(int run) const;
    // The raw curve behind a smoothed one: present but not competing.
    QColor faint(QColor colour) const;
    // A dead end (epochs a restart trained again): readable, clearly secondary.
    QColor faded(QColor colour) const;
    // Runs are told apart by colour, metrics by line style.
    static Qt::PenStyle metricStyle(int metric);

private:
    bool m_dark = false;
    QColor m_background;
    QColor m_text;
    QColor m_axis;
    QColor m_grid;
    QColor m_subGrid;
    QColor m_legendBackground;
    QColor m_legendBorder;
    QColor m_highlight;
};

} // namespace ckpt
