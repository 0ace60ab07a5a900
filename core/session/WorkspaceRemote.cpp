// Workspace's side of the remote folders: RemoteFolders' runs, events and
// results land in the same RunRegistry, views and signals as local ones.
#include "models/EpochTableModel.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "report/Format.h"
#include "session/HistoryService.h"
#include "session/RemoteFolders.h"
#include "session/RemoteOperations.h"
#include "session/Workspace.h"
#include "watch/RunWatcher.h"

#include <algorithm>

namespace ckpt {

void Workspace::connectRemote()
{
    RemoteFolders* r = m_remote;
    connect(r, &RemoteFolders::runLoaded, this, &Workspace::applyRemoteRun);
    connect(r, &RemoteFolders::scanFinished, this,
            [this](const QString& folder, const QString& error, const QStringList& roots) {
                if (error.isEmpty())
                    replaceRemoteRuns(folder, roots);
                emit scanFinished(folder, error, static_cast<int>(roots.size()));
                if (error.isEmpty())
                    emit message(folder + QStringLiteral(": ") +
                                 QString::fromStdString(
                                     Format::counted(static_cast<long long>(roots.size()), "run")));
            });
    connect(r, &RemoteFolders::connectionChanged, this, &Workspace::onRemoteConnection);
    connect(r, &RemoteFolders::epochAdded, this, &Workspace::onWatchedEpoch);
    connect(r, &RemoteFolders::epochRemoved, this, &Workspace::onWatchedEpochRemoved);
    connect(r, &RemoteFolders::linkChanged, this, &Workspace::onRemoteLink);
    connect(r, &RemoteFolders::livenessChanged, this, &Workspace::onLiveness);
    connect(r, &RemoteFolders::historyReady, this, &Workspace::onHistory);
    connect(r, &RemoteFolders::verifyStarted, this, &Workspace::verifyStarted);
    connect(r, &RemoteFolders::verifyProgress, this, &Workspace::verifyProgress);
    connect(r, &RemoteFolders::verdicts, this, &Workspace::onRemoteVerdicts);
    connect(r, &RemoteFolders::verifyFinished, this, &Workspace::onRemoteVerifyFinished);
    connect(r, &RemoteFolders::operationFinished, this, &Workspace::onOperationFinished);
    connect(r, &RemoteFolders::relinked, this, &Workspace::relinked);
    connect(r, &RemoteFolders::message, this, &Workspace::message);
    RemoteOperations* ops = m_remoteOps;
    connect(ops, &RemoteOperations::finished, this, &Workspace::onOperationFinished);
    connect(ops, &RemoteOperations::relinked, this, &Workspace::relinked);
    connect(ops, &RemoteOperations::message, this, &Workspace::message);
    connect(r, &RemoteFolders::busyChanged, this, &Workspace::checkIdle);
}

QString Workspace::openRemote(const QString& url, const RemoteOptions& options)
{
    auto key = m_remote->open(url, options);
    if (!key) {
        emit message(QString::fromStdString(key.error().message));
        return {};
    }
    if (m_registry.addFolder(*key)) {
        m_runTree->addFolder(*key);
        onRemoteConnection(*key);
        emit scanStarted(*key);
        emit remoteFoldersChanged();
    }
    return *key;
}

void Workspace::closeFolder(const QString& folder)
{
    const bool remote = m_remote->contains(folder);
    if (remote)
        m_remote->close(folder);
    else
        QMetaObject::invokeMethod(
            m_watcher, [w = m_watcher, folder] { w->removeFolder(folder); }, Qt::QueuedConnection);
    for (const QString& root : m_registry.removeFolder(folder)) {
        m_history->forget(root);
        m_problems->removeRun(root);
        m_shown.removeAll(root);
    }
    m_problems->removeRun(folder);
    m_runTree->removeFolder(folder);
    showRuns(m_shown);
    checkIdle();
    if (remote)
        emit remoteFoldersChanged();
}

void Workspace::verifyRemote(const std::map<QString, std::vector<int>>& epochs)
{
    m_remoteVerifying.clear();
    for (const auto& [root, wanted] : epochs) {
        const RunState* s = state(root);
        if (!s)
            continue;
        std::vector<int>& numbers = m_remoteVerifying[root];
        VerifySession::Verdicts verifying;
        for (const Epoch& e : s->run.epochs)
            if (e.hasModel() && (wanted.empty() || std::find(wanted.begin(), wanted.end(),
                                                             e.number) != wanted.end())) {
                numbers.push_back(e.number);
                verifying[e.number].state = ChecksumState::Verifying;
            }
        onVerdicts(root, verifying);
    }
    m_remote->verify(epochs);
}

// The far ckpt verifies whole runs: only the epochs asked for are taken.
void Workspace::onRemoteVerdicts(const QString& root, const VerifySession::Verdicts& verdicts)
{
    const auto asked = m_remoteVerifying.find(root);
    if (asked == m_remoteVerifying.end())
        return;
    VerifySession::Verdicts taken;
    for (const int epoch : asked->second)
        if (auto v = verdicts.find(epoch); v != verdicts.end())
            taken.emplace(epoch, v->second);
    onVerdicts(root, taken);
}

// Epochs still "verifying" (a dropped connection, a cancel) go back to unknown.
void Workspace::onRemoteVerifyFinished(const QString& summary)
{
    for (const auto& [root, epochs] : std::exchange(m_remoteVerifying, {})) {
        const RunState* s = state(root);
        if (!s)
            continue;
        VerifySession::Verdicts unknown;
        for (const int epoch : epochs)
            if (auto c = s->checks.find(epoch);
                c != s->checks.end() && c->second.state == ChecksumState::Verifying)
                unknown[epoch].state = ChecksumState::Unknown;
        if (!unknown.empty())
            onVerdicts(root, unknown);
    }
    emit verifyFinished(summary);
    emit message(summary);
}

bool Workspace::isRemote(const QString& root) const
{
    return !m_remote->folderOf(root).isEmpty();
}

void Workspace::applyRemoteRun(const QString& folder, std::shared_ptr<Run> run, LiveState live)
{
    const QString root = QString::fromStdString(run->root);
    applyLoadedRun(folder, std::move(run));
    // The far scan assessed liveness there: it rules for a remote run.
    if (RunState* s = m_registry.find(root); s && s->live != live) {
        s->live = live;
        Liveness::settle(s->run, live);
        publish(root);
        emit livenessChanged(root, live);
    }
}

// A whole far scan came in (the first, or after a reconnect): it is the truth.
void Workspace::replaceRemoteRuns(const QString& folder, const QStringList& roots)
{
    QStringList gone;
    for (const auto& [root, s] : m_registry.all())
        if (s.folder == folder && !roots.contains(root))
            gone << root;
    for (const QString& root : gone)
        removeRun(root);
}

void Workspace::onRemoteLink(const QString& root, const QString& link, int epoch)
{
    RunState* s = m_registry.find(root);
    if (!s)
        return;
    const std::string name = link.toStdString();
    RunLink changed;
    if (const RunLink* known = s->run.link(name))
        changed = *known;
    changed.name = name;
    changed.epoch = epoch >= 0 ? std::optional<int>(epoch) : std::nullopt;
    s->run.setLink(name, changed);
    m_epochTable->updateLinks(root, s->run);
    publish(root);
    emit runChanged(root);
}

// Every run of the folder says whether what it shows is current.
void Workspace::onRemoteConnection(const QString& folder)
{
    m_runTree->setFolderRemote(folder, m_remote->host(folder), m_remote->staleLabel(folder),
                               m_remote->connectionMessage(folder));
    for (const auto& [root, s] : m_registry.all())
        if (s.folder == folder)
            refreshSummary(root);
    emit remoteConnectionChanged(folder);
    checkIdle();
}

} // namespace ckpt
