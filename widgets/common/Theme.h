#pragma once

class QApplication;

namespace ckpt {

// The application palette. By default the system's palette is kept (dark
// desktops stay dark); forceDark() applies Fusion with a dark palette for
// desktops without a dark theme and for screenshots (--dark, CKPT_STUDIO_DARK=1).
class Theme
{
public:
    static void forceDark(QApplication& app);
    static bool isDark();
};

} // namespace ckpt
