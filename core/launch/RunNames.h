#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ckpt {

// Names for runs listed together (the Experiments panel, the lineage graph):
// each run's own name, and where two runs share one (the
// same experiment copied to two places, "RUN001" twice) the nearest folder
// above the run that tells them apart: "RUN001 (projA)", "RUN001 (projB)".
class RunNames
{
public:
    // `runs` pairs a run root with its name (RunSummary::displayName); a root
    // listed twice keeps its first name. Returns every root's distinct name.
    static std::map<std::string, std::string>
    distinct(const std::vector<std::pair<std::string, std::string>>& runs);
};

} // namespace ckpt
