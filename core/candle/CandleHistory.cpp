#include "candle/CandleHistory.h"

#include "candle/CandleLayout.h"
#include "history/CkptLogParser.h"
#include "history/EpochHistory.h"
#include "history/HistoryBuilder.h"
#include "history/HistoryTxtParser.h"
#include "history/TrainingLogParser.h"

namespace ckpt {

MetricHistory CandleHistory::build(const Run& run)
{
    std::vector<HistoryFragment> fragments;
    Problems unreadable;
    auto read = [&](std::string_view kind, auto parseFile) {
        const std::string path = run.sourcePath(kind);
        if (path.empty())
            return;
        auto fragment = parseFile(path);
        if (fragment) {
            fragments.push_back(std::move(*fragment));
            return;
        }
        Problem p;
        p.kind = ProblemKind::Unreadable;
        p.message = fragment.error().message;
        p.path = path;
        unreadable.push_back(std::move(p));
    };
    read(CandleLayout::kCkptLog, &CkptLogParser::parseFile);
    read(CandleLayout::kTrainingLog, &TrainingLogParser::parseFile);
    read(CandleLayout::kHistoryTxt, &HistoryTxtParser::parseFile);
    fragments.push_back(EpochHistory::fromEpochs(run.epochs, run.root));

    MetricHistory history = HistoryBuilder::merge(std::move(fragments));
    history.problems.insert(history.problems.begin(), unreadable.begin(), unreadable.end());
    return history;
}

} // namespace ckpt
