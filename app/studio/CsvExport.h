#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace ckpt {

// File ▸ Export Table as CSV: asks where, then writes the text off the GUI
// thread (the folder may be on a slow mount) and reports the outcome.
class CsvExport
{
public:
    static void askAndWrite(QWidget* parent, const QString& csv,
                            std::function<void(const QString& message)> done);
};

} // namespace ckpt
