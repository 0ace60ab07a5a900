#pragma once

#include "model/MetricHistory.h"
#include "model/Problem.h"

#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// How sure a source is about where a training process started.
enum class ResumeEvidence
{
    Unknown, // the source cannot tell (history.txt, a ckpt.log cut at the front)
    Guessed, // inferred (ckpt-info "__FIRST__" at epoch E: resumed from E-1, if it saved every
             // epoch)
    Stated,  // written down (ckpt.log restart lines, training.log's first epoch)
};

// One training process as one source sees it.
struct FragmentSegment
{
    std::optional<int> resumedFrom; // none = a fresh start (when evidence is not Unknown)
    ResumeEvidence evidence = ResumeEvidence::Unknown;
    std::string startedAt;           // timestamp text as written, when known
    std::optional<double> startWall; // the same as seconds since the Unix epoch
    int line = 0;                    // line of the source where it starts; 0 when not line-based
};

struct FragmentSample
{
    int segment = 0; // index into HistoryFragment::segments
    int epoch = 0;   // 1-based, matching epochs/NNN
    std::optional<double> wallTime;
    MetricSample sample;
};

// What one history source says about a run, before the sources are merged.
// Samples keep the order of the source.
struct HistoryFragment
{
    MetricSource source = MetricSource::CkptInfo;
    std::string path;
    std::vector<FragmentSegment> segments;
    std::vector<FragmentSample> samples;
    Problems problems;
};

} // namespace ckpt
