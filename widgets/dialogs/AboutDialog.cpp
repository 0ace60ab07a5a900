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
           "<p>Opens CANDLE save directories (<tt>ckpts/epochs/NNN</tt>, <tt>last</tt>/"
           "<tt>best</tt> links), follows live runs, verifies checksums, rolls back, compares "
           "and prunes epochs.</p><p>Built with Qt %2 and QCustomPlot.</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    text->setMinimumWidth(360);
    row->addWidget(text, 1);
    layout->addLayout(row);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace ckpt
