// history.txt: HistoryTxtParser, then the merge every run's history goes through.
#include "history/HistoryBuilder.h"
#include "history/HistoryTxtParser.h"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<ckpt::HistoryFragment> fragments;
    fragments.push_back(ckpt::HistoryTxtParser::parse(text, "fuzz/history.txt"));
    (void)ckpt::HistoryBuilder::merge(std::move(fragments));
    return 0;
}
