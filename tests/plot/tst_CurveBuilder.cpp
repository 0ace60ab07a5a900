#include "SyntheticHistory.h"
#include "plot/CurveBuilder.h"

#include <QRegularExpression>
#include <QTest>

using namespace ckpt;

namespace {

// rows: "segment.epoch=value ..."; resumes: "segment@epoch ...".
MetricHistory parse(const QString& rows, const QString& resumes)
{
    MetricHistory h;
    std::map<int, std::optional<int>> segments;
    for (const auto& r : rows.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const auto m = QRegularExpression(QStringLiteral("^(\\d+)\\.(\\d+)=(.+)$")).match(r);
        Q_ASSERT(m.hasMatch());
        const int seg = m.captured(1).toInt();
        segments[seg];
        h.rows.push_back(
            test::makeRow(seg, m.captured(2).toInt(), {{"loss", m.captured(3).toDouble()}}));
    }
    for (const auto& r : resumes.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const auto parts = r.split(QLatin1Char('@'));
        segments[parts[0].toInt()] = parts[1].toInt();
    }
    for (const auto& [index, from] : segments)
        h.segments.push_back(HistorySegment{index, from, {}, {}, {}});
    return h;
}

// "segment[<parent][~supersededAfter]:epoch,epoch,...;..." with "|" before
// points that follow a gap.
QString describe(const std::vector<MetricCurve>& curves)
{
    QStringList out;
    for (const auto& c : curves) {
        QString s = QString::number(c.segment);
        if (c.parentSegment)
            s += QLatin1Char('<') + QString::number(*c.parentSegment);
        if (c.supersededAfter)
            s += QLatin1Char('~') + QString::number(*c.supersededAfter);
        QStringList epochs;
        for (std::size_t i = 0; i < c.points.size(); ++i)
            epochs << (c.gapBefore(i) ? QStringLiteral("|") : QString()) +
                          QString::number(c.points[i].epoch);
        out << s + QLatin1Char(':') + epochs.join(QLatin1Char(','));
    }
    return out.join(QLatin1Char(';'));
}

} // namespace

class tst_CurveBuilder : public QObject
{
    Q_OBJECT

private slots:
    void build_data();
    void build();
    void anchorTakesTheParentsValue();
    void richestSourceWins();
    void missingMetric();
};

void tst_CurveBuilder::build_data()
{
    QTest::addColumn<QString>("rows");
    QTest::addColumn<QString>("resumes");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("joinStep");

    QTest::newRow("dense") << "0.1=5 0.2=4 0.3=3"
                           << ""
                           << "0:1,2,3" << 1;
    QTest::newRow("pruned epochs break the line") << "0.1=5 0.2=4 0.3=3 0.7=2 0.8=1"
                                                  << ""
                                                  << "0:1,2,3,|7,8" << 1;
    QTest::newRow("every fifth epoch is regular") << "0.5=5 0.10=4 0.15=3 0.25=2"
                                                  << ""
                                                  << "0:5,10,15,|25" << 5;
    QTest::newRow("ties go to the smaller step") << "0.1=5 0.2=4 0.4=3 0.6=2 0.7=1"
                                                 << ""
                                                 << "0:1,2,|4,|6,7" << 1;
    QTest::newRow("single point") << "0.3=1"
                                  << ""
                                  << "0:3" << 1;
    QTest::newRow("restart branches from the resume epoch")
        << "0.1=5 0.2=4 0.3=3 0.4=2 1.3=2.5 1.4=2.4"
        << "1@2"
        << "0~2:1,2,3,4;1<0:2,3,4" << 1;
    QTest::newRow("restart resumed at a pruned epoch has no anchor")
        << "0.1=5 0.4=2 1.3=2.5 1.4=2.4"
        << "1@2"
        << "0:1,|4;1:3,4" << 1;
    QTest::newRow("restart resumed later than its first row has no anchor")
        << "0.1=5 0.2=4 1.2=3 1.3=2"
        << "1@2"
        << "0:1,2;1:2,3" << 1;
    QTest::newRow("second restart branches from the first")
        << "0.1=5 0.2=4 0.3=3 1.3=2.9 1.4=2.8 2.5=2 2.6=1"
        << "1@2 2@4"
        << "0~2:1,2,3;1<0~4:2,3,4;2<1:4,5,6" << 1;
    QTest::newRow("restart reaching back past its parent")
        << "0.1=5 0.2=4 0.3=3 1.6=2 1.7=1 2.2=3.5"
        << "1@3 2@1"
        << "0~1:1,2,3;1<0:3,|6,7;2<0:1,2" << 1;
    QTest::newRow("fresh restart without resume point") << "0.1=5 0.2=4 1.1=6 1.2=5"
                                                        << ""
                                                        << "0:1,2;1:1,2" << 1;
}

void tst_CurveBuilder::build()
{
    QFETCH(QString, rows);
    QFETCH(QString, resumes);
    QFETCH(QString, expected);
    QFETCH(int, joinStep);
    const auto curves = CurveBuilder::build(parse(rows, resumes), "loss");
    QCOMPARE(describe(curves), expected);
    for (const auto& c : curves)
        QCOMPARE(c.joinStep, joinStep);
}

void tst_CurveBuilder::anchorTakesTheParentsValue()
{
    const auto history = test::twoSegmentHistory(12, 8, 20);
    const auto curves = CurveBuilder::build(history, "val_loss");
    QCOMPARE(curves.size(), std::size_t(2));
    QCOMPARE(curves[0].points.size(), std::size_t(12));
    QCOMPARE(curves[1].points.size(), std::size_t(1 + 12)); // anchor + epochs 9..20
    QCOMPARE(curves[1].points.front().epoch, 8);
    QCOMPARE(curves[1].points.front().value, curves[0].points[7].value);
    QCOMPARE(curves[1].points[1].value, test::syntheticLoss(9, 1) + 0.15);
}

void tst_CurveBuilder::richestSourceWins()
{
    MetricHistory h;
    h.segments.push_back(HistorySegment{});
    HistoryRow row = test::makeRow(0, 1, {{"loss", 9.0}}, {}, MetricSource::CkptInfo);
    row.samples.push_back(MetricSample{"loss", 0.5, MetricSource::TrainingLog});
    h.rows.push_back(row);
    const auto curves = CurveBuilder::build(h, "loss");
    QCOMPARE(curves.size(), std::size_t(1));
    QCOMPARE(curves[0].points[0].value, 0.5);
    QVERIFY(curves[0].points[0].source == MetricSource::TrainingLog);
}

void tst_CurveBuilder::missingMetric()
{
    QVERIFY(CurveBuilder::build(test::twoSegmentHistory(), "accuracy").empty());
    QVERIFY(CurveBuilder::build(MetricHistory{}, "loss").empty());
}

QTEST_GUILESS_MAIN(tst_CurveBuilder)
#include "tst_CurveBuilder.moc"
