#include "layout/Layout.h"

#include "candle/CandleLayout.h"

namespace ckpt {

const DirEntry* DirListing::find(std::string_view name) const
{
    for (const auto& entry : entries)
        if (entry.name == name)
            return &entry;
    return nullptr;
}

const std::vector<const Layout*>& builtinLayouts()
{
    // CANDLE first: when two layouts claim a directory, the first wins.
    static const std::vector<const Layout*> layouts{&CandleLayout::instance()};
    return layouts;
}

const Layout* findLayout(std::string_view name)
{
    for (const Layout* layout : builtinLayouts())
        if (layout->name() == name)
            return layout;
    return nullptr;
}

} // namespace ckpt
