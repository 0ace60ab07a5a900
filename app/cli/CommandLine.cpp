#include "CommandLine.h"

#include "Console.h"

#include <algorithm>

namespace ckpt::cli {

CommandLine::CommandLine(QString command, QString synopsis, QString description)
    : m_command(std::move(command)), m_synopsis(std::move(synopsis))
{
    m_parser.setApplicationDescription(description);
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    m_parser.addHelpOption();
    m_parser.addOption(
        {QStringLiteral("json"), QStringLiteral("Machine-readable JSON on stdout.")});
}

std::optional<int> CommandLine::parse(const QStringList& arguments, int minPositional,
                                      int maxPositional)
{
    QStringList args = arguments;
    args.prepend(QStringLiteral("ckpt ") + m_command);
    if (!m_parser.parse(args))
        return usageError(m_parser.errorText());
    if (m_parser.isSet(QStringLiteral("help"))) {
        Console::out(
            QStringLiteral("Usage: ckpt %1 %2\n\n%3")
                .arg(m_command, m_synopsis, m_parser.helpText().section(QLatin1Char('\n'), 1)));
        return ExitOk;
    }
    const auto n = m_parser.positionalArguments().size();
    if (n < minPositional)
        return usageError(QStringLiteral("missing argument"));
    if (maxPositional >= 0 && n > maxPositional)
        return usageError(QStringLiteral("unexpected argument '%1'")
                              .arg(m_parser.positionalArguments().at(maxPositional)));
    return std::nullopt;
}

std::optional<int> CommandLine::intValue(const QString& name, int minimum) const
{
    bool ok = false;
    const int v = m_parser.value(name).toInt(&ok);
    if (!ok || v < minimum) {
        usageError(QStringLiteral("--%1 needs a whole number >= %2, got '%3'")
                       .arg(name)
                       .arg(minimum)
                       .arg(m_parser.value(name)));
        return std::nullopt;
    }
    return v;
}

std::optional<std::vector<int>> CommandLine::intList(const QString& name, int minimum) const
{
    std::vector<int> values;
    for (const QString& given : m_parser.values(name))
        for (const QString& item : given.split(QLatin1Char(','))) {
            bool ok = false;
            const int v = item.trimmed().toInt(&ok);
            if (!ok || v < minimum) {
                usageError(QStringLiteral("--%1 needs whole numbers >= %2 (N or N,M,...), got '%3'")
                               .arg(name)
                               .arg(minimum)
                               .arg(given));
                return std::nullopt;
            }
            values.push_back(v);
        }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

int CommandLine::fail(const std::string& message, int exitCode) const
{
    Console::err("ckpt " + m_command.toStdString() + ": " + message + "\n");
    return exitCode;
}

int CommandLine::usageError(const QString& message) const
{
    Console::err(QStringLiteral("ckpt %1: %2\nUsage: ckpt %1 %3\nTry 'ckpt %1 --help'.\n")
                     .arg(m_command, message, m_synopsis));
    return ExitUsage;
}

} // namespace ckpt::cli
