#include "history/LocalTime.h"
#include "report/HistoryTable.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

using namespace ckpt;

class tst_HistoryTable : public QObject
{
    Q_OBJECT

private slots:
    void csv_data();
    void csv();
    void json();
    void textIsAligned();
};

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Process 0 reached epoch 3; process 1 resumed from 1 and ran 2..3.
MetricHistory sample()
{
    MetricHistory h;
    h.segments.push_back(HistorySegment{0, std::nullopt, 1, 3, "2026-11-22 13:00:00,000"});
    h.segments.push_back(HistorySegment{1, 1, 2, 3, ""});
    auto row = [&](int segment, int epoch, std::optional<double> wall,
                   std::vector<MetricSample> samples) {
        h.rows.push_back(HistoryRow{epoch, segment, wall, std::move(samples)});
    };
    using S = MetricSource;
    row(0, 1, 1000.5,
        {{"loss", 0.5, S::TrainingLog},
         {"val_loss", 0.61, S::CkptLog},
         {"val_loss", 0.6, S::TrainingLog}});
    row(0, 2, std::nullopt, {{"loss", kNaN, S::TrainingLog}});
    row(0, 3, 1200, {{"best_so_far", kInf, S::CkptInfo}});
    row(1, 2, 2000, {{"loss", 0.25, S::HistoryTxt}, {"val_loss", 0.3, S::CkptLog}});
    row(1, 3, 2100, {{"loss", -kInf, S::TrainingLog}});
    return h;
}

bool same(const nlohmann::json& a, const nlohmann::json& b)
{
    if (a != b)
        qWarning("%s != %s", a.dump().c_str(), b.dump().c_str());
    return a == b;
}

} // namespace

void tst_HistoryTable::csv_data()
{
    QTest::addColumn<bool>("all");
    QTest::addColumn<QString>("expected");
    QTest::newRow("latest per epoch (default)")
        << false
        << "epoch,segment,wall_time,best_so_far,loss,val_loss\n"
           "1,0,1000.5,,0.5,0.6\n"
           "2,1,2000,,0.25,0.3\n"
           "3,1,2100,,-inf,\n";
    QTest::newRow("all segments") << true
                                  << "epoch,segment,wall_time,best_so_far,loss,val_loss\n"
                                     "1,0,1000.5,,0.5,0.6\n"
                                     "2,0,,,nan,\n"
                                     "3,0,1200,inf,,\n"
                                     "2,1,2000,,0.25,0.3\n"
                                     "3,1,2100,,-inf,\n";
}

void tst_HistoryTable::csv()
{
    QFETCH(bool, all);
    QFETCH(QString, expected);
    const auto rows = all ? HistoryTable::Rows::AllSegments : HistoryTable::Rows::LatestPerEpoch;
    QCOMPARE(QString::fromStdString(HistoryTable::toCsv(sample(), rows)), expected);
    if (!all)
        QCOMPARE(HistoryTable::toCsv(sample()), expected.toStdString());
}

void tst_HistoryTable::json()
{
    const auto doc =
        nlohmann::json::parse(HistoryTable::toJson(sample(), HistoryTable::Rows::AllSegments));
    QVERIFY(same(doc["metrics"], nlohmann::json({"best_so_far", "loss", "val_loss"})));
    QCOMPARE(doc["segments"].size(), std::size_t(2));
    QVERIFY(doc["segments"][0]["resumed_from"].is_null());
    QVERIFY(same(doc["segments"][0]["started_at"], nlohmann::json("2026-11-22 13:00:00,000")));
    QVERIFY(same(doc["segments"][1]["resumed_from"], nlohmann::json(1)));
    QVERIFY(same(doc["segments"][1]["first_epoch"], nlohmann::json(2)));
    QVERIFY(same(doc["segments"][1]["last_epoch"], nlohmann::json(3)));
    QVERIFY(doc["segments"][1]["started_at"].is_null());

    const auto& rows = doc["rows"];
    QCOMPARE(rows.size(), std::size_t(5));
    QVERIFY(same(rows[0]["epoch"], nlohmann::json(1)));
    QVERIFY(same(rows[0]["segment"], nlohmann::json(0)));
    QVERIFY(same(rows[0]["wall_time"], nlohmann::json(1000.5)));
    QVERIFY(same(rows[0]["values"], nlohmann::json({{"loss", 0.5}, {"val_loss", 0.6}})));
    QVERIFY(same(rows[0]["sources"],
                 nlohmann::json({{"loss", "training.log"}, {"val_loss", "training.log"}})));
    QVERIFY(rows[1]["wall_time"].is_null());
    QVERIFY(rows[1]["values"]["loss"].is_null()); // NaN
    QCOMPARE(rows[1]["values"].size(), std::size_t(1));
    QVERIFY(rows[2]["values"]["best_so_far"].is_null()); // inf
    QVERIFY(same(rows[2]["sources"]["best_so_far"], nlohmann::json("ckpt-info.json")));
    QVERIFY(same(rows[3]["sources"],
                 nlohmann::json({{"loss", "history.txt"}, {"val_loss", "ckpt.log"}})));

    const auto latest = nlohmann::json::parse(HistoryTable::toJson(sample()));
    QCOMPARE(latest["rows"].size(), std::size_t(3));
    QVERIFY(same(latest["rows"][1]["segment"], nlohmann::json(1)));
    QCOMPARE(latest["segments"].size(), std::size_t(2));
}

void tst_HistoryTable::textIsAligned()
{
    MetricHistory h;
    h.segments.push_back(HistorySegment{0, std::nullopt, 1, 10, ""});
    h.rows.push_back(
        HistoryRow{1, 0, std::nullopt, {{"loss", 0.123456789, MetricSource::TrainingLog}}});
    h.rows.push_back(HistoryRow{
        10,
        0,
        1000.0,
        {{"loss", kNaN, MetricSource::TrainingLog}, {"val_loss", 12.5, MetricSource::CkptLog}}});
    const std::string wall = LocalTime::format(1000.0);
    const std::string expected = "epoch  segment  wall time" + std::string(wall.size() - 9, ' ') +
                                 "      loss  val_loss\n"
                                 "    1        0  -" +
                                 std::string(wall.size() - 1, ' ') +
                                 "  0.123457         -\n"
                                 "   10        0  " +
                                 wall + "       NaN      12.5\n";
    QCOMPARE(QString::fromStdString(HistoryTable::toText(h)), QString::fromStdString(expected));
}

QTEST_GUILESS_MAIN(tst_HistoryTable)
#include "tst_HistoryTable.moc"
