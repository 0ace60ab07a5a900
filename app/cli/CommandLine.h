#pragma once

#include "ExitCode.h"

#include <QCommandLineParser>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace ckpt::cli {

// QCommandLineParser with the options every command has (--help, --json) and
// the project's exit codes: help exits 0, a usage error prints the reason and
// the synopsis and exits 2.
class CommandLine
{
public:
    CommandLine(QString command, QString synopsis, QString description);

    QCommandLineParser& parser() { return m_parser; }
    void addOption(const QCommandLineOption& option) { m_parser.addOption(option); }

    // Returns an exit code when the command must stop now (help or usage error).
    std::optional<int> parse(const QStringList& arguments, int minPositional, int maxPositional);

    bool json() const { return m_parser.isSet(QStringLiteral("json")); }
    QStringList positional() const { return m_parser.positionalArguments(); }
    QString value(const QString& name) const { return m_parser.value(name); }
    bool isSet(const QString& name) const { return m_parser.isSet(name); }

    // Parses an integer option; prints a usage error and returns nullopt when bad.
    std::optional<int> intValue(const QString& name, int minimum) const;
    // Every integer of a repeatable, comma-separable option ("--epoch 3,5
    // --epoch 9"), sorted and unique; nullopt (usage error printed) when bad.
    std::optional<std::vector<int>> intList(const QString& name, int minimum) const;

    int usageError(const QString& message) const;
    // "ckpt <command>: <message>" on stderr, returning `exitCode`: a failure
    // after parsing (a run or file that cannot be loaded, a refused change).
    int fail(const std::string& message, int exitCode = ExitUsage) const;

private:
    QCommandLineParser m_parser;
    QString m_command;
    QString m_synopsis;
};

} // namespace ckpt::cli
