#pragma once

#include <QString>
#include <QWidget>

namespace ckpt::test {

// Saves `widget` as `name` in the folder CKPT_TEST_SCREENSHOTS names (to look
// at by eye); nothing when it is not set. Header-only: only widget tests use it.
inline void keepScreenshot(QWidget* widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("CKPT_TEST_SCREENSHOTS");
    if (!dir.isEmpty())
        widget->grab().save(dir + QLatin1Char('/') + name);
}

} // namespace ckpt::test
