#include "session/RunRegistry.h"

#include <QDir>

namespace ckpt {

Problems RunState::problems() const
{
    Problems all = run.allProblems();
    for (const auto& [number, verdict] : checks) {
        if (verdict.state != ChecksumState::Mismatch)
            continue;
        const Epoch* e = run.findEpoch(number);
        const std::string model = e ? run.modelPath(*e) : std::string();
        all.push_back(Problem{
            ProblemKind::ChecksumMismatch,
            model + ": CRC-32 is " + verdict.actual.toStdString() + " but ckpt-info.json records " +
                verdict.expected.toStdString() +
                ": the file changed after it was saved (damaged or rewritten). Do not restart "
                "from this epoch; restore the file or roll back to an epoch that verifies.",
            model, number});
    }
    return all;
}

std::map<int, ChecksumState> RunState::checksumStates() const
{
    std::map<int, ChecksumState> out;
    for (const auto& [number, verdict] : checks)
        out.emplace_hint(out.end(), number, verdict.state);
    return out;
}

std::map<int, QString> RunState::checksumNotes() const
{
    std::map<int, QString> out;
    for (const auto& [number, verdict] : checks)
        if (QString note = checksumNote(verdict); !note.isEmpty())
            out.emplace_hint(out.end(), number, std::move(note));
    return out;
}

bool RunRegistry::addFolder(const QString& folder)
{
    if (m_folders.contains(folder))
        return false;
    m_folders << folder;
    return true;
}

QStringList RunRegistry::removeFolder(const QString& folder)
{
    QStringList roots;
    if (!m_folders.removeOne(folder))
        return roots;
    for (auto it = m_runs.begin(); it != m_runs.end();) {
        if (it->second.folder == folder) {
            roots << it->first;
            it = m_runs.erase(it);
        } else
            ++it;
    }
    return roots;
}

QString RunRegistry::folderOf(const QString& root) const
{
    QString best;
    for (const QString& f : m_folders)
        if ((root == f || root.startsWith(f + QLatin1Char('/'))) && f.size() > best.size())
            best = f;
    return best;
}

RunState* RunRegistry::find(const QString& root)
{
    auto it = m_runs.find(root);
    return it == m_runs.end() ? nullptr : &it->second;
}

const RunState* RunRegistry::find(const QString& root) const
{
    auto it = m_runs.find(root);
    return it == m_runs.end() ? nullptr : &it->second;
}

RunState& RunRegistry::upsert(const QString& root, const QString& folder, bool& added)
{
    auto [it, inserted] = m_runs.try_emplace(root);
    added = inserted;
    if (inserted)
        it->second.folder = folder;
    return it->second;
}

bool RunRegistry::erase(const QString& root)
{
    return m_runs.erase(root) > 0;
}

void RunRegistry::clear()
{
    m_runs.clear();
    m_folders.clear();
}

} // namespace ckpt
