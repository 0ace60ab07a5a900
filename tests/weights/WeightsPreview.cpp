// Renders the model inspector and the weights comparison offscreen to PNGs, in
// the default and in a dark palette, so they can be looked at. Not a test.
#include "H5Writer.h"
#include "ModelFixtures.h"
#include "WeightsFixtures.h"
#include "compare/TensorOverlayDialog.h"
#include "compare/WeightsDiffView.h"
#include "model/ModelInspector.h"
#include "models/H5TreeModel.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QPalette>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

#include <sys/stat.h>

using namespace ckpt;

namespace {

void waitFor(QObject* sender, const char* signal)
{
    QSignalSpy spy(sender, signal);
    spy.wait(10000);
}

void settle()
{
    QEventLoop loop;
    QTimer::singleShot(150, &loop, &QEventLoop::quit);
    loop.exec();
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(45, 45, 48));
    p.setColor(QPalette::WindowText, QColor(220, 220, 220));
    p.setColor(QPalette::Base, QColor(30, 30, 32));
    p.setColor(QPalette::AlternateBase, QColor(40, 40, 44));
    p.setColor(QPalette::Text, QColor(220, 220, 220));
    p.setColor(QPalette::Button, QColor(50, 50, 54));
    p.setColor(QPalette::ButtonText, QColor(220, 220, 220));
    p.setColor(QPalette::Highlight, QColor(42, 130, 218));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(140, 140, 140));
    return p;
}

void render(const QString& out, const QString& suffix, const QString& model, const QString& a,
            const QString& b)
{
    ModelInspector inspector;
    inspector.resize(1100, 650);
    inspector.show();
    inspector.open(model);
    waitFor(&inspector, SIGNAL(loaded(bool)));
    inspector.selectObject(QStringLiteral("/model_weights/dense/dense/kernel:0"));
    waitFor(&inspector, SIGNAL(statisticsReady(QString)));
    for (int tab = 0; tab < 3; ++tab) {
        inspector.tabs()->setCurrentIndex(tab);
        settle();
        inspector.grab().save(
            QDir(out).filePath(QStringLiteral("inspector-tab%1%2.png").arg(tab).arg(suffix)));
    }
    inspector.selectObject(QStringLiteral("/"));
    inspector.tabs()->setCurrentIndex(0);
    settle();
    inspector.grab().save(QDir(out).filePath(QStringLiteral("inspector-root%1.png").arg(suffix)));
    // A file that crashes libhdf5: refused with the reason.
    inspector.open(
        QString::fromStdString(ckpt::test::ModelFixtures::crasher("global-heap-read.h5").string()));
    waitFor(&inspector, SIGNAL(loaded(bool)));
    settle();
    inspector.grab().save(
        QDir(out).filePath(QStringLiteral("inspector-crasher%1.png").arg(suffix)));

    // A tensor whose values are kept in another file (here a FIFO): not read.
    QTemporaryDir elsewhereDir;
    const QString pipe = elsewhereDir.filePath(QStringLiteral("pipe"));
    ::mkfifo(pipe.toLocal8Bit().constData(), 0600);
    const QString elsewhere = elsewhereDir.filePath(QStringLiteral("elsewhere.h5"));
    {
        ckpt::test::H5Writer w(elsewhere.toStdString());
        w.floats("/dense/bias", {3}, {1, 2, 3});
        w.floatsElsewhere("/dense/kernel", 16, pipe.toStdString());
    }
    inspector.open(elsewhere);
    waitFor(&inspector, SIGNAL(loaded(bool)));
    inspector.selectObject(QStringLiteral("/dense/kernel"));
    inspector.tabs()->setCurrentIndex(1);
    settle();
    inspector.grab().save(
        QDir(out).filePath(QStringLiteral("inspector-elsewhere%1.png").arg(suffix)));

    WeightsDiffView view;
    view.resize(1200, 650);
    view.show();
    view.compare(a, QStringLiteral("RUN000 epoch 5"), b, QStringLiteral("epoch 9"));
    waitFor(&view, SIGNAL(finished(bool)));
    settle();
    view.grab().save(QDir(out).filePath(QStringLiteral("weights%1.png").arg(suffix)));
    const QModelIndex first = view.tensorView()->model()->index(0, 0);
    emit view.tensorView()->doubleClicked(first);
    if (TensorOverlayDialog* dialog = view.overlayDialog()) {
        waitFor(dialog, SIGNAL(ready(bool)));
        settle();
        dialog->grab().save(QDir(out).filePath(QStringLiteral("overlay%1.png").arg(suffix)));
        dialog->close();
    }

    // B with a chunk that does not inflate: that pair unreadable, the rest compared.
    const QString good = elsewhereDir.filePath(QStringLiteral("good.h5"));
    const QString torn = elsewhereDir.filePath(QStringLiteral("torn.h5"));
    ckpt::test::ModelFixtures::denseModel(good.toStdString(), 0.25f, 3);
    ckpt::test::ModelFixtures::denseModel(torn.toStdString(), 0.5f, 4, true);
    view.compare(good, QStringLiteral("epoch 1"), torn, QStringLiteral("epoch 2"));
    waitFor(&view, SIGNAL(finished(bool)));
    settle();
    view.grab().save(QDir(out).filePath(QStringLiteral("weights-unreadable%1.png").arg(suffix)));
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QDir::currentPath();
    QDir().mkpath(out);
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("model.h5"));
    ckpt::test::ModelFixtures::keras2Model(model.toStdString(), 3);
    const QString a = dir.filePath(QStringLiteral("a.h5"));
    const QString b = dir.filePath(QStringLiteral("b.h5"));
    ckpt::test::WeightsFixtures::write(a.toStdString(), b.toStdString());
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    render(out, QString(), model, a, b);
    QApplication::setPalette(darkPalette());
    render(out, QStringLiteral("-dark"), model, a, b);
    return 0;
}
