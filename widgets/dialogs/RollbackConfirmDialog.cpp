#include "dialogs/RollbackConfirmDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ckpt {

namespace {
QString epochList(const std::vector<int>& epochs)
{
    QStringList parts;
    const size_t shown = std::min<size_t>(epochs.size(), 12);
    for (size_t i = 0; i < shown; ++i)
        parts << QString::number(epochs[i]);
    if (epochs.size() > shown)
        parts << QObject::tr("… (%1 more)").arg(epochs.size() - shown);
    return parts.join(QStringLiteral(", "));
}
} // namespace

QString RollbackConfirmDialog::describe(const Request& r)
{
    QString text = r.link == QLatin1String("last")
                       ? tr("<p>Make epoch <b>%1</b> the <b>last</b> checkpoint of <b>%2</b> "
                            "(roll back)?</p>")
                             .arg(r.epoch)
                             .arg(r.runName.toHtmlEscaped())
                       : tr("<p>Make epoch <b>%1</b> the <b>best</b> checkpoint of <b>%2</b>?</p>")
                             .arg(r.epoch)
                             .arg(r.runName.toHtmlEscaped());
    if (r.currentTarget)
        text += tr("<p>%1 now points at epoch %2.</p>").arg(r.link).arg(*r.currentTarget);
    if (r.link == QLatin1String("last")) {
        if (r.overwritten.empty())
            text += tr("<p>A restart from here overwrites no saved epoch.</p>");
        else
            text += tr("<p><b>A restart from epoch %1 would overwrite %n later epoch(s):</b> "
                       "%2.</p>",
                       nullptr, static_cast<int>(r.overwritten.size()))
                        .arg(r.epoch)
                        .arg(epochList(r.overwritten));
    }
    text += tr("<p>The link is replaced atomically and the change is logged in ckpt.log. "
               "Edit ▸ Undo reverts it.</p>");
    return text;
}

RollbackConfirmDialog::RollbackConfirmDialog(const Request& request, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(request.link == QLatin1String("last") ? tr("Roll back") : tr("Change best"));
    auto* layout = new QVBoxLayout(this);
    auto* label = new QLabel(describe(request), this);
    label->setObjectName(QStringLiteral("description"));
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setMinimumWidth(420);
    layout->addWidget(label);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    auto* ok = buttons->addButton(request.link == QLatin1String("last") ? tr("Make &last")
                                                                        : tr("Make &best"),
                                  QDialogButtonBox::AcceptRole);
    ok->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace ckpt
