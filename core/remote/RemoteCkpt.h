#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/TensorDiff.h"
#include "ops/KeepPolicy.h"
#include "remote/RemoteRecords.h"
#include "remote/RemoteTarget.h"
#include "report/RunJsonReader.h"

#include <QStringList>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// How to reach the far `ckpt`: the system ssh (so ProxyJump, ControlMaster,
// keys and agents work as the user configured them; no password is ever
// asked: BatchMode) and the far program's path.
struct RemoteOptions
{
    QStringList ssh{QStringLiteral("ssh")}; // program and leading options ("-F", file)
    std::string ckpt = "ckpt";              // on the far PATH, or a path there
    int connectTimeoutSeconds = 15;
    // One shared connection per host (SshMultiplex) unless the user's ssh
    // config sets up its own; false: every call connects anew.
    bool shareConnection = true;
    // Where else a bare `ckpt` (a name, not a path) is looked for when the far
    // PATH of a non-interactive ssh shell has none: scripts/install-remote.sh's
    // default prefix first. Empty: the PATH only.
    std::vector<std::string> ckptFallbacks{"~/.local/ckpt/bin/ckpt"};
};

// What kind of failure a remote call met, for the caller to decide whether
// trying again can help (a watch reconnects after Unreachable/Dropped only).
enum class RemoteFailure
{
    None,
    Unreachable,      // no connection (refused, unknown host, timeout)
    Denied,           // ssh authentication or host key refused
    CkptMissing,      // the far shell found no `ckpt` (exit 127) or cannot run it (126)
    ProtocolMismatch, // `ckpt` too old or too new for this client
    Dropped,          // the connection went away while the command ran
    Refused,          // `ckpt` ran and said no (usage, missing folder, refused change)
    Cancelled,
};

// One `ckpt ... --json` run on the far side through ssh. Synchronous: the
// window calls it on a worker thread (it blocks on the ssh process); watch
// streams are RemoteWatch. Every Error's message says what to do.
class RemoteCkpt
{
public:
    struct Version
    {
        std::string version;
        int protocol = 0;
    };
    struct Outcome
    {
        RemoteFailure failure = RemoteFailure::None;
        int exitCode = -1; // the far ckpt's, when it ran
        nlohmann::ordered_json json;
        std::string message; // when failed: what went wrong and what to do
    };
    // What a relink did; `confirmedByRescan` when the connection dropped and a
    // second connection read the link back to find out.
    struct RelinkResult
    {
        bool applied = false;
        std::optional<int> epoch; // where the link points now
        bool confirmedByRescan = false;
        // Each link the far ckpt moved (a repair of all links moves several).
        struct Moved
        {
            std::string link;
            std::optional<int> epoch;
            bool changed = false;
        };
        std::vector<Moved> moved;
        nlohmann::ordered_json json;
    };

    RemoteCkpt(RemoteTarget target, RemoteOptions options = {});

    const RemoteTarget& target() const { return m_target; }
    const RemoteOptions& options() const { return m_options; }

    // `ckpt version --json`: reachable, installed and speaking our protocol.
    Result<Version> probe() const;
    // `onRun` (optional) gets each run as soon as the far scan has loaded and
    // printed it (`scan --stream`: in no particular order), with its liveness,
    // before the whole answer is in; the result holds them sorted by root.
    using RunCallback = std::function<void(const Run& run, const std::string& liveness)>;
    Result<RunJsonReader::Scan> scan(const std::string& path, const Progress& progress = {},
                                     const RunCallback& onRun = {}) const;
    Result<nlohmann::ordered_json> history(const std::string& run) const;
    // Progress comes from the far `verify --progress-json`; cancelling ends
    // the ssh connection, and the far `ckpt` stops (--exit-on-eof). `epochs`
    // (when given) limits it to those epochs of each run; a far `ckpt` older
    // than `--epoch N,M` verifies the whole run instead (the caller keeps what
    // it asked for).
    Result<nlohmann::ordered_json> verify(const std::string& path, const Progress& progress,
                                          const std::vector<int>& epochs = {}) const;
    // Points `link` of `run` at `epoch` (atomic on the far side). If the
    // connection drops before the answer, the run is scanned again over a new
    // connection: the result says whether it was applied.
    Result<RelinkResult> relink(const std::string& run, const std::string& link, int epoch) const;
    // `ckpt relink RUN --undo`: reverts the run's most recent relink, which
    // moved `link` to `movedTo`; after a dropped connection, read back (undone
    // when `link` no longer points there).
    Result<RelinkResult> undoRelink(const std::string& run, const std::string& link,
                                    int movedTo) const;
    // `ckpt relink RUN --repair LINK` (last, best or all): a link a move or a
    // copy broke, re-pointed at the epoch it names; after a dropped
    // connection, read back (repaired when the run no longer reports it).
    Result<RelinkResult> repair(const std::string& run, const std::string& link) const;
    // `ckpt prune RUN --keep-limit K --keep-mode M --yes`: the far side plans
    // again and deletes. `planned` (the epochs the user was shown) serves only
    // to read back what was deleted after a dropped connection.
    Result<RemotePruned> prune(const std::string& run, const KeepPolicy& policy,
                               const std::vector<int>& planned) const;

    // The experiment manager on the far side (RemoteCkptLaunch.cpp): the
    // run's parameters, a restart or fork launched there (detached: the far
    // supervisor or Slurm keeps it), the launched runs, stop, the family tree.
    // `config`: the parameter file of a run Ckpt Studio did not launch;
    // `epoch`: the parameters that epoch was trained with (a far `ckpt` older
    // than --epoch gives the run's latest ones).
    // A cancelled `progress` ends the ssh connection (the caller stops waiting).
    Result<RemoteParams> params(const std::string& run, const std::string& config = {},
                                const Progress& progress = {},
                                std::optional<int> epoch = std::nullopt) const;
    Result<RemoteLaunched> launch(const RemoteLaunchRequest& request,
                                  const Progress& progress = {}) const;
    Result<std::vector<RemoteLaunchedRun>> runs(const std::string& under = {},
                                                const Progress& progress = {}) const;
    Result<RemoteStopped> stop(const std::string& run, int graceSeconds = 10) const;
    // `ckpt runs --forget RUN`: off the far registry (its files stay).
    Status forget(const std::string& run) const;
    Result<RemoteLineage> lineage(const std::string& run, const Progress& progress = {}) const;
    // Model files read next to the data: only the results travel.
    // Progress comes from the far side (--progress-json, when it has it);
    // cancelling ends the connection, and the far `ckpt` stops (--exit-on-eof).
    Result<RemoteInspect> inspect(const std::string& modelOrEpoch,
                                  const Progress& progress = {}) const;
    // Weights of two models (files or epoch folders) compared on the far side.
    Result<ModelDiff> diff(const std::string& a, const std::string& b,
                           const Progress& progress = {}) const;
    // The same for two epochs of one run.
    Result<ModelDiff> diffEpochs(const std::string& run, int a, int b,
                                 const Progress& progress = {}) const;
    // The command line `launch` sends (after `ckpt`), for logs and tests.
    static QStringList launchArguments(const RemoteLaunchRequest& request);

    // Any other command (inspect, diff, prune, launch, lineage): `arguments`
    // after `ckpt`, --json appended. Exit status 1 (problems found) is a result.
    // `onOutput` (optional) sees stdout as it arrives.
    Outcome run(const QStringList& arguments, const Progress& progress = {}, bool exitOnEof = false,
                const std::function<void(const QByteArray&)>& onOutput = {}) const;

    // The ssh program and arguments that run `arguments` on the far side.
    // With shareConnection, the first call for a host asks `ssh -G` once, and
    // a call finding our master's socket asks it `-O check` (at most 2 s: a
    // hung master is bypassed).
    QStringList sshCommand(const QStringList& arguments) const;
    // The command line the far shell gets, every argument quoted.
    std::string remoteCommandLine(const QStringList& arguments) const;
    // A far path as a shell word: "~/x" keeps its ~ expandable.
    static std::string quotePath(const std::string& path);

    // The user's message for an ssh/ckpt failure: `exitCode` of ssh (255: ssh's
    // own error; 127/126: the far shell's), `stderrText` what it printed.
    // Where a bare `ckpt` is looked for, for messages: "'ckpt' on the PATH, ~/...".
    static std::string ckptPlaces(const RemoteOptions& options);
    // `ckpt`: where it was looked for (ckptPlaces).
    static std::pair<RemoteFailure, std::string> classify(const RemoteTarget& target,
                                                          const std::string& ckpt, int exitCode,
                                                          const std::string& stderrText);
    // Checks a document's "protocol": an Error telling what to update when it
    // is outside what this client reads.
    static std::optional<std::string> protocolProblem(const RemoteTarget& target,
                                                      const nlohmann::ordered_json& document);

private:
    struct StreamedScan
    {
        RunJsonReader::Scan scan;
        std::string error; // the first run that could not be read
    };
    static void deliver(std::string& text, StreamedScan& into, const RunCallback& onRun);
    Error error(const Outcome& outcome) const;
    // `e` (a reader's complaint) with the host named.
    Error fromHost(const Error& e) const;
    // run() whose answer must be a document holding `member` (when given).
    Result<nlohmann::ordered_json> document(const QStringList& arguments, const char* member,
                                            const Progress& progress = {}) const;
    // document() for a long read: --progress-json and --exit-on-eof, asked
    // again without them of a far ckpt that does not know them.
    Result<nlohmann::ordered_json> longDocument(const QStringList& arguments, const char* member,
                                                const Progress& progress) const;
    Result<ModelDiff> readDiff(const QStringList& arguments, const Progress& progress) const;
    // The one run at `run`, scanned again over a new connection.
    Result<Run> readBack(const std::string& run) const;
    // A relink-like call: its answer read into a RelinkResult.
    static RelinkResult relinkAnswer(const nlohmann::ordered_json& json);
    // A link change (relink, undo, repair) of `run`: its answer; when the
    // connection dropped, the run read back over a new one and `judge` saying
    // from it what was applied. `what` ends "Whether <what> could not be read back".
    Result<RelinkResult>
    linkChange(const QStringList& arguments, const std::string& run, const std::string& what,
               const std::function<void(const Run&, RelinkResult&)>& judge) const;
    // run() with the choice not to parse stdout (scan parses it run by run).
    Outcome execute(const QStringList& arguments, const Progress& progress, bool exitOnEof,
                    const std::function<void(const QByteArray&)>& onOutput, bool parseOutput) const;

    RemoteTarget m_target;
    RemoteOptions m_options;
};

} // namespace ckpt
