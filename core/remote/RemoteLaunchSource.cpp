#include "remote/RemoteLaunchSource.h"

#include "launch/CommandTemplate.h"

namespace ckpt {

RemoteLaunchSource::RemoteLaunchSource(RemoteCkpt client, std::string farRun, int fromEpoch,
                                       std::string urlPrefix)
    : m_client(std::move(client)), m_run(std::move(farRun)), m_from(fromEpoch),
      m_prefix(std::move(urlPrefix))
{}

Result<LaunchParameters> RemoteLaunchSource::parameters(const LaunchChoice& choice,
                                                        const Progress& progress) const
{
    auto params = m_client.params(m_run, choice.configFile, progress, m_from);
    if (!params)
        return params.error();
    LaunchParameters out;
    out.file = params->file;
    for (const RemoteParam& p : params->parameters)
        out.list.push_back({p.section, p.key, p.literal, p.line});
    return out;
}

Result<RemoteLaunchRequest> RemoteLaunchSource::request(const LaunchChoice& choice,
                                                        bool dryRun) const
{
    if (!choice.sweep.empty()) {
        std::string message = "a sweep over ssh is `ckpt launch --sweep` on ";
        message += host();
        return Error{std::move(message), m_run};
    }
    RemoteLaunchRequest r;
    r.run = m_run;
    r.from = m_from;
    r.mode = choice.mode;
    r.config = choice.configFile;
    r.sets = choice.sets;
    r.backend = choice.backend;
    r.force = choice.force;
    r.dryRun = dryRun;
    if (choice.backend == LaunchPlan::Backend::Slurm) {
        r.slurm = choice.slurm;
        // What `ckpt launch` has no option of its own for goes in as #SBATCH lines.
        if (choice.slurm.nodes > 1)
            r.slurm.extraLines.push_back(
                std::string("--nodes=").append(std::to_string(choice.slurm.nodes)));
        if (!choice.slurm.account.empty())
            r.slurm.extraLines.push_back("--account=" + choice.slurm.account);
    }
    if (!choice.commandTemplate.empty()) {
        auto words = CommandTemplate(choice.commandTemplate).words();
        if (!words)
            return words.error();
        r.commandTemplate = std::move(*words);
    }
    return r;
}

Result<LaunchPreview> RemoteLaunchSource::preview(const LaunchChoice& choice,
                                                  const Progress& progress) const
{
    auto r = request(choice, true);
    if (!r)
        return r.error();
    auto planned = m_client.launch(*r, progress);
    if (!planned)
        return planned.error();
    LaunchPreview out;
    out.text = planned->plan;
    if (out.text.empty()) // a far ckpt without the "plan" member
        out.text = planned->mode + " " + planned->run + " from epoch " +
                   std::to_string(planned->from) + " on " + host();
    out.batchScript = planned->batchScript;
    out.commandTemplate = planned->commandTemplate;
    out.checkFailures = planned->checkFailures;
    return out;
}

Result<LaunchOutcome> RemoteLaunchSource::launch(const LaunchChoice& choice, LaunchPreview,
                                                 const Progress&) const
{
    // Not cancelled half way: the far side would be left to undo it.
    auto r = request(choice, false);
    if (!r)
        return r.error();
    auto launched = m_client.launch(*r);
    if (!launched)
        return launched.error();
    LaunchOutcome out;
    out.roots.push_back(m_prefix + launched->run);
    return out;
}

} // namespace ckpt
