#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "LaunchedRunArgument.h"
#include "TextTable.h"
#include "config/ParamDiff.h"
#include "config/ParamSet.h"
#include "launch/LaunchRegistry.h"
#include "launch/RunConfigFinder.h"

#include <QDir>
#include <QFileInfo>

namespace ckpt::cli {

namespace {

using Json = nlohmann::ordered_json;

// A FILE is read as it is; a RUN through the config it was launched with or
// the one named for it (--config names and remembers it).
Result<ParamSet> loadParams(const QString& argument, const QString& configOption,
                            std::optional<int> epoch = std::nullopt)
{
    if (QFileInfo(argument).isFile())
        return ParamSet::readFile(QFileInfo(argument).absoluteFilePath().toStdString());
    auto root = launchedRunRoot(argument);
    if (!root)
        return root.error();
    LaunchRegistry registry;
    if (!configOption.isEmpty()) {
        const std::string config = QFileInfo(configOption).absoluteFilePath().toStdString();
        auto params = ParamSet::readFile(config);
        if (!params)
            return params.error();
        if (Status st = registry.rememberExternal({*root, config, {}}); !st)
            return st.error();
        return params;
    }
    auto config = RunConfigFinder::configFor(*root, registry, epoch);
    if (!config)
        return config.error();
    return ParamSet::readFile(*config);
}

std::string sectionTitle(const std::string& section)
{
    return section.empty() ? "(top level)" : "[" + section + "]";
}

Json listJson(const ParamSet& set)
{
    Json sections = Json::array();
    for (const std::string& s : set.sections()) {
        Json params = Json::array();
        for (const auto& p : set.params())
            if (p.section == s)
                params.push_back({{"key", p.key},
                                  {"value", ParamSet::toJson(p.value)},
                                  {"literal", p.value.pythonLiteral()},
                                  {"line", p.line}});
        sections.push_back({{"section", s}, {"parameters", params}});
    }
    return {{"file", set.origin()},
            {"format", std::string(set.formatName())},
            {"sections", sections},
            {"notes", set.notes()}};
}

std::string listText(const ParamSet& set)
{
    std::string out = set.origin() + "\n";
    for (const std::string& s : set.sections()) {
        TextTable table({"KEY", "VALUE", "LINE"}, {false, false, true});
        for (const auto& p : set.params())
            if (p.section == s)
                table.addRow({p.key, p.value.pythonLiteral(), std::to_string(p.line)});
        out += sectionTitle(s) + "\n" + table.render("  ");
    }
    for (const std::string& note : set.notes())
        out += "note: " + note + "\n";
    return out;
}

Json diffJson(const ParamSet& a, const ParamSet& b, const std::vector<ParamChange>& changes)
{
    Json items = Json::array();
    auto opt = [](const std::optional<HyperValue>& v) {
        return v ? ParamSet::toJson(*v) : Json(nullptr);
    };
    for (const ParamChange& c : changes)
        items.push_back({{"section", c.section},
                         {"key", c.key},
                         {"change", ParamChange::kindName(c.kind)},
                         {"before", opt(c.before)},
                         {"after", opt(c.after)},
                         {"line_before", c.lineBefore},
                         {"line_after", c.lineAfter}});
    return {{"before", a.origin()}, {"after", b.origin()}, {"changes", items}};
}

std::string diffText(const ParamSet& a, const ParamSet& b, const std::vector<ParamChange>& changes)
{
    std::string out = "--- " + a.origin() + "\n+++ " + b.origin() + "\n";
    if (changes.empty())
        return out + "no differences\n";
    std::vector<std::pair<std::string, TextTable>> groups;
    for (const ParamChange& c : changes) {
        if (groups.empty() || groups.back().first != c.section)
            groups.emplace_back(c.section, TextTable({"KEY", "BEFORE", "AFTER"}));
        groups.back().second.addRow({c.key, c.before ? c.before->pythonLiteral() : "(absent)",
                                     c.after ? c.after->pythonLiteral() : "(absent)"});
    }
    for (const auto& [name, t] : groups)
        out += sectionTitle(name) + "\n" + t.render("  ");
    out += std::to_string(changes.size()) + " difference" + (changes.size() == 1 ? "" : "s") + "\n";
    return out;
}

} // namespace

int runParams(const QStringList& arguments)
{
    CommandLine cl(
        QStringLiteral("params"),
        QStringLiteral("RUN|FILE [--epoch N] [--diff RUN|FILE] [--config FILE] [--json]"),
        QStringLiteral("The hyperparameters of a run or a parameter file (CANDLE INI, JSON, "
                       "Lightning hparams.yaml), "
                       "by section. With --diff, a typed comparison: values compare as the "
                       "trainer reads them (1e-3 equals 0.001, True equals true, a tuple equals "
                       "a list).\nA RUN uses the config file it was launched with; for a run "
                       "Ckpt Studio did not launch, --config names it (remembered), else the "
                       "file its format keeps (a Lightning run's hparams.yaml). --epoch N: "
                       "the file epoch N was trained with (before a restart from M >= N, the "
                       "one from before it).\nExit "
                       "status 2 when a file cannot be read or a value is malformed (the "
                       "message names the file, line and key)."));
    cl.addOption({QStringLiteral("diff"), QStringLiteral("Compare with another run or file."),
                  QStringLiteral("RUN|FILE")});
    cl.addOption({QStringLiteral("config"),
                  QStringLiteral("The parameter file of RUN (remembered for that run)."),
                  QStringLiteral("FILE")});
    cl.addOption({QStringLiteral("epoch"),
                  QStringLiteral("The parameters epoch N of RUN was trained with."),
                  QStringLiteral("N")});
    if (auto exit = cl.parse(arguments, 1, 1))
        return *exit;
    std::optional<int> epoch;
    if (cl.isSet("epoch")) {
        bool ok = false;
        epoch = cl.value("epoch").toInt(&ok);
        if (!ok || *epoch < 0)
            return cl.usageError(
                QStringLiteral("--epoch takes an epoch number, not '%1'").arg(cl.value("epoch")));
    }
    auto first = loadParams(cl.positional().first(), cl.value("config"), epoch);
    if (!first)
        return cl.fail(first.error().message);
    if (!cl.isSet("diff")) {
        if (cl.json())
            Console::json(listJson(*first));
        else
            Console::out(listText(*first));
        return ExitOk;
    }
    auto second = loadParams(cl.value("diff"), {});
    if (!second)
        return cl.fail(second.error().message);
    const auto changes = ParamDiff::compare(*first, *second);
    if (cl.json())
        Console::json(diffJson(*first, *second, changes));
    else
        Console::out(diffText(*first, *second, changes));
    return ExitOk;
}

} // namespace ckpt::cli
