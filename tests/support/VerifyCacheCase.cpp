#include "VerifyCacheCase.h"

#include "CandleFixture.h"
#include "candle/CandleLayout.h"
#include "checksum/Verifier.h"

namespace ckpt::test {

std::unique_ptr<VerifyCacheCase> VerifyCacheCase::make(const std::filesystem::path& runs,
                                                       const std::filesystem::path& cache,
                                                       std::string& error)
{
    const std::filesystem::path root = runs / "RUN" / "ckpts";
    CandleFixture f(root);
    for (int e = 1; e <= 3; ++e)
        f.addEpoch(e, 1.0 / e, 16 * 1024, e == 1);
    auto made = std::make_unique<VerifyCacheCase>();
    VerifyCacheCase& c = *made;
    c.run = CandleLayout().loadRun(root);
    c.cache = cache;
    auto report = Verifier::verifyRuns({c.run}, {}, Progress::none());
    if (!report || report->runs.size() != 1 || report->runs[0].epochs.size() != 3) {
        error = report ? "verify did not report three epochs" : report.error().message;
        return nullptr;
    }
    const auto& verdicts = report->runs[0].epochs;
    c.store.record(c.run, *c.run.findEpoch(1), verdicts[0]);
    if (auto saved = c.store.save(cache); !saved) {
        error = saved.error().message;
        return nullptr;
    }
    c.saved = CandleFixture::readText(cache);
    for (int i = 1; i < 3; ++i)
        c.store.record(c.run, *c.run.findEpoch(i + 1), verdicts[std::size_t(i)]);
    return made;
}

} // namespace ckpt::test
