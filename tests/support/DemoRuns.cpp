#include "DemoRuns.h"

#include "DemoRun.h"
#include "candle/CandleResume.h"
#include "config/ParamSet.h"
#include "io/AtomicFile.h"
#include "launch/CommandTemplate.h"
#include "launch/LaunchPrep.h"
#include "launch/Launcher.h"

#include <QStringList>

namespace ckpt::test {

namespace fs = std::filesystem;

DemoRuns::DemoRuns(fs::path base, std::string trainer, LaunchRegistry registry)
    : m_base(std::move(base)), m_trainer(std::move(trainer)), m_registry(std::move(registry))
{}

std::string DemoRuns::configText(int epochs, double epochDelay)
{
    return "[Global_Params]\nepochs = " + std::to_string(epochs) +
           "\nlearning_rate = 0.01\nsamples_per_class = 40\nckpt_checksum = True\n"
           "epoch_delay = " +
           std::to_string(epochDelay) + "\n";
}

Result<fs::path> DemoRuns::train(const std::string& name, int epochs)
{
    const fs::path folder = m_base / name;
    return trainDemoRun(QString::fromStdString(m_trainer), folder, (folder / "config.ini").string(),
                        configText(epochs, 0.0));
}

Result<LaunchPlan> DemoRuns::plan(const std::string& name, int epochs, double epochDelay)
{
    const fs::path folder = m_base / name;
    fs::create_directories(folder);
    const std::string config = (folder / "config.ini").string();
    if (Status st = writeFileAtomically(config, configText(epochs, epochDelay)); !st)
        return st.error();
    auto params = ParamSet::readFile(config);
    if (!params)
        return params.error();
    const std::string out = (m_base / name).string();
    auto values = CommandTemplate::valuesFrom(params->toHyperParams());
    values["config"] = config;
    values["output_dir"] = out;
    values["ckpt_directory"] = out + "/ckpts";
    values["ckpt_restart_mode"] = "auto";
    const CommandTemplate tmpl = CommandTemplate(CandleResume::demoTrainerCommand(m_trainer));
    auto argv = tmpl.expand(values);
    if (!argv)
        return argv.error();
    LaunchPlan plan;
    plan.runRoot = out + "/ckpts";
    plan.name = name;
    plan.workingDir = out;
    plan.commandTemplate = tmpl.text();
    plan.argv = *argv;
    plan.configFile = config;
    for (const auto& p : params->params())
        plan.parameters.emplace_back(p.key, p.value.pythonLiteral());
    return plan;
}

Result<std::string> DemoRuns::launch(const std::string& name, int epochs, double epochDelay)
{
    auto made = plan(name, epochs, epochDelay);
    if (!made)
        return made.error();
    auto record = Launcher(m_registry).launch(*made);
    if (!record)
        return record.error();
    return record->runRoot;
}

Result<std::string> DemoRuns::fork(const fs::path& root, int epoch, const std::string& edit)
{
    PrepRequest r = demoPrepRequest(QString::fromStdString(m_trainer), root, LaunchPlan::Mode::Fork,
                                    epoch, (root.parent_path() / "config.ini").string());
    auto parsed = ParamEdit::parse(edit);
    if (!parsed)
        return parsed.error();
    r.edits.push_back(*parsed);
    auto prepared = LaunchPrep::prepare(r, m_registry);
    if (!prepared)
        return prepared.error();
    if (Status st = LaunchPrep::apply(*prepared); !st)
        return st.error();
    auto record = Launcher(m_registry).launch(prepared->plan);
    if (!record)
        return record.error();
    return record->runRoot;
}

} // namespace ckpt::test
