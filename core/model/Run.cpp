#include "model/Run.h"

#include <algorithm>

namespace ckpt {

const Epoch* Run::findEpoch(int number) const
{
    auto it = std::lower_bound(epochs.begin(), epochs.end(), number,
                               [](const Epoch& e, int n) { return e.number < n; });
    return it != epochs.end() && it->number == number ? &*it : nullptr;
}

Epoch* Run::editEpoch(int number)
{
    if (!std::as_const(*this).findEpoch(number))
        return nullptr; // nothing to write: no copy
    EpochList::Vector& all = epochs.edit();
    auto it = std::lower_bound(all.begin(), all.end(), number,
                               [](const Epoch& e, int n) { return e.number < n; });
    return &*it;
}

std::uint64_t Run::totalModelBytes() const
{
    std::uint64_t total = 0;
    for (const auto& e : epochs)
        total += e.modelBytes().value_or(0);
    return total;
}

Problems Run::allProblems() const
{
    Problems all = problems;
    for (const auto& e : epochs)
        all.insert(all.end(), e.problems.begin(), e.problems.end());
    return all;
}

const RunLink* Run::link(std::string_view name) const
{
    for (const auto& l : links)
        if (l.name == name)
            return &l;
    return nullptr;
}

std::optional<int> Run::linkedEpoch(std::string_view name) const
{
    const RunLink* l = link(name);
    return l ? l->epoch : std::nullopt;
}

void Run::setLink(std::string_view name, std::optional<RunLink> l)
{
    auto it =
        std::find_if(links.begin(), links.end(), [&](const RunLink& x) { return x.name == name; });
    if (!l) {
        if (it != links.end())
            links.erase(it);
        return;
    }
    if (it != links.end())
        *it = std::move(*l);
    else
        links.push_back(std::move(*l));
}

std::string Run::sourcePath(std::string_view kind) const
{
    for (const auto& s : sources)
        if (s.kind == kind)
            return s.path;
    return {};
}

void Run::pathOf(const Epoch& epoch, std::string& out) const
{
    if (epoch.dir.empty())
        out.assign(directory());
    else if (epoch.dir.front() == '/')
        out.assign(epoch.dir);
    else
        out.assign(directory()).append("/").append(epoch.dir);
}

void Run::pathOf(const Epoch& epoch, const EpochFile& file, std::string& out) const
{
    if (!file.name.empty() && file.name.front() == '/') {
        out.assign(file.name);
        return;
    }
    pathOf(epoch, out);
    out.append("/").append(file.name);
}

void Run::modelPath(const Epoch& epoch, std::string& out) const
{
    const EpochFile* f = epoch.modelFile();
    if (f && f->present)
        pathOf(epoch, *f, out);
    else
        out.clear();
}

std::string Run::pathOf(const Epoch& epoch) const
{
    std::string out;
    pathOf(epoch, out);
    return out;
}

std::string Run::pathOf(const Epoch& epoch, const EpochFile& file) const
{
    std::string out;
    pathOf(epoch, file, out);
    return out;
}

std::string Run::modelPath(const Epoch& epoch) const
{
    std::string out;
    modelPath(epoch, out);
    return out;
}

} // namespace ckpt
