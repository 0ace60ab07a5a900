#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "report/Protocol.h"

#include <QCoreApplication>

namespace ckpt::cli {

int runVersion(const QStringList& arguments)
{
    CommandLine cl(QStringLiteral("version"), QStringLiteral("[--json]"),
                   QStringLiteral("Prints the version of ckpt and of its JSON protocol (what a "
                                  "client talking to it over ssh checks first)."));
    if (auto exit = cl.parse(arguments, 0, 0))
        return *exit;
    const std::string version = QCoreApplication::applicationVersion().toStdString();
    if (cl.json())
        Console::json({{"program", "ckpt"},
                       {"version", version},
                       {"min_protocol", kMinCliProtocol},
                       {"commands", [] {
                            nlohmann::ordered_json names = nlohmann::ordered_json::array();
                            for (const auto& c : commands())
                                names.push_back(c.name);
                            return names;
                        }()}});
    else
        Console::out("ckpt " + version + " (JSON protocol " + std::to_string(kCliProtocol) + ")\n");
    return ExitOk;
}

} // namespace ckpt::cli
