#include "model/ModelInspectorDialog.h"

#include "model/ModelInspector.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QPushButton>
#include <QVBoxLayout>

namespace ckpt {

ModelInspectorDialog::ModelInspectorDialog(QWidget* parent)
    : QDialog(parent), m_inspector(new ModelInspector(this))
{
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_inspector, 1);
    layout->addWidget(buttons);
    resize(1000, 640);
}

void ModelInspectorDialog::openFile(const QString& path, const QString& title)
{
    setWindowTitle(title.isEmpty() ? tr("Model: %1").arg(QFileInfo(path).fileName())
                                   : tr("Model: %1 (%2)").arg(title, QFileInfo(path).fileName()));
    setToolTip(path);
    m_inspector->open(path);
}

void ModelInspectorDialog::openRemote(std::function<Result<RemoteInspect>(const Progress&)> work,
                                      const QString& path, const QString& host,
                                      const QString& title)
{
    const QString name = QFileInfo(path).fileName();
    setWindowTitle(title.isEmpty() ? tr("Model: %1 on %2").arg(name, host)
                                   : tr("Model: %1 (%2 on %3)").arg(title, name, host));
    setToolTip(tr("%1 on %2").arg(path, host));
    m_inspector->openRemote(std::move(work), path, host);
}

ModelInspectorDialog*
ModelInspectorDialog::showRemote(std::function<Result<RemoteInspect>(const Progress&)> work,
                                 const QString& path, const QString& host, QWidget* parent,
                                 const QString& title)
{
    auto* dialog = new ModelInspectorDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->openRemote(std::move(work), path, host, title);
    dialog->show();
    return dialog;
}

ModelInspectorDialog* ModelInspectorDialog::showFile(const QString& path, QWidget* parent,
                                                     const QString& title)
{
    auto* dialog = new ModelInspectorDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->openFile(path, title);
    dialog->show();
    return dialog;
}

} // namespace ckpt
