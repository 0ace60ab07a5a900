#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "io/AtomicFile.h"
#include "liveness/LivenessMonitor.h"
#include "report/RunJson.h"
#include "watch/RunWatcher.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <map>
#include <pthread.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt::cli {

namespace {

// An epoch event's JSON: paths are relative to the run's folder, so the root (and
// for runs sharing a folder, that folder) is enough.
nlohmann::ordered_json epochJson(const QString& root, const Epoch& epoch,
                                 const std::map<QString, std::string>& dirs)
{
    Run run;
    run.root = root.toStdString();
    if (auto it = dirs.find(root); it != dirs.end())
        run.dir = it->second;
    return RunJson::toJson(run, epoch);
}

int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] auto n = ::write(g_signalPipe[1], &c, 1);
}

// Prints one line per watcher event: JSON lines with --json, text otherwise.
class EventPrinter
{
public:
    explicit EventPrinter(bool json) : m_json(json) {}

    void print(const char* event, const QString& root, nlohmann::ordered_json fields,
               const std::string& text) const
    {
        const QString now = QDateTime::currentDateTime().toString(Qt::ISODateWithMs);
        if (m_json) {
            nlohmann::ordered_json line{
                {"time", now.toStdString()}, {"event", event}, {"root", root.toStdString()}};
            if (fields.is_object())
                line.update(fields);
            Console::jsonLine(line);
        } else {
            Console::out(now.mid(11, 12).toStdString() + "  " + event + "  " + root.toStdString() +
                         (text.empty() ? "" : "  " + text) + "\n");
        }
    }

private:
    bool m_json;
};

std::string linkText(const RunLink& link)
{
    return link.epoch ? link.name + " -> epoch " + std::to_string(*link.epoch)
                      : link.name + " removed or broken";
}

} // namespace

int runWatch(const QStringList& arguments)
{
    CommandLine cl(QStringLiteral("watch"), QStringLiteral("DIR... [--json] [--poll MS]"),
                   QStringLiteral("Watches every run below each DIR and prints one line per "
                                  "event (run found/added/removed, epoch added/removed/changed, "
                                  "link changed, save started/finished) until interrupted."));
    cl.addOption({QStringLiteral("poll"),
                  QStringLiteral("Poll every MS milliseconds instead of inotify (for network "
                                 "file systems)."),
                  QStringLiteral("MS")});
    cl.addOption({QStringLiteral("exit-on-eof"),
                  QStringLiteral("Stop when stdin closes (a client over ssh went away).")});
    if (auto exit = cl.parse(arguments, 1, -1))
        return *exit;
    if (cl.isSet(QStringLiteral("exit-on-eof")))
        Console::exitWhenStdinCloses();
    RunWatcher::Options options;
    if (cl.isSet("poll")) {
        const auto ms = cl.intValue(QStringLiteral("poll"), 10);
        if (!ms)
            return ExitUsage;
        options.polling = true;
        options.pollIntervalMs = *ms;
    }
    QStringList folders;
    for (const QString& dir : cl.positional()) {
        const QFileInfo info(dir);
        // Why it cannot be watched: missing, not reachable (EACCES), not a folder.
        struct stat st = {};
        const std::string path = QFile::encodeName(info.absoluteFilePath()).toStdString();
        if (::stat(path.c_str(), &st) != 0)
            return cl.fail(errno == ENOENT ? path + ": no such folder" : osError(path, errno));
        if (!S_ISDIR(st.st_mode))
            return cl.fail(path + ": not a folder");
        folders << info.absoluteFilePath();
    }

    // SIGINT and SIGTERM end the watch through the event loop. They are blocked
    // in this thread, and so in the watcher's threads started below, and read
    // from a signalfd: no handler has to run at an arbitrary point. A thread
    // started earlier (--exit-on-eof's) may still take one: its handler writes
    // to a pipe the loop also reads.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    sigset_t previousMask;
    ::pthread_sigmask(SIG_BLOCK, &stopSignals, &previousMask);
    const int signalFd = ::signalfd(-1, &stopSignals, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signalFd < 0 || ::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return cl.fail(osError("signalfd", errno));
    QSocketNotifier signalled(signalFd, QSocketNotifier::Read);
    QObject::connect(&signalled, &QSocketNotifier::activated, qApp, &QCoreApplication::quit);
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, qApp, &QCoreApplication::quit);
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);

    const EventPrinter out(cl.json());
    RunWatcher watcher(options);
    std::map<QString, std::string> dirs; // of the runs sharing a folder
    QObject::connect(&watcher, &RunWatcher::runAdded, [&](const Run& run) {
        if (!run.dir.empty())
            dirs[QString::fromStdString(run.root)] = run.dir;
        out.print("run_added", QString::fromStdString(run.root), {{"epochs", run.epochs.size()}},
                  std::to_string(run.epochs.size()) + " epochs");
    });
    QObject::connect(&watcher, &RunWatcher::runRemoved, [&](const QString& root) {
        dirs.erase(root);
        out.print("run_removed", root, {}, {});
    });
    QObject::connect(&watcher, &RunWatcher::epochAdded, [&](const QString& root, const Epoch& e) {
        out.print("epoch_added", root, epochJson(root, e, dirs),
                  "epoch " + std::to_string(e.number));
    });
    QObject::connect(&watcher, &RunWatcher::epochChanged, [&](const QString& root, const Epoch& e) {
        out.print("epoch_changed", root, epochJson(root, e, dirs),
                  "epoch " + std::to_string(e.number) + " rewritten");
    });
    QObject::connect(&watcher, &RunWatcher::epochRemoved, [&](const QString& root, int epoch) {
        out.print("epoch_removed", root, {{"epoch", epoch}}, "epoch " + std::to_string(epoch));
    });
    QObject::connect(
        &watcher, &RunWatcher::linkChanged, [&](const QString& root, const RunLink& l) {
            out.print(
                "link_changed", root,
                {{"link", l.name},
                 {"epoch", l.epoch ? nlohmann::ordered_json(*l.epoch) : nlohmann::ordered_json()}},
                linkText(l));
        });
    QObject::connect(&watcher, &RunWatcher::saveInProgress, [&](const QString& root, bool on) {
        out.print(on ? "save_started" : "save_finished", root, {}, {});
    });

    // Liveness: its first verdict per run is in run_found; later ones are events.
    LivenessMonitor liveness;
    liveness.follow(&watcher);
    QObject::connect(&liveness, &LivenessMonitor::changed, [&](const QString& root, LiveState s) {
        out.print("liveness", root, {{"liveness", std::string(toString(s))}},
                  std::string(toString(s)));
    });
    QObject::connect(&watcher, &RunWatcher::runHeadChanged, [&](const Run& head) {
        nlohmann::ordered_json kinds = nlohmann::ordered_json::array();
        std::string text;
        for (const Problem& p : head.problems) {
            kinds.push_back(std::string(toString(p.kind)));
            text += (text.empty() ? "" : ", ") + std::string(toString(p.kind));
        }
        out.print("run_changed", QString::fromStdString(head.root), {{"problems", kinds}},
                  text.empty() ? "no run problems" : "problems: " + text);
    });

    for (const QString& folder : folders) {
        watcher.addFolder(folder);
        if (!cl.json())
            Console::err("watching " + folder.toStdString() +
                         (options.polling ? " (polling)" : "") + "; Ctrl+C stops\n");
    }
    for (const Run& run : watcher.runs()) {
        const QString root = QString::fromStdString(run.root);
        const std::string live(toString(liveness.state(root)));
        nlohmann::ordered_json found{{"layout", run.layout}, {"epochs", run.epochs.size()}};
        for (const RunLink& l : run.links)
            found[l.name] = l.epoch ? nlohmann::ordered_json(*l.epoch) : nlohmann::ordered_json();
        found["liveness"] = live;
        out.print("run_found", root, found, std::to_string(run.epochs.size()) + " epochs, " + live);
    }
    out.print("ready", folders.join(QLatin1Char(':')), {}, {});
    const int rc = QCoreApplication::exec();
    // Take the signal that ended the loop: left pending, it would end the
    // process by its default action once unblocked.
    signalfd_siginfo taken;
    while (::read(signalFd, &taken, sizeof taken) == sizeof taken) {
    }
    ::close(signalFd);
    ::pthread_sigmask(SIG_SETMASK, &previousMask, nullptr);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return rc == 0 ? ExitOk : ExitUsage;
}

} // namespace ckpt::cli
