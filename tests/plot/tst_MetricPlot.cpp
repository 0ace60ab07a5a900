#include "PlotInput.h"
#include "SyntheticHistory.h"
#include "plot/MetricPlot.h"

#include <QApplication>
#include <QCursor>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
using test::under;

namespace {

std::vector<MetricPlot::RunHistory> oneRun(MetricHistory history = test::twoSegmentHistory())
{
    std::vector<MetricPlot::RunHistory> runs;
    runs.push_back({QStringLiteral("a"), QStringLiteral("run-a"), std::move(history)});
    return runs;
}

MetricHistory decades()
{
    MetricHistory h;
    h.segments.push_back(HistorySegment{});
    int epoch = 1;
    for (double v : {1.0, 10.0, 100.0, 1000.0, 0.0})
        h.rows.push_back(test::makeRow(0, epoch++, {{"loss", v}}));
    return h;
}

} // namespace

class tst_MetricPlot : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void emptyStateUntilThereIsData();
    void graphsPerChosenMetric_data();
    void graphsPerChosenMetric();
    void hoverShowsExactValues();
    void hoverMarksTheDeadEnd();
    void checkpointsOnDiskAreMarked();
    void clickEmitsTheEpoch_data();
    void clickEmitsTheEpoch();
    void dragIsNotAClick();
    void selectEpochFromOutside();
    void logScaleToggles();
    void timeAxesDropTheAnchor();
    void liveAppendExtendsTheGraph();
    void exportsAtThePlotsSize_data();
    void exportsAtThePlotsSize();
    void exportErrorsNameTheFile_data();
    void exportErrorsNameTheFile();
    void followsThePalette();
    void restartVisibleWhenValuesCoincide();
    void legendOnlyForWhatIsDrawn();
    void timeTicksReadLikeTime_data();
    void timeTicksReadLikeTime();

private:
    std::unique_ptr<MetricPlot> m_plot;
};

void tst_MetricPlot::init()
{
    m_plot = std::make_unique<MetricPlot>();
    m_plot->resize(800, 500);
    m_plot->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_plot.get()));
}

void tst_MetricPlot::emptyStateUntilThereIsData()
{
    auto* label = m_plot->findChild<QLabel*>();
    QVERIFY(m_plot->showsEmptyState());
    QVERIFY(label->isVisible());
    QVERIFY(label->text().contains(QStringLiteral("drop a folder or pick a run")));
    m_plot->setRuns(oneRun());
    QVERIFY(m_plot->showsEmptyState());
    QVERIFY(label->text().contains(QStringLiteral("Pick a metric")));
    m_plot->setMetrics({QStringLiteral("loss")});
    QVERIFY(!m_plot->showsEmptyState());
    QVERIFY(!label->isVisible());
    m_plot->removeRun(QStringLiteral("a"));
    QVERIFY(m_plot->showsEmptyState());
}

void tst_MetricPlot::graphsPerChosenMetric_data()
{
    QTest::addColumn<QStringList>("metrics");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QList<int>>("points");

    QTest::newRow("loss") << QStringList{QStringLiteral("loss")}
                          << QStringList{QStringLiteral("run-a · loss"),
                                         QStringLiteral("run-a · loss (restart 1)")}
                          << QList<int>{12, 13};
    QTest::newRow("loss and val_loss")
        << QStringList{QStringLiteral("val_loss"), QStringLiteral("loss")}
        << QStringList{QStringLiteral("run-a · val_loss"),
                       QStringLiteral("run-a · val_loss (restart 1)"),
                       QStringLiteral("run-a · loss"), QStringLiteral("run-a · loss (restart 1)")}
        << QList<int>{12, 13, 12, 13};
    QTest::newRow("unknown metric")
        << QStringList{QStringLiteral("accuracy")} << QStringList{} << QList<int>{};
}

void tst_MetricPlot::graphsPerChosenMetric()
{
    QFETCH(QStringList, metrics);
    QFETCH(QStringList, names);
    QFETCH(QList<int>, points);
    m_plot->setRuns(oneRun());
    m_plot->setMetrics(metrics);
    QCOMPARE(m_plot->availableMetrics(),
             (QStringList{QStringLiteral("loss"), QStringLiteral("val_loss")}));
    QCOMPARE(m_plot->graphCount(), int(names.size()));
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCOMPARE(m_plot->graphName(i), names[i]);
        QCOMPARE(m_plot->pointCount(i), points[i]);
    }
}

void tst_MetricPlot::hoverShowsExactValues()
{
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    const QPoint at = m_plot->pointPosition(0, 3); // epoch 4 of the first segment
    QVERIFY(m_plot->rect().contains(at));
    auto [target, local] = under(*m_plot, at);
    QTest::mouseMove(target, local + QPoint(3, -2));
    QTRY_VERIFY(!m_plot->hoverText().isEmpty());
    const QString text = m_plot->hoverText();
    QVERIFY2(text.contains(QStringLiteral("run-a · loss")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("epoch 4: ") +
                           QString::number(test::syntheticLoss(4, 0), 'g', 7)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("training.log")), qPrintable(text));

    m_plot->setSmoothing(0.6);
    QTest::mouseMove(target, local + QPoint(0, 1));
    QTRY_VERIFY(m_plot->hoverText().contains(QStringLiteral("smoothed: ")));
    // Markers, set after every live update, leave the graphs (and the hover) alone.
    m_plot->setMarkers(QStringLiteral("a"), 20, 14);
    QVERIFY(m_plot->hoverText().contains(QStringLiteral("smoothed: ")));

    // Far from every point: nothing to show.
    QTest::mouseMove(target, target->mapFrom(m_plot.get(), QPoint(790, 5)));
    QTRY_VERIFY(m_plot->hoverText().isEmpty());

    // The pointer leaving the plot takes the label with it: nothing stays stuck.
    QTest::mouseMove(target, local + QPoint(1, 0));
    QTRY_VERIFY(!m_plot->hoverText().isEmpty());
    QCursor::setPos(m_plot->mapToGlobal(QPoint(-40, -40)));
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(target, &leave);
    QVERIFY(m_plot->hoverText().isEmpty());

    // New data drops a hover that pointed into the old graphs.
    QTest::mouseMove(target, local);
    QTRY_VERIFY(!m_plot->hoverText().isEmpty());
    m_plot->setRuns(oneRun(decades()));
    QVERIFY(m_plot->hoverText().isEmpty());
}

void tst_MetricPlot::hoverMarksTheDeadEnd()
{
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    auto [target, local] = under(*m_plot, m_plot->pointPosition(0, 10)); // epoch 11, retrained
    QTest::mouseMove(target, local);
    QTRY_VERIFY(m_plot->hoverText().contains(QStringLiteral("epoch 11: ")));
    QVERIFY(m_plot->hoverText().contains(QStringLiteral("trained again after a restart")));
    auto [target2, local2] = under(*m_plot, m_plot->pointPosition(1, 3)); // epoch 11 again
    QTest::mouseMove(target2, local2);
    QTRY_VERIFY(m_plot->hoverText().contains(QStringLiteral("(restart 1)")));
    QVERIFY(!m_plot->hoverText().contains(QStringLiteral("trained again")));
}

// Which epochs still have a checkpoint: squares on the curve, a legend entry,
// and the hover says so; a pruned epoch's point says it has none.
void tst_MetricPlot::checkpointsOnDiskAreMarked()
{
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    QCOMPARE(m_plot->checkpointMarkerCount(), 0); // not known: nothing claimed
    QVERIFY(!m_plot->legendEntries().contains(QStringLiteral("checkpoint on disk")));
    m_plot->setCheckpoints(QStringLiteral("a"), {3, 5, 12});
    QCOMPARE(m_plot->checkpointMarkerCount(), 3);
    QVERIFY(m_plot->legendEntries().contains(QStringLiteral("checkpoint on disk")));

    auto [kept, keptAt] = under(*m_plot, m_plot->pointPosition(0, 2)); // epoch 3
    QTest::mouseMove(kept, keptAt);
    QTRY_VERIFY(m_plot->hoverText().contains(QStringLiteral("epoch 3: ")));
    QVERIFY2(m_plot->hoverText().contains(QStringLiteral("checkpoint on disk")),
             qPrintable(m_plot->hoverText()));
    auto [pruned, prunedAt] = under(*m_plot, m_plot->pointPosition(0, 3)); // epoch 4
    QTest::mouseMove(pruned, prunedAt);
    QTRY_VERIFY(m_plot->hoverText().contains(QStringLiteral("epoch 4: ")));
    QVERIFY2(m_plot->hoverText().contains(QStringLiteral("no checkpoint on disk")),
             qPrintable(m_plot->hoverText()));

    // Pruned further: the markers follow.
    m_plot->setCheckpoints(QStringLiteral("a"), {12});
    QCOMPARE(m_plot->checkpointMarkerCount(), 1);
}

void tst_MetricPlot::clickEmitsTheEpoch_data()
{
    QTest::addColumn<int>("graph");
    QTest::addColumn<int>("point");
    QTest::addColumn<int>("epoch");

    QTest::newRow("first segment") << 0 << 5 << 6;
    QTest::newRow("restart branch") << 1 << 5 << 13; // anchor 8, then 9, 10, ...
    QTest::newRow("dead end after the resume point") << 0 << 10 << 11;
}

void tst_MetricPlot::clickEmitsTheEpoch()
{
    QFETCH(int, graph);
    QFETCH(int, point);
    QFETCH(int, epoch);
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    QSignalSpy spy(m_plot.get(), &MetricPlot::epochClicked);
    auto [target, local] = under(*m_plot, m_plot->pointPosition(graph, point));
    QTest::mouseClick(target, Qt::LeftButton, Qt::NoModifier, local);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("a"));
    QCOMPARE(spy.at(0).at(1).toInt(), epoch);
    QCOMPARE(m_plot->selectedEpoch(), epoch);
}

void tst_MetricPlot::dragIsNotAClick()
{
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    QSignalSpy spy(m_plot.get(), &MetricPlot::epochClicked);
    auto [target, local] = under(*m_plot, m_plot->pointPosition(0, 2));
    QTest::mousePress(target, Qt::LeftButton, Qt::NoModifier, local + QPoint(40, 0));
    QTest::mouseRelease(target, Qt::LeftButton, Qt::NoModifier, local);
    QCOMPARE(spy.count(), 0);
    // Clicking empty space selects nothing either.
    QTest::mouseClick(target, Qt::LeftButton, Qt::NoModifier,
                      target->mapFrom(m_plot.get(), QPoint(790, 5)));
    QCOMPARE(spy.count(), 0);
}

void tst_MetricPlot::selectEpochFromOutside()
{
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    QSignalSpy spy(m_plot.get(), &MetricPlot::epochClicked);
    m_plot->selectEpoch(QStringLiteral("a"), 5);
    QCOMPARE(m_plot->selectedEpoch(), 5);
    QCOMPARE(spy.count(), 0); // no echo back to the table
    m_plot->clearSelection();
    QCOMPARE(m_plot->selectedEpoch(), int(MetricPlot::NoEpoch));
    // A click on the vertical line's epoch selects it in the plot too.
    auto [target, local] = under(*m_plot, m_plot->pointPosition(0, 4));
    QTest::mouseClick(target, Qt::LeftButton, Qt::NoModifier, local);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(m_plot->selectedEpoch(), 5);
}

void tst_MetricPlot::logScaleToggles()
{
    m_plot->setRuns(oneRun(decades()));
    m_plot->setMetrics({QStringLiteral("loss")});
    QVERIFY(!m_plot->logScale());
    const auto gaps = [&] {
        QList<int> out;
        for (int i = 0; i < 3; ++i)
            out << m_plot->pointPosition(0, i).y() - m_plot->pointPosition(0, i + 1).y();
        return out;
    };
    QList<int> linear = gaps();
    QVERIFY2(linear[2] > 50 * std::max(1, linear[0]), qPrintable(QString::number(linear[2])));
    QVERIFY(m_plot->pointPosition(0, 4).y() >= 0); // 0 is drawn on a linear axis

    m_plot->setLogScale(true);
    QVERIFY(m_plot->logScale());
    const QList<int> log = gaps(); // decades are evenly spaced
    QVERIFY(log[0] > 20);
    QVERIFY(std::abs(log[0] - log[2]) <= 1);
    QCOMPARE(m_plot->pointPosition(0, 4), QPoint(-1, -1)); // 0 cannot be drawn

    m_plot->setLogScale(false);
    QCOMPARE(gaps(), linear);
}

void tst_MetricPlot::timeAxesDropTheAnchor()
{
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    m_plot->setXAxis(MetricPlot::XAxis::WallTime);
    QCOMPARE(m_plot->pointCount(1), 12);
    // Later epochs sit further right, the restart after its downtime.
    QVERIFY(m_plot->pointPosition(1, 0).x() > m_plot->pointPosition(0, 11).x());
    m_plot->setXAxis(MetricPlot::XAxis::RelativeTime);
    QCOMPARE(m_plot->pointCount(1), 12);
    m_plot->setXAxis(MetricPlot::XAxis::Epoch);
    QCOMPARE(m_plot->pointCount(1), 13);
    QCOMPARE(m_plot->pointPosition(1, 0), m_plot->pointPosition(0, 7)); // branch from epoch 8
}

void tst_MetricPlot::liveAppendExtendsTheGraph()
{
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    m_plot->setSmoothing(0.5);
    auto [target, local] = under(*m_plot, m_plot->pointPosition(0, 2));
    QTest::mouseMove(target, local);
    QTRY_VERIFY(!m_plot->hoverText().isEmpty());
    m_plot->appendRow(QStringLiteral("a"), test::makeRow(1, 21, {{"loss", 0.2}}, 1'700'002'000.0));
    QVERIFY(!m_plot->hoverText().isEmpty()); // extended in place: no rebuild dropped it
    QCOMPARE(m_plot->graphCount(), 2);
    QCOMPARE(m_plot->pointCount(1), 14);
    const QPoint newest = m_plot->pointPosition(1, 13);
    QVERIFY(newest.x() > m_plot->pointPosition(1, 12).x());
    QVERIFY(m_plot->rect().contains(newest)); // the axes followed

    // A whole new history that extends the old one takes the same path.
    auto longer = test::twoSegmentHistory(12, 8, 25);
    m_plot->updateRun(QStringLiteral("a"), QStringLiteral("run-a"), longer);
    QCOMPARE(m_plot->pointCount(1), 18);
}

void tst_MetricPlot::exportsAtThePlotsSize_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QSize>("requested");
    QTest::addColumn<QSize>("expected");
    // No size given: the plot's size on screen (the bug: nothing was written).
    QTest::newRow("png, shown size") << "plot.png" << QSize() << QSize(800, 500);
    QTest::newRow("png, given size") << "plot.png" << QSize(640, 400) << QSize(640, 400);
    QTest::newRow("svg") << "plot.svg" << QSize() << QSize(800, 500);
    // A page the size of the plot, not A4 portrait (595 x 842 pt).
    QTest::newRow("pdf") << "plot.pdf" << QSize() << QSize(800, 500);
    QTest::newRow("pdf, given size") << "plot.PDF" << QSize(640, 400) << QSize(640, 400);
}

void tst_MetricPlot::exportsAtThePlotsSize()
{
    QFETCH(QString, name);
    QFETCH(QSize, requested);
    QFETCH(QSize, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss"), QStringLiteral("val_loss")});
    const QString path = dir.filePath(name);
    const Status saved = m_plot->save(path, requested);
    QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().message.c_str());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.size() > 1000);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) {
        QCOMPARE(QImage(path).size(), expected);
    } else if (suffix == QLatin1String("svg")) {
        QVERIFY(bytes.contains(QStringLiteral("width=\"%1\" height=\"%2\"")
                                   .arg(expected.width())
                                   .arg(expected.height())
                                   .toLatin1()));
    } else {
        QVERIFY(bytes.startsWith("%PDF-"));
        const QRegularExpression box(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
        const auto m = box.match(QString::fromLatin1(bytes));
        QVERIFY(m.hasMatch());
        QCOMPARE(qRound(m.captured(1).toDouble()), expected.width());
        QCOMPARE(qRound(m.captured(2).toDouble()), expected.height());
    }
}

void tst_MetricPlot::exportErrorsNameTheFile_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown type") << "plot.xyz"
                                  << "unknown image type";
    QTest::newRow("missing folder") << "no/such/folder/plot.png"
                                    << "plot.png";
}

void tst_MetricPlot::exportErrorsNameTheFile()
{
    QFETCH(QString, name);
    QFETCH(QString, says);
    QTemporaryDir dir;
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    const QString path = dir.filePath(name);
    const Status saved = m_plot->save(path);
    QVERIFY(!saved.ok());
    const QString message = QString::fromStdString(saved.error().message);
    QVERIFY2(message.contains(says), qPrintable(message));
    QVERIFY(message.contains(QFileInfo(path).fileName()));
    QVERIFY(!QFileInfo::exists(path));
}

void tst_MetricPlot::followsThePalette()
{
    m_plot->setRuns(oneRun());
    m_plot->setMetrics({QStringLiteral("loss")});
    const QPoint corner(3, 3);
    for (const QColor& base : {QColor(0x1e, 0x1e, 0x1e), QColor(0xfa, 0xfa, 0xfa)}) {
        QPalette palette = m_plot->palette();
        palette.setColor(QPalette::Base, base);
        palette.setColor(QPalette::Text, base.lightness() < 128 ? Qt::white : Qt::black);
        m_plot->setPalette(palette);
        m_plot->replotNow();
        QCOMPARE(m_plot->grab().toImage().pixelColor(corner), base);
    }
}

void tst_MetricPlot::restartVisibleWhenValuesCoincide()
{
    // The re-run from epoch 3 retraces the old values exactly: without a marker
    // the restart would be invisible.
    MetricHistory h;
    h.segments.push_back(HistorySegment{0, {}, 1, 6, {}});
    h.segments.push_back(HistorySegment{1, 3, 4, 6, {}});
    for (int e = 1; e <= 6; ++e)
        h.rows.push_back(test::makeRow(0, e, {{"loss", 1.0 / e}}, 1'700'000'000.0 + 60.0 * e));
    for (int e = 4; e <= 6; ++e)
        h.rows.push_back(test::makeRow(1, e, {{"loss", 1.0 / e}}, 1'700'001'000.0 + 60.0 * e));
    m_plot->setRuns(oneRun(h));
    m_plot->setMetrics({QStringLiteral("loss")});
    QCOMPARE(m_plot->restartMarkerCount(), 1);
    QVERIFY(m_plot->legendEntries().contains(QStringLiteral("restart")));
    // Under the marker, a pixel of the marker's outline, not only the curve's colour.
    const int branch = 1; // run-a · loss (restart 1)
    const QPoint at = m_plot->pointPosition(branch, 0);
    QVERIFY(m_plot->rect().contains(at));
    m_plot->replotNow();
    const QImage image = m_plot->grab().toImage();
    bool outline = false;
    const QColor text = m_plot->palette().color(QPalette::Text);
    for (int dy = -8; dy <= 8 && !outline; ++dy)
        for (int dx = -8; dx <= 8 && !outline; ++dx)
            outline = image.pixelColor(at + QPoint(dx, dy)) == text;
    QVERIFY(outline);

    // One segment: no restart, no legend entry for it.
    m_plot->setRuns(oneRun(decades()));
    QCOMPARE(m_plot->restartMarkerCount(), 0);
    QVERIFY(!m_plot->legendEntries().contains(QStringLiteral("restart")));
}

void tst_MetricPlot::legendOnlyForWhatIsDrawn()
{
    // A metric whose only values cannot be drawn on a log axis (<= 0).
    MetricHistory h;
    h.segments.push_back(HistorySegment{});
    for (int e = 1; e <= 4; ++e)
        h.rows.push_back(test::makeRow(0, e, {{"loss", 1.0 / e}, {"delta", -1.0 * e}}));
    m_plot->setRuns(oneRun(h));
    m_plot->setMetrics({QStringLiteral("loss"), QStringLiteral("delta")});
    QCOMPARE(m_plot->legendEntries(), (QStringList{"loss", "delta"}));
    m_plot->setLogScale(true);
    QCOMPARE(m_plot->legendEntries(), (QStringList{"loss"}));
    // best/last appear once a marker is drawn, not before.
    m_plot->setMarkers(QStringLiteral("a"), 4, MetricPlot::NoEpoch);
    QCOMPARE(m_plot->legendEntries(), (QStringList{"loss", "last epoch"}));
}

void tst_MetricPlot::timeTicksReadLikeTime_data()
{
    QTest::addColumn<int>("axis");
    QTest::addColumn<double>("minutesPerEpoch");
    QTest::addColumn<QString>("pattern");
    // 12 epochs a minute apart: clock times; an hour apart over 2 days: weekday
    // and time; a day apart: dates; relative: h:mm.
    QTest::newRow("wall, minutes") << int(MetricPlot::XAxis::WallTime) << 1.0 << "^\\d\\d:\\d\\d$";
    QTest::newRow("wall, days") << int(MetricPlot::XAxis::WallTime) << 240.0
                                << "^[A-Z][a-z]{2} \\d\\d:\\d\\d$";
    QTest::newRow("wall, weeks") << int(MetricPlot::XAxis::WallTime) << 2880.0
                                 << "^[A-Z][a-z]{2} \\d{1,2}$";
    QTest::newRow("relative, minutes")
        << int(MetricPlot::XAxis::RelativeTime) << 1.0 << "^-?\\d+:[0-5]\\d$";
    QTest::newRow("relative, days")
        << int(MetricPlot::XAxis::RelativeTime) << 300.0 << "^-?\\d+:[0-5]\\d$";
}

void tst_MetricPlot::timeTicksReadLikeTime()
{
    QFETCH(int, axis);
    QFETCH(double, minutesPerEpoch);
    QFETCH(QString, pattern);
    MetricHistory h;
    h.segments.push_back(HistorySegment{});
    for (int e = 1; e <= 12; ++e)
        h.rows.push_back(
            test::makeRow(0, e, {{"loss", 1.0 / e}}, 1'700'000'000.0 + 60.0 * minutesPerEpoch * e));
    m_plot->setRuns(oneRun(h));
    m_plot->setMetrics({QStringLiteral("loss")});
    m_plot->setXAxis(MetricPlot::XAxis(axis));
    const QStringList labels = m_plot->xTickLabels();
    QVERIFY(labels.size() >= 3);
    const QRegularExpression re(pattern);
    for (const QString& l : labels)
        QVERIFY2(re.match(l).hasMatch(), qPrintable(labels.join(" | ")));
}

QTEST_MAIN(tst_MetricPlot)
#include "tst_MetricPlot.moc"
