#include "watch/TrackedRun.h"

#include "candle/CandleLayout.h"
#include "watch/DirSnapshot.h"

#include <filesystem>

namespace ckpt {

TrackedRun TrackedRun::load(const std::string& root, const Layout& layout)
{
    return adopt(layout.loadRun(root), layout);
}

TrackedRun TrackedRun::adopt(Run run, const Layout& layout)
{
    TrackedRun t;
    t.run = std::move(run);
    t.layout = &layout;
    t.noteEpochDirs();
    return t;
}

void TrackedRun::noteEpochDirs()
{
    epochDirs.clear();
    epochsInode = DirSnapshot::stat(epochsPath()).inode;
    auto entries = DirSnapshot::read(epochsPath());
    if (!entries)
        return;
    for (const auto& e : *entries) {
        if (e.type == DirEntry::Type::File)
            continue;
        if (auto number = CandleLayout::parseEpochDirName(e.name))
            epochDirs[*number] = {e.name, e.inode};
    }
}

} // namespace ckpt
