#include "CliRunner.h"
#include "DemoRun.h"
#include "candle/CandleLayout.h"
#include "launch/LaunchPrep.h"
#include "launch/Launcher.h"
#include "launch/RunBranches.h"
#include "layout/Layout.h"
#include "plot/PlotModel.h"
#include "session/HistoryService.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <cmath>
#include <filesystem>

using namespace ckpt;
namespace fs = std::filesystem;

// What the plot draws beside a run's own history, from real restarts and forks
// of the demo trainer: the superseded folders read as histories, a fork's
// parent epochs from its launch record; and the plot data built from them.
class tst_RunBranches : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void restartsLeaveOneFadedBranchEach();
    void appliedButNeverLaunchedRestartStartsAtTheFirstMovedEpoch();
    void forkContinuesItsParentsCurve();
    void aForkRightAfterARestartContinuesTheRestartedRun();
    void historyServiceHandsThemToTheApp();

private:
    fs::path trainParent();
    PrepRequest request(const fs::path& root, LaunchPlan::Mode mode, int from) const;
    // prepare + apply + launch, then wait for the trainer; the run's root.
    fs::path launch(const fs::path& root, LaunchPlan::Mode mode, int from, const char* edit);
    static MetricHistory historyWithBranches(const fs::path& root);

    std::unique_ptr<QTemporaryDir> m_dir;
    fs::path m_base;
    std::string m_config;
};

void tst_RunBranches::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_RunBranches::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_base = m_dir->path().toStdString();
    qputenv("XDG_DATA_HOME", (m_base / "xdg").string().c_str());
    m_config = (m_base / "RUN000" / "config.ini").string();
}

fs::path tst_RunBranches::trainParent()
{
    return test::trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_base / "RUN000", m_config,
                              "[Global_Params]\nepochs = 10\nlearning_rate = 0.01\n"
                              "samples_per_class = 40\nckpt_checksum = True\n");
}

PrepRequest tst_RunBranches::request(const fs::path& root, LaunchPlan::Mode mode, int from) const
{
    return test::demoPrepRequest(QStringLiteral(CKPT_DEMO_TRAIN), root, mode, from, m_config);
}

fs::path tst_RunBranches::launch(const fs::path& root, LaunchPlan::Mode mode, int from,
                                 const char* edit)
{
    PrepRequest r = request(root, mode, from);
    r.edits.push_back(ParamEdit::parse(edit).value());
    const LaunchRegistry registry((m_base / "registry.json").string());
    auto prepared = LaunchPrep::prepare(r, registry);
    if (!prepared || !LaunchPrep::apply(*prepared))
        qFatal("could not prepare the launch");
    const fs::path runRoot = prepared->plan.runRoot;
    if (!Launcher(registry).launch(prepared->plan))
        qFatal("could not launch");
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 60000) {
        auto rec = Launcher::refresh(runRoot);
        if (rec && isFinished(rec->state()))
            break;
        QTest::qWait(100);
    }
    return runRoot;
}

MetricHistory tst_RunBranches::historyWithBranches(const fs::path& root)
{
    MetricHistory history = historyOf(CandleLayout::instance().loadRun(root));
    history.branches = RunBranches::of(root, history);
    return history;
}

namespace {

// The (epoch, value) pairs of a history's rows for `metric`, newest segment per epoch.
std::map<int, double> valuesOf(const std::vector<HistoryRow>& rows, const char* metric)
{
    std::map<int, double> out;
    for (const HistoryRow& row : rows)
        if (const auto v = row.value(metric))
            out[row.epoch] = *v;
    return out;
}

std::map<int, double> valuesOf(const PlotModel::Curve& c)
{
    std::map<int, double> out;
    for (const CurvePoint& p : c.curve.points)
        out[p.epoch] = p.value;
    return out;
}

std::vector<const PlotModel::Curve*> curvesOf(const PlotModel& model, MetricCurve::Kind kind)
{
    std::vector<const PlotModel::Curve*> out;
    for (const auto& c : model.curves())
        if (c.curve.kind == kind)
            out.push_back(&c);
    return out;
}

PlotModel modelOf(MetricHistory history, const char* metric, bool superseded = true)
{
    PlotModel model;
    model.setShowSuperseded(superseded);
    model.setMetrics({QString::fromLatin1(metric)});
    model.setRuns({PlotModel::Run{QStringLiteral("r"),
                                  QStringLiteral("RUN"),
                                  std::make_shared<MetricHistory>(std::move(history)),
                                  PlotModel::NoEpoch,
                                  PlotModel::NoEpoch,
                                  {}}});
    return model;
}

} // namespace

void tst_RunBranches::restartsLeaveOneFadedBranchEach()
{
    const fs::path root = trainParent();
    // The run's training.log as it was: the superseded branch must read its values.
    const auto before = historyOf(CandleLayout::instance().loadRun(root));
    const auto oldLoss = valuesOf(before.rows, "loss");
    QCOMPARE(int(oldLoss.size()), 10);

    launch(root, LaunchPlan::Mode::Restart, 6, "learning_rate=0.001");
    MetricHistory history = historyWithBranches(root);
    QCOMPARE(int(history.branches.size()), 1);
    const HistoryBranch& first = history.branches[0];
    QVERIFY(first.kind == HistoryBranch::Kind::Superseded);
    QCOMPARE(first.epoch, 6);
    QVERIFY(!first.time.empty());
    const auto branchLoss = valuesOf(first.rows, "loss");
    QCOMPARE(int(branchLoss.size()), 10); // the folder keeps the run's whole log as it was
    for (const auto& [epoch, value] : branchLoss)
        QCOMPARE(value, oldLoss.at(epoch));
    // The demo trainer overwrote training.log when it restarted: the run's
    // own history lost the loss of epochs 1..6.
    QVERIFY(!valuesOf(history.rows, "loss").contains(3));
    // What the epoch table and `ckpt history` show: those values back from
    // the folder, in the segment that trained them, the restarted epochs' own after.
    const MetricHistory shown =
        RunBranches::completeHistory(CandleLayout::instance().loadRun(root));
    QVERIFY(shown.restored);
    QCOMPARE(int(shown.branches.size()), 1);
    const auto shownRows = shown.latestPerEpoch();
    QCOMPARE(int(shownRows.size()), 10);
    for (const HistoryRow* row : shownRows) {
        const auto loss = row->value("loss");
        QVERIFY(loss);
        if (row->epoch <= 6) {
            QCOMPARE(row->segment, 0);
            QCOMPARE(*loss, oldLoss.at(row->epoch));
            QVERIFY(row->sourceOf("loss") == MetricSource::TrainingLog);
        } else {
            QCOMPARE(row->segment, 1);
            QVERIFY(*loss != oldLoss.at(row->epoch));
        }
    }
    const test::CliResult cli =
        test::runCli({QStringLiteral("history"), QString::fromStdString(root.string()),
                      QStringLiteral("--csv")});
    QCOMPARE(cli.exitCode, 0);
    const QList<QByteArray> lines = cli.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 11); // the header, epochs 1..10
    const int lossColumn = int(lines.front().split(',').indexOf("loss"));
    QVERIFY(lossColumn > 0);
    for (int e = 1; e <= 6; ++e)
        QCOMPARE(lines[e].split(',')[lossColumn].toDouble(), oldLoss.at(e));

    // Plot data: the superseded epochs once, faded, leaving the run at epoch 6;
    // the restarted segment shows the new rate's values 7..10.
    PlotModel model = modelOf(history, "loss");
    const auto faded = curvesOf(model, MetricCurve::Kind::Superseded);
    QCOMPARE(int(faded.size()), 1);
    QCOMPARE(faded[0]->curve.points.front().epoch, 6);
    QCOMPARE(faded[0]->curve.points.back().epoch, 10);
    for (const auto& c : curvesOf(model, MetricCurve::Kind::Own)) {
        QVERIFY(!c->curve.supersededAfter); // no second copy of the dead end
        for (const CurvePoint& p : c->curve.points)
            if (p.epoch > 6 && p.epoch <= 10)
                QVERIFY(p.value != oldLoss.at(p.epoch)); // retrained with lr 0.001
    }
    // Those epochs come back from the folder, into the segment that trained
    // them, and the restart grows out of its epoch 6 (its restart point).
    const auto own = curvesOf(model, MetricCurve::Kind::Own);
    QCOMPARE(int(own.size()), 2);
    QCOMPARE(own[0]->curve.points.size(), std::size_t(6));
    for (const CurvePoint& p : own[0]->curve.points)
        QCOMPARE(p.value, oldLoss.at(p.epoch));
    QCOMPARE(own[1]->curve.parentSegment, std::optional<int>(0));
    QCOMPARE(own[1]->curve.points.front().epoch, 6);
    QVERIFY(model.describe(int(faded[0] - model.curves().data()), 2)
                .contains(QStringLiteral("superseded by restart from epoch 6 at ")));
    QVERIFY(curvesOf(modelOf(history, "loss", false), MetricCurve::Kind::Superseded).empty());

    // A second restart, from 8: a second branch, oldest first.
    launch(root, LaunchPlan::Mode::Restart, 8, "learning_rate=0.0005");
    history = historyWithBranches(root);
    QCOMPARE(int(history.branches.size()), 2);
    QCOMPARE(history.branches[0].epoch, 6);
    QCOMPARE(history.branches[1].epoch, 8);
    QCOMPARE(int(curvesOf(modelOf(history, "val_loss"), MetricCurve::Kind::Superseded).size()), 2);

    // A fork from 5 now, within a second of that restart (the folders are
    // named to the second): its lead-in is the parent's epochs 1..5 as the
    // parent logged them, although the restarted trainer's training.log lost them.
    const fs::path fork = launch(root, LaunchPlan::Mode::Fork, 5, "learning_rate=0.05");
    const auto origin = RunBranches::forkOrigin(fork);
    QVERIFY(origin);
    QCOMPARE(origin->supersededBefore, std::optional<int>(2)); // both restarts came before
    const auto lead =
        RunBranches::forkLeadIn(fork, historyOf(CandleLayout::instance().loadRun(fork)));
    QVERIFY(lead);
    const auto leadLoss = valuesOf(lead->rows, "loss");
    QCOMPARE(int(leadLoss.size()), 5);
    for (const auto& [epoch, value] : leadLoss)
        QCOMPARE(value, oldLoss.at(epoch));
}

void tst_RunBranches::appliedButNeverLaunchedRestartStartsAtTheFirstMovedEpoch()
{
    const fs::path root = trainParent();
    PrepRequest r = request(root, LaunchPlan::Mode::Restart, 4);
    const LaunchRegistry registry((m_base / "registry.json").string());
    auto prepared = LaunchPrep::prepare(r, registry);
    QVERIFY2(prepared, prepared ? "" : prepared.error().message.c_str());
    QVERIFY(LaunchPrep::apply(*prepared));
    const auto branches = RunBranches::superseded(root);
    QCOMPARE(int(branches.size()), 1);
    QCOMPARE(branches[0].epoch, 4); // no record: epoch 005 was the first moved aside
    QCOMPARE(branches[0].rows.back().epoch, 10);
    QVERIFY(!RunBranches::forkOrigin(root));
}

void tst_RunBranches::aForkRightAfterARestartContinuesTheRestartedRun()
{
    // Restart from 4 (epochs 5..10 retrained with another rate), then fork
    // from 8 at once, within the second the restart's folder is named with:
    // the fork continued the restarted run, so its lead-in's epochs 5..8 are
    // the retrained ones, not those the folder keeps.
    const fs::path root = trainParent();
    const auto original = valuesOf(historyOf(CandleLayout::instance().loadRun(root)).rows, "loss");
    launch(root, LaunchPlan::Mode::Restart, 4, "learning_rate=0.001");
    const auto restarted =
        valuesOf(RunBranches::completeHistory(CandleLayout::instance().loadRun(root)).rows, "loss");
    const fs::path fork = launch(root, LaunchPlan::Mode::Fork, 8, "learning_rate=0.05");
    QCOMPARE(RunBranches::forkOrigin(fork)->supersededBefore, std::optional<int>(1));
    const auto lead =
        RunBranches::forkLeadIn(fork, historyOf(CandleLayout::instance().loadRun(fork)));
    QVERIFY(lead);
    const auto leadLoss = valuesOf(lead->rows, "loss");
    QCOMPARE(int(leadLoss.size()), 8);
    for (int e = 5; e <= 8; ++e) {
        QVERIFY(restarted.at(e) != original.at(e));
        QCOMPARE(leadLoss.at(e), restarted.at(e));
    }

    // Restarted again later, the parent's state the fork saw is in the folder
    // this second restart makes: the lead-in still reads the same values.
    launch(root, LaunchPlan::Mode::Restart, 6, "learning_rate=0.0005");
    const auto after =
        RunBranches::forkLeadIn(fork, historyOf(CandleLayout::instance().loadRun(fork)));
    QVERIFY(after);
    QCOMPARE(valuesOf(after->rows, "loss"), leadLoss);
}

void tst_RunBranches::forkContinuesItsParentsCurve()
{
    const fs::path parent = trainParent();
    const auto parentLoss =
        valuesOf(historyOf(CandleLayout::instance().loadRun(parent)).rows, "val_loss");
    const fs::path fork = launch(parent, LaunchPlan::Mode::Fork, 6, "learning_rate=0.05");

    const auto origin = RunBranches::forkOrigin(fork);
    QVERIFY(origin);
    QCOMPARE(origin->parentRoot, parent.string());
    QCOMPARE(origin->epoch, 6);
    const MetricHistory history = historyWithBranches(fork);
    QCOMPARE(int(history.branches.size()), 1);
    const HistoryBranch& lead = history.branches[0];
    QVERIFY(lead.kind == HistoryBranch::Kind::ForkLeadIn);
    QCOMPARE(lead.name, std::string("RUN000"));
    QCOMPARE(lead.rows.front().epoch, 1);
    QCOMPARE(lead.rows.back().epoch, 6);

    // The fork alone: a lead-in 1..6 with the parent's values, then the fork's
    // own line starting at the parent's point at 6.
    PlotModel model = modelOf(history, "val_loss");
    QVERIFY(model.curves().front().curve.kind == MetricCurve::Kind::LeadIn);
    const auto leadValues = valuesOf(model.curves().front());
    QCOMPARE(int(leadValues.size()), 6);
    for (const auto& [epoch, value] : leadValues)
        QCOMPARE(value, parentLoss.at(epoch));
    const auto own = curvesOf(model, MetricCurve::Kind::Own);
    QVERIFY(!own.empty());
    const CurvePoint& join = own.front()->curve.points.front();
    QCOMPARE(join.epoch, 6);
    QCOMPARE(join.value, parentLoss.at(6));
    QCOMPARE(*own.front()->curve.parentSegment, MetricCurve::kLeadInSegment);
    for (const auto* c : own) // each epoch once: nothing of the fork's own before 6
        QVERIFY(c->curve.points.front().epoch >= 6);
    QVERIFY(model.curveTitle(0).endsWith(QStringLiteral("(from RUN000)")));
}

void tst_RunBranches::historyServiceHandsThemToTheApp()
{
    // The app's path: the history merged in the background carries the branches.
    const fs::path parent = trainParent();
    const fs::path fork = launch(parent, LaunchPlan::Mode::Fork, 4, "learning_rate=0.05");
    launch(parent, LaunchPlan::Mode::Restart, 7, "learning_rate=0.001");
    QThreadPool pool;
    HistoryService service(&pool);
    QSignalSpy ready(&service, &HistoryService::ready);
    for (const fs::path& root : {parent, fork})
        service.request(QString::fromStdString(root.string()),
                        std::make_shared<const Run>(CandleLayout::instance().loadRun(root)));
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 30000);
    for (const auto& args : ready) {
        const auto history = args.at(1).value<std::shared_ptr<MetricHistory>>();
        QCOMPARE(int(history->branches.size()), 1);
        const bool isFork = args.at(0).toString().toStdString() == fork.string();
        QVERIFY(history->branches[0].kind ==
                (isFork ? HistoryBranch::Kind::ForkLeadIn : HistoryBranch::Kind::Superseded));
        QCOMPARE(history->branches[0].epoch, isFork ? 4 : 7);
        // The parent's epochs before its restart keep their logged loss, the
        // fork's epoch 4 (its start) the parent's.
        QVERIFY(history->restored != isFork);
        for (const HistoryRow* row : history->latestPerEpoch())
            QVERIFY2(row->value("loss"), qPrintable(QString::number(row->epoch)));
    }
}

QTEST_GUILESS_MAIN(tst_RunBranches)
#include "tst_RunBranches.moc"
