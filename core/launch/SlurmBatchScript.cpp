#include "launch/SlurmBatchScript.h"

#include "launch/CommandTemplate.h"

#include <algorithm>

namespace ckpt {

std::string SlurmBatchScript::sbatchValue(const std::string& value)
{
    if (value.find_first_of(" \t\"'\\") == std::string::npos)
        return value;
    std::string out = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string SlurmBatchScript::render(const LaunchPlan& plan, const LaunchAttempt& attempt)
{
    const SlurmOptions& o = plan.slurm;
    std::string s = "#!/bin/bash\n";
    auto sb = [&s](const std::string& option, const std::string& value = {}) {
        s.append("#SBATCH --").append(option);
        if (!value.empty())
            s.append("=").append(sbatchValue(value));
        s += '\n';
    };
    const std::string name =
        !o.jobName.empty() ? o.jobName : (!plan.name.empty() ? plan.name : "ckpt-run");
    sb("job-name", name);
    sb("output", attempt.logPath);
    sb("open-mode", "append");
    sb("requeue");
    const int grace = std::max(o.signalGraceSeconds, 2);
    sb("signal", "B:USR1@" + std::to_string(grace));
    sb("chdir", plan.workingDir);
    if (!o.partition.empty())
        sb("partition", o.partition);
    if (!o.time.empty())
        sb("time", o.time);
    if (o.nodes > 0)
        sb("nodes", std::to_string(o.nodes));
    if (o.cpusPerTask > 0)
        sb("cpus-per-task", std::to_string(o.cpusPerTask));
    if (o.gpus > 0)
        sb("gpus", std::to_string(o.gpus));
    if (!o.memory.empty())
        sb("mem", o.memory);
    if (!o.account.empty())
        sb("account", o.account);
    for (const std::string& line : o.extraLines)
        s += line.rfind("#SBATCH", 0) == 0 ? line + "\n" : "#SBATCH " + line + "\n";

    // Leave the trainer some of the grace to write its checkpoint after TERM.
    const int watch = std::max(1, grace - std::min(10, grace / 3));
    s += "\n# Written by Ckpt Studio for " + plan.runRoot + " (launch " +
         std::to_string(attempt.index) + ").\n";
    s += "ev=" + CommandTemplate::shellQuote(attempt.eventsPath) + "\n";
    s += "last=" +
         (o.lastLink.empty() ? std::string("''") : CommandTemplate::shellQuote(o.lastLink)) + "\n";
    s += "args=(";
    for (std::size_t i = 0; i < plan.argv.size(); ++i)
        s.append(i ? " " : "").append(CommandTemplate::shellQuote(plan.argv[i]));
    s += ")\n";
    s += "restart=${SLURM_RESTART_COUNT:-0}\n";
    if (!o.requeueArguments.empty()) {
        s += "if [ \"$restart\" -gt 0 ]; then args+=(";
        for (std::size_t i = 0; i < o.requeueArguments.size(); ++i)
            s.append(i ? " " : "").append(CommandTemplate::shellQuote(o.requeueArguments[i]));
        s += "); fi\n";
    }
    for (const auto& [k, v] : plan.environment)
        s += "export " + k + "=" + CommandTemplate::shellQuote(v) + "\n";
    s += R"sh(event() { printf '%s\n' "$1" >> "$ev"; }
child=0
preempted=0
on_usr1() {
  preempted=1
  event "{\"event\":\"preempt\",\"time\":$(date +%s)}"
  echo "ckpt-studio: USR1 (time limit near): letting the epoch in progress finish"
  before=$(readlink "$last" 2>/dev/null)
  deadline=$(( $(date +%s) + )sh" +
         std::to_string(watch) + R"sh( ))
  while kill -0 "$child" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do
    if [ -n "$last" ] && [ "$(readlink "$last" 2>/dev/null)" != "$before" ]; then break; fi
    sleep 1
  done
  kill -TERM "$child" 2>/dev/null
}
trap on_usr1 USR1
trap 'kill -TERM "$child" 2>/dev/null' TERM
echo "ckpt-studio: job ${SLURM_JOB_ID:-?} start $restart on $(uname -n): ${args[*]}"
"${args[@]}" &
child=$!
event "{\"event\":\"start\",\"time\":$(date +%s),\"pid\":$child,\"host\":\"$(uname -n)\",\"restart\":$restart}"
while :; do
  wait "$child"; st=$?
  kill -0 "$child" 2>/dev/null || break
done
event "{\"event\":\"exit\",\"time\":$(date +%s),\"pid\":$child,\"status\":$st}"
if [ "$preempted" = 1 ]; then
  event "{\"event\":\"requeue\",\"time\":$(date +%s)}"
  echo "ckpt-studio: requeueing job $SLURM_JOB_ID"
  scontrol requeue "$SLURM_JOB_ID"
fi
exit $st
)sh";
    return s;
}

} // namespace ckpt
