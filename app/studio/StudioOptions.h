#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace ckpt {

// Command line of ckpt-studio: `ckpt-studio [--screenshot FILE.png] [--size WxH]
// [--dark] [--tab NAME] [DIR...]`, and where the bundled demo experiment is.
struct StudioOptions
{
    QStringList folders;
    QString screenshot;
    int width = 1400;
    int height = 900;
    bool dark = false;
    QString tab; // --tab epochs|problems|experiments: the tab shown first

    static StudioOptions parse(const QCoreApplication& app);
    // <build>/demo-experiment baked in at configure time, CKPT_DEMO_DIR, or
    // next to the executable; empty if none exists.
    static QString demoExperiment();
    static QString demoHint();
};

} // namespace ckpt
