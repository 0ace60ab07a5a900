#include "launch/SlurmBatchScript.h"

#include "launch/CommandTemplate.h"

#include <algorithm>

namespace ckpt {

namespace {

int graceOf(const SlurmOptions& o)
{
    return std::max(o.signalGraceSeconds, 2);
}

// The #SBATCH lines; `array` is "0-N[%K]" or empty.
std::string header(const LaunchPlan& plan, const std::string& output, const std::string& array)
{
    const SlurmOptions& o = plan.slurm;
    std::string s = "#!/bin/bash\n";
    auto sb = [&s](const std::string& option, const std::string& value = {}) {
        s.append("#SBATCH --").append(option);
        if (!value.empty())
            s.append("=").append(SlurmBatchScript::sbatchValue(value));
        s += '\n';
    };
    const std::string name =
        !o.jobName.empty() ? o.jobName : (!plan.name.empty() ? plan.name : "ckpt-run");
    sb("job-name", name);
    if (!array.empty())
        sb("array", array);
    sb("output", output);
    sb("open-mode", "append");
    sb("requeue");
    sb("signal", "B:USR1@" + std::to_string(graceOf(o)));
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
    return s;
}

std::string words(const std::vector<std::string>& argv)
{
    std::string s;
    for (std::size_t i = 0; i < argv.size(); ++i)
        s.append(i ? " " : "").append(CommandTemplate::shellQuote(argv[i]));
    return s;
}

// ev, last, args (and the environment) of one run, each line after `indent`.
std::string runVariables(const LaunchPlan& plan, const LaunchAttempt& attempt,
                         const std::string& indent)
{
    const SlurmOptions& o = plan.slurm;
    std::string s;
    s += indent + "ev=" + CommandTemplate::shellQuote(attempt.eventsPath) + "\n";
    s += indent + "last=" +
         (o.lastLink.empty() ? std::string("''") : CommandTemplate::shellQuote(o.lastLink)) + "\n";
    s += indent + "args=(" + words(plan.argv) + ")\n";
    for (const auto& [k, v] : plan.environment)
        s += indent + "export " + k + "=" + CommandTemplate::shellQuote(v) + "\n";
    return s;
}

// From the restart count to the end: the trap, the trainer, the events.
std::string body(const SlurmOptions& o)
{
    // Leave the trainer some of the grace to write its checkpoint after TERM.
    const int grace = graceOf(o);
    const int watch = std::max(1, grace - std::min(10, grace / 3));
    std::string s = "restart=${SLURM_RESTART_COUNT:-0}\n";
    if (!o.requeueArguments.empty())
        s += "if [ \"$restart\" -gt 0 ]; then args+=(" + words(o.requeueArguments) + "); fi\n";
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
event "{\"event\":\"start\",\"time\":$(date +%s),\"pid\":$child,\"host\":\"$(uname -n)\",\"restart\":$restart,\"job\":\"${SLURM_JOB_ID:-}\"}"
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

} // namespace

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
    std::string s = header(plan, attempt.logPath, {});
    s += "\n# Written by Ckpt Studio for " + plan.runRoot + " (launch " +
         std::to_string(attempt.index) + ").\n";
    s += runVariables(plan, attempt, "");
    return s + body(plan.slurm);
}

std::string SlurmBatchScript::renderArray(const std::vector<LaunchPlan>& plans,
                                          const std::vector<LaunchAttempt>& attempts, int parallel,
                                          const std::string& slurmOutput)
{
    if (plans.empty() || plans.size() != attempts.size())
        return {};
    std::string array = "0-" + std::to_string(plans.size() - 1);
    if (parallel > 0 && static_cast<std::size_t>(parallel) < plans.size())
        array += "%" + std::to_string(parallel);
    std::string s = header(plans.front(), slurmOutput, array);
    s += "\n# Written by Ckpt Studio: a sweep of " + std::to_string(plans.size()) +
         " runs, one array task each, each with its own folder, log and record.\n";
    s += "case \"${SLURM_ARRAY_TASK_ID:-}\" in\n";
    for (std::size_t i = 0; i < plans.size(); ++i) {
        s += std::to_string(i) + ")\n";
        s += "  run=" + CommandTemplate::shellQuote(plans[i].runRoot) + "\n";
        s += "  dir=" + CommandTemplate::shellQuote(plans[i].workingDir) + "\n";
        s += "  log=" + CommandTemplate::shellQuote(attempts[i].logPath) + "\n";
        s += runVariables(plans[i], attempts[i], "  ");
        s += "  ;;\n";
    }
    s += "*)\n  echo \"ckpt-studio: no run for array task ${SLURM_ARRAY_TASK_ID:-?}\" >&2\n"
         "  exit 2\n  ;;\nesac\n";
    s += "cd \"$dir\" || exit 1\n";
    s += "exec >>\"$log\" 2>&1\n";
    s += "echo \"ckpt-studio: array task $SLURM_ARRAY_TASK_ID of job $SLURM_ARRAY_JOB_ID: $run\"\n";
    return s + body(plans.front().slurm);
}

} // namespace ckpt
