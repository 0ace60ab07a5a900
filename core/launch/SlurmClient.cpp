#include "launch/SlurmClient.h"

#include <QProcess>
#include <QStandardPaths>

#include <sstream>

namespace ckpt {

namespace {

void parseExit(const std::string& value, SlurmClient::JobInfo& info)
{
    const auto colon = value.find(':');
    try {
        info.exitCode = std::stoi(value.substr(0, colon));
        if (colon != std::string::npos)
            info.exitSignal = std::stoi(value.substr(colon + 1));
    } catch (const std::exception&) {
        info.exitCode.reset();
    }
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
        s.pop_back();
    return s;
}

} // namespace

bool SlurmClient::available()
{
    return !QStandardPaths::findExecutable(QStringLiteral("sbatch")).isEmpty();
}

Result<std::string> SlurmClient::run(const std::string& program,
                                     const std::vector<std::string>& args,
                                     std::chrono::milliseconds timeout)
{
    QProcess p;
    QStringList qargs;
    for (const std::string& a : args)
        qargs << QString::fromStdString(a);
    p.start(QString::fromStdString(program), qargs);
    std::string command = program;
    for (const std::string& a : args)
        command += " " + a;
    if (!p.waitForStarted(static_cast<int>(timeout.count())))
        return Error::at({}, command + ": cannot run (" + p.errorString().toStdString() + ")");
    p.closeWriteChannel();
    if (!p.waitForFinished(static_cast<int>(timeout.count()))) {
        p.kill();
        p.waitForFinished(1000);
        return Error::at({}, command + ": no answer within " +
                                 std::to_string(timeout.count() / 1000) + " s");
    }
    const std::string out = p.readAllStandardOutput().toStdString();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return Error::at({}, command + " failed (exit " + std::to_string(p.exitCode()) +
                                 "): " + trimmed(p.readAllStandardError().toStdString()));
    return out;
}

Result<std::string> SlurmClient::submit(const std::string& script)
{
    auto out = run("sbatch", {"--parsable", script});
    if (!out)
        return out.error();
    std::string id = trimmed(*out);
    if (const auto semi = id.find(';'); semi != std::string::npos)
        id = id.substr(0, semi); // "ID;cluster"
    if (id.empty() || id.find_first_not_of("0123456789_") != std::string::npos)
        return Error::at(script, "sbatch printed no job id: '" + trimmed(*out) + "'");
    return id;
}

Result<std::optional<std::string>> SlurmClient::findByScript(const std::string& script)
{
    auto out = run("squeue", {"--me", "--noheader", "--format=%i|%o"});
    if (!out)
        return out.error();
    std::istringstream in(*out);
    std::string line;
    while (std::getline(in, line)) {
        const auto bar = line.find('|');
        if (bar != std::string::npos && trimmed(line.substr(bar + 1)) == script)
            return std::optional<std::string>(line.substr(0, bar));
    }
    return std::optional<std::string>();
}

std::optional<SlurmClient::JobInfo> SlurmClient::parseScontrol(std::string_view text)
{
    JobInfo info;
    std::istringstream in{std::string(text)};
    std::string word;
    while (in >> word) {
        const auto eq = word.find('=');
        if (eq == std::string::npos)
            continue;
        const std::string key = word.substr(0, eq);
        const std::string value = word.substr(eq + 1);
        if (key == "JobId" && info.jobId.empty())
            info.jobId = value;
        else if (key == "JobState")
            info.state = value;
        else if (key == "Reason")
            info.reason = value;
        else if (key == "Restarts")
            info.restarts = std::atoi(value.c_str());
        else if (key == "ExitCode")
            parseExit(value, info);
    }
    if (info.jobId.empty() || info.state.empty())
        return std::nullopt;
    info.source = "scontrol";
    return info;
}

std::optional<SlurmClient::JobInfo> SlurmClient::parseSacct(std::string_view text,
                                                            const std::string& jobId)
{
    std::optional<JobInfo> last;
    std::istringstream in{std::string(text)};
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (;;) {
            const auto bar = line.find('|', start);
            fields.push_back(line.substr(start, bar - start));
            if (bar == std::string::npos)
                break;
            start = bar + 1;
        }
        if (fields.size() < 3 || fields[0] != jobId)
            continue;
        JobInfo info;
        info.jobId = jobId;
        info.state = fields[1].substr(0, fields[1].find(' ')); // "CANCELLED by 0"
        parseExit(fields[2], info);
        info.source = "sacct";
        last = info;
    }
    return last;
}

Result<SlurmClient::JobInfo> SlurmClient::query(const std::string& jobId,
                                                const std::string& slurmJobId)
{
    auto shown = run("scontrol", {"show", "job", "-o", jobId});
    if (shown) {
        if (auto info = parseScontrol(*shown))
            return *info;
    }
    const bool task = jobId.find('_') != std::string::npos;
    const std::string acctId = task ? slurmJobId : jobId;
    Result<std::string> acct =
        acctId.empty()
            ? Result<std::string>(Error::at({}, "the array task never started"))
            : run("sacct", {"-c", "-j", acctId, "-P", "-n", "-o", "jobid,state,exitcode"});
    if (acct) {
        if (auto info = parseSacct(*acct, acctId)) {
            info->jobId = jobId;
            return *info;
        }
    }
    return Error::at(
        {}, "Slurm knows no job " + jobId +
                " (scontrol: " + (shown ? std::string("no record") : shown.error().message) +
                "; sacct -c: " + (acct ? std::string("no record") : acct.error().message) + ")");
}

Status SlurmClient::cancel(const std::string& jobId)
{
    auto out = run("scancel", {jobId});
    if (!out)
        return out.error();
    return {};
}

} // namespace ckpt
