#include "dialogs/AboutDialog.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace ckpt {

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("About %1").arg(QApplication::applicationDisplayName()));
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    auto* icon = new QLabel(this);
    icon->setPixmap(QApplication::windowIcon().pixmap(96, 96));
    row->addWidget(icon, 0, Qt::AlignTop);
    auto* text = new QLabel(this);
    text->setTextFormat(Qt::RichText);
    text->setOpenExternalLinks(true);
    text->setWordWrap(true);
    text->setText(
        tr("<h2>Ckpt Studio %1</h2>"
           "<p>See, trust and steer your training checkpoints.</p>"
           "<p>Opens the checkpoints of CANDLE, PyTorch Lightning, Keras, MindSpore, Orbax "
           "and Caffe2 runs, on this computer or over ssh; follows live runs, verifies "
           "checksums, rolls back, compares epochs and their weights, prunes, and restarts or "
           "forks runs locally or on Slurm.</p>"
           "<p>Press F1 for the user guide, Ctrl+/ for the keyboard shortcuts.</p>"
           "<p>Built with Qt %2 and QCustomPlot.</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    text->setMinimumWidth(360);
    row->addWidget(text, 1);
    layout->addLayout(row);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace ckpt
