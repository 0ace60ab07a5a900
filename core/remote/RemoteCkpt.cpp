#include "remote/RemoteCkpt.h"

#include "remote/JsonRunSplitter.h"
#include "remote/SshMultiplex.h"
#include "report/Protocol.h"

#include <QProcess>

#include <algorithm>

namespace ckpt {

using Json = nlohmann::ordered_json;

namespace {

// ssh's own lines worth showing (not its warnings about known_hosts).
std::string sshReason(const std::string& stderrText)
{
    std::string reason;
    std::size_t start = 0;
    while (start < stderrText.size()) {
        auto end = stderrText.find('\n', start);
        if (end == std::string::npos)
            end = stderrText.size();
        std::string line = stderrText.substr(start, end - start);
        start = end + 1;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.pop_back();
        if (line.empty() || line.starts_with("Warning: Permanently added"))
            continue;
        if (!reason.empty())
            reason += "; ";
        reason += line;
    }
    // Our messages put the reason in parentheses and end the sentence themselves.
    while (!reason.empty() && reason.back() == '.')
        reason.pop_back();
    return reason;
}

bool contains(const std::string& text, std::initializer_list<const char*> needles)
{
    for (const char* n : needles)
        if (text.find(n) != std::string::npos)
            return true;
    return false;
}

} // namespace

RemoteCkpt::RemoteCkpt(RemoteTarget target, RemoteOptions options)
    : m_target(std::move(target)), m_options(std::move(options))
{}

std::string RemoteCkpt::quotePath(const std::string& path)
{
    if (path == "~")
        return path;
    if (path.starts_with("~/")) {
        std::string quoted = "~/";
        if (path.size() > 2)
            quoted += shellQuote(path.substr(2));
        return quoted;
    }
    return shellQuote(path);
}

std::string RemoteCkpt::remoteCommandLine(const QStringList& arguments) const
{
    std::string args;
    for (const QString& a : arguments) {
        args += ' ';
        args += quotePath(a.toStdString());
    }
    const std::string& ckpt = m_options.ckpt;
    if (ckpt.find('/') != std::string::npos || m_options.ckptFallbacks.empty())
        return quotePath(ckpt) + args;
    // A bare name: the far PATH first, then where our installer puts it. The
    // user's login shell may be any; `sh -c` runs the search in a POSIX one,
    // and exit 127 (not found) is the shell's own answer when none is there.
    std::string script = "command -v " + shellQuote(ckpt) + " >/dev/null 2>&1 && exec " +
                         shellQuote(ckpt) + " \"$@\"";
    for (const std::string& place : m_options.ckptFallbacks)
        script += "; [ -x " + quotePath(place) + " ] && exec " + quotePath(place) + " \"$@\"";
    script += "; exit 127";
    return "sh -c " + shellQuote(script) + " ckpt" + args;
}

std::string RemoteCkpt::ckptPlaces(const RemoteOptions& options)
{
    std::string places = "'" + options.ckpt + "'";
    if (options.ckpt.find('/') == std::string::npos) {
        places += " on the PATH";
        for (const std::string& place : options.ckptFallbacks)
            places += ", " + place;
    }
    return places;
}

QStringList RemoteCkpt::sshCommand(const QStringList& arguments) const
{
    QStringList cmd = m_options.ssh;
    // BatchMode: never a password prompt (there is no terminal to type it
    // into); ServerAlive: a silently vanished network is noticed in ~15 s.
    cmd << QStringLiteral("-T") << QStringLiteral("-o") << QStringLiteral("BatchMode=yes")
        << QStringLiteral("-o")
        << QStringLiteral("ConnectTimeout=%1").arg(m_options.connectTimeoutSeconds)
        << QStringLiteral("-o") << QStringLiteral("ServerAliveInterval=5") << QStringLiteral("-o")
        << QStringLiteral("ServerAliveCountMax=3");
    if (m_options.shareConnection)
        cmd << SshMultiplex::optionsFor(m_options.ssh, m_target,
                                        SshMultiplex::plan(m_options.ssh, m_target));
    cmd << SshMultiplex::destinationArgs(m_target)
        << QString::fromStdString(remoteCommandLine(arguments));
    return cmd;
}

std::pair<RemoteFailure, std::string> RemoteCkpt::classify(const RemoteTarget& target,
                                                           const std::string& ckpt, int exitCode,
                                                           const std::string& stderrText)
{
    const std::string host = target.display();
    const std::string reason = sshReason(stderrText);
    if (exitCode == 0 || exitCode == 1)
        return {RemoteFailure::None, {}};
    if (exitCode == 127)
        return {RemoteFailure::CkptMissing,
                "ckpt was not found on " + host + " (looked for " + ckpt +
                    "). Install it there with scripts/install-remote.sh " + host +
                    " [PREFIX], or give the full path of ckpt on that host."};
    if (exitCode == 126)
        return {
            RemoteFailure::CkptMissing,
            ckpt + " on " + host +
                " cannot be run (permission denied, or not a program for that machine): " + reason +
                ". Install ckpt there with scripts/install-remote.sh " + host + " [PREFIX]."};
    if (exitCode == 255 || exitCode < 0) {
        if (contains(reason, {"Permission denied (", "Too many authentication failures"}))
            return {RemoteFailure::Denied,
                    host + " refused the login (" + reason +
                        "). Ckpt Studio uses your ssh set-up and never asks for a password: make "
                        "`ssh " +
                        host +
                        "` work in a terminal without one (ssh-copy-id, ssh-add), then "
                        "connect again."};
        if (contains(reason, {"Host key verification failed", "REMOTE HOST IDENTIFICATION"}))
            return {RemoteFailure::Denied,
                    host + "'s host key is unknown or has changed (" + reason + "). Run `ssh " +
                        host + "` once in a terminal to check and accept it, then connect again."};
        if (contains(reason, {"Connection refused", "Could not resolve", "No route to host",
                              "timed out", "Network is unreachable", "Name or service not known",
                              "Temporary failure in name resolution", "Connection timed out",
                              "kex_exchange_identification", "Could not request local forwarding",
                              "cannot run ssh"}))
            return {RemoteFailure::Unreachable,
                    "Cannot reach " + host + " (" + reason +
                        "). Check the host name and port, and that `ssh " + host +
                        "` works in a terminal."};
        return {RemoteFailure::Dropped, "The connection to " + host + " dropped" +
                                            (reason.empty() ? std::string() : " (" + reason + ")") +
                                            ". Check the network and connect again."};
    }
    if (contains(reason, {"unknown command"}))
        return {RemoteFailure::ProtocolMismatch,
                "ckpt on " + host + " is too old for Ckpt Studio (" + reason +
                    "). Update it with scripts/install-remote.sh " + host + " [PREFIX]."};
    if (contains(reason, {"Permission denied"}))
        return {RemoteFailure::Refused,
                "on " + host + ": " + reason + ". Your login on " + host +
                    " may not read or change it: check its permissions there (ls -ld), or "
                    "connect as the user who owns it."};
    return {RemoteFailure::Refused, reason.empty() ? "ckpt on " + host + " failed (exit status " +
                                                         std::to_string(exitCode) + ")"
                                                   : "on " + host + ": " + reason};
}

std::optional<std::string> RemoteCkpt::protocolProblem(const RemoteTarget& target,
                                                       const Json& document)
{
    const auto it = document.is_object() ? document.find("protocol") : document.end();
    const int protocol = it != document.end() && it->is_number_integer() ? it->get<int>() : 0;
    const std::string host = target.display();
    if (protocol < kMinCliProtocol)
        return "ckpt on " + host + " is too old (JSON protocol " + std::to_string(protocol) +
               "; Ckpt Studio needs " + std::to_string(kMinCliProtocol) + " to " +
               std::to_string(kCliProtocol) + "). Update it with scripts/install-remote.sh " +
               host + " [PREFIX].";
    if (protocol > kCliProtocol)
        return "ckpt on " + host + " is newer than this Ckpt Studio understands (JSON protocol " +
               std::to_string(protocol) + ", this app reads up to " + std::to_string(kCliProtocol) +
               "). Update Ckpt Studio.";
    return std::nullopt;
}

RemoteCkpt::Outcome RemoteCkpt::run(const QStringList& arguments, const Progress& progress,
                                    bool exitOnEof,
                                    const std::function<void(const QByteArray&)>& onOutput) const
{
    return execute(arguments, progress, exitOnEof, onOutput, true);
}

RemoteCkpt::Outcome RemoteCkpt::execute(const QStringList& arguments, const Progress& progress,
                                        bool exitOnEof,
                                        const std::function<void(const QByteArray&)>& onOutput,
                                        bool parseOutput) const
{
    // Our options go before a "--" (launch's command template follows it).
    QStringList full = arguments;
    qsizetype at = full.indexOf(QStringLiteral("--"));
    if (at < 0)
        at = full.size();
    full.insert(at, QStringLiteral("--json"));
    if (exitOnEof)
        full.insert(at + 1, QStringLiteral("--exit-on-eof"));
    const QStringList cmd = sshCommand(full);
    Outcome o;
    QProcess p;
    p.start(cmd.first(), cmd.mid(1));
    if (!p.waitForStarted(30000)) {
        o.failure = RemoteFailure::Unreachable;
        o.message = "cannot run ssh ('" + cmd.first().toStdString() +
                    "'): " + p.errorString().toStdString() + ". Install the OpenSSH client.";
        return o;
    }
    QByteArray out;
    QByteArray err;
    std::string errText;
    // Complete stderr lines: progress JSON goes to `progress`, the rest is text.
    const auto drainErr = [&] {
        err += p.readAllStandardError();
        qsizetype nl;
        while ((nl = err.indexOf('\n')) >= 0) {
            const QByteArray line = err.left(nl);
            err.remove(0, nl + 1);
            if (line.startsWith("{\"protocol\"")) {
                const Json j = Json::parse(line.toStdString(), nullptr, false);
                if (j.is_object() && j.contains("progress")) {
                    progress.report({j.value("done", std::uint64_t{0}),
                                     j.value("total", std::uint64_t{0}),
                                     j.value("unit", std::string()),
                                     {}});
                    continue;
                }
            }
            errText += line.toStdString() + "\n";
        }
    };
    // Wakes on each stderr line (progress as it comes) and at least every
    // 100 ms to notice a cancel; QProcess keeps reading stdout meanwhile.
    p.setReadChannel(QProcess::StandardError);
    while (p.state() != QProcess::NotRunning) {
        p.waitForReadyRead(100);
        const QByteArray chunk = p.readAllStandardOutput();
        if (onOutput && !chunk.isEmpty())
            onOutput(chunk);
        out += chunk;
        drainErr();
        if (progress.cancelled()) {
            // Closing the connection ends the far command (--exit-on-eof, or
            // SIGPIPE at its next write).
            p.kill();
            p.waitForFinished();
            o.failure = RemoteFailure::Cancelled;
            o.message = "cancelled";
            return o;
        }
    }
    p.waitForFinished();
    const QByteArray rest = p.readAllStandardOutput();
    if (onOutput && !rest.isEmpty())
        onOutput(rest);
    out += rest;
    drainErr();
    errText += err.toStdString();
    o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    auto [failure, message] =
        classify(m_target, ckptPlaces(m_options),
                 p.exitStatus() == QProcess::NormalExit ? o.exitCode : 255, errText);
    o.failure = failure;
    o.message = std::move(message);
    if (o.failure != RemoteFailure::None)
        return o;
    if (o.exitCode == 1 && out.trimmed().isEmpty()) {
        // Exit status 1 without a document: ckpt refused (a relink to a missing epoch).
        o.failure = RemoteFailure::Refused;
        o.message = "on " + m_target.display() + ": " + sshReason(errText);
        return o;
    }
    if (!parseOutput)
        return o;
    o.json = Json::parse(out.toStdString(), nullptr, false);
    if (o.json.is_discarded()) {
        // Half a document: the connection went away while it was printed.
        o.failure = RemoteFailure::Dropped;
        o.message = "The answer from " + m_target.display() +
                    " was cut off (not complete JSON). Check the connection and try again.";
        return o;
    }
    if (auto problem = protocolProblem(m_target, o.json)) {
        o.failure = RemoteFailure::ProtocolMismatch;
        o.message = *problem;
    }
    return o;
}

Error RemoteCkpt::error(const Outcome& outcome) const
{
    return Error{outcome.message, m_target.url()};
}

Result<RemoteCkpt::Version> RemoteCkpt::probe() const
{
    const Outcome o = run({QStringLiteral("version")});
    if (o.failure != RemoteFailure::None)
        return error(o);
    return Version{o.json.value("version", std::string()), o.json.value("protocol", 0)};
}

Result<RunJsonReader::Scan> RemoteCkpt::scan(const std::string& path, const Progress& progress,
                                             const RunCallback& onRun) const
{
    // Parsed run by run as the far scan prints them (never the whole document
    // at once): the first run reaches `onRun` while the others still travel.
    JsonRunSplitter splitter;
    StreamedScan result;
    std::string head; // the document's start, for its protocol
    std::optional<std::string> problem;
    bool checked = false;
    const auto onOutput = [&](const QByteArray& chunk) {
        if (!checked) {
            head.append(chunk.constData(), static_cast<std::size_t>(chunk.size()));
            const auto runs = head.find("\"runs\"");
            if (runs == std::string::npos && head.size() < 4096)
                return; // the protocol is not in yet: feed the splitter once it is
            checked = true;
            const auto at = head.find("\"protocol\":");
            result.scan.protocol = at < runs ? std::atoi(head.c_str() + at + 11) : 0;
            problem = protocolProblem(m_target, Json{{"protocol", result.scan.protocol}});
            if (problem)
                return;
            const std::string all = std::move(head);
            for (std::string& text : splitter.feed(all))
                deliver(text, result, onRun);
            return;
        }
        if (problem)
            return;
        for (std::string& text :
             splitter.feed(std::string_view(chunk.data(), static_cast<std::size_t>(chunk.size()))))
            deliver(text, result, onRun);
    };
    // --stream: the far ckpt prints each run once loaded, not after the whole
    // walk; a ckpt before --stream refuses it and is asked again without.
    Outcome o =
        execute({QStringLiteral("scan"), QStringLiteral("--stream"), QString::fromStdString(path)},
                progress, true, onOutput, false);
    if (o.failure == RemoteFailure::Refused && !checked &&
        o.message.find("option 'stream'") != std::string::npos) {
        head.clear();
        o = execute({QStringLiteral("scan"), QString::fromStdString(path)}, progress, true,
                    onOutput, false);
    }
    if (o.failure != RemoteFailure::None)
        return error(o);
    if (!checked) { // a short answer without "runs": an old or odd ckpt
        const auto at = head.find("\"protocol\":");
        result.scan.protocol = at != std::string::npos ? std::atoi(head.c_str() + at + 11) : 0;
        problem = protocolProblem(m_target, Json{{"protocol", result.scan.protocol}});
        if (!problem)
            problem = "ckpt on " + m_target.display() + " answered the scan without runs.";
    }
    if (problem)
        return Error{*problem, m_target.url()};
    if (!result.error.empty())
        return Error{result.error, m_target.url()};
    if (!splitter.complete())
        return Error{"The scan from " + m_target.display() +
                         " was cut off (not complete JSON). Check the connection and try again.",
                     m_target.url()};
    // Handed over as loaded; returned in the order of a local scan.
    std::vector<std::size_t> order(result.scan.runs.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return result.scan.runs[a].root < result.scan.runs[b].root;
    });
    RunJsonReader::Scan sorted;
    sorted.protocol = result.scan.protocol;
    for (const std::size_t i : order) {
        sorted.runs.push_back(std::move(result.scan.runs[i]));
        sorted.liveness.push_back(std::move(result.scan.liveness[i]));
    }
    sorted.walkProblems = std::move(result.scan.walkProblems);
    result.scan = std::move(sorted);
    const Json rest = Json::parse(splitter.rest(), nullptr, false);
    if (rest.is_object())
        if (auto walk = RunJsonReader::problems(rest.value("walk_problems", Json())))
            result.scan.walkProblems = std::move(*walk);
    return std::move(result.scan);
}

void RemoteCkpt::deliver(std::string& text, StreamedScan& into, const RunCallback& onRun)
{
    if (!into.error.empty())
        return;
    const Json j = Json::parse(text, nullptr, false);
    auto run = RunJsonReader::run(j);
    if (!run) {
        into.error = run.error().message;
        return;
    }
    std::string liveness = j.is_object() ? j.value("liveness", std::string()) : std::string();
    if (onRun)
        onRun(*run, liveness);
    into.scan.runs.push_back(std::move(*run));
    into.scan.liveness.push_back(std::move(liveness));
}

Result<Json> RemoteCkpt::history(const std::string& run) const
{
    Outcome o = this->run({QStringLiteral("history"), QString::fromStdString(run)});
    if (o.failure != RemoteFailure::None)
        return error(o);
    return std::move(o.json);
}

Result<Json> RemoteCkpt::verify(const std::string& path, const Progress& progress,
                                const std::vector<int>& epochs) const
{
    QStringList arguments{QStringLiteral("verify"), QStringLiteral("--progress-json"),
                          QString::fromStdString(path)};
    if (!epochs.empty()) {
        QStringList list;
        for (int n : epochs)
            list << QString::number(n);
        arguments << QStringLiteral("--epoch") << list.join(QLatin1Char(','));
    }
    Outcome o = run(arguments, progress, true);
    // A ckpt from before lists took only one --epoch N: it refuses "3,5" as a
    // usage error (exit 2), and the whole run is verified instead.
    if (epochs.size() > 1 && o.failure == RemoteFailure::Refused && o.exitCode == 2 &&
        o.message.find("--epoch") != std::string::npos)
        return verify(path, progress);
    if (o.failure == RemoteFailure::Dropped)
        return Error{o.message + " Verify only reads: nothing changed on " + m_target.display() +
                         "; run it again.",
                     m_target.url()};
    if (o.failure != RemoteFailure::None)
        return error(o);
    return std::move(o.json);
}

} // namespace ckpt
