#pragma once

#include "remote/RemoteTarget.h"

#include <QString>
#include <QStringList>

namespace ckpt {

// One shared ssh connection per far host (OpenSSH's ControlMaster): the first
// remote call opens a master in the background, later calls (scan, history,
// verify, the watch) run as sessions of it and skip the handshake (~0.25 s).
// The user's own ssh set-up wins: when their config sets ControlMaster or
// ControlPath for that host (asked once through `ssh -G`), nothing is added.
// Our sockets live in $XDG_RUNTIME_DIR, else a 0700 folder of ours in /tmp,
// named after the connection's user, host, port and jump host.
class SshMultiplex
{
public:
    struct Plan
    {
        QStringList options; // added before the destination; empty: ssh as configured
        QString controlPath; // our master's socket; empty when we add none
        QString reason;      // why nothing was added, for logs and tests
    };
    // Asked once per (ssh command, destination, port) in a process; thread-safe.
    static Plan plan(const QStringList& ssh, const RemoteTarget& target);

    enum class Master
    {
        Absent,  // no socket: the next call opens a master
        Alive,   // it answered
        Wedged,  // the socket takes connections but no answer came in time
        Refused, // a stale socket (its master is gone): ssh replaces it
    };
    // `ssh -O check` against our socket, given up after `timeoutMs`.
    static Master check(const QStringList& ssh, const RemoteTarget& target, const Plan& plan,
                        int timeoutMs);
    // The options a call uses after check(): a wedged master's socket is
    // removed (the next call opens a new master) and this call connects
    // directly, so a hung master never hangs a call.
    static QStringList optionsFor(const QStringList& ssh, const RemoteTarget& target,
                                  const Plan& plan, int checkTimeoutMs = 2000);
    // The master's pid from `ssh -O check` ("Master running (pid=N)"), 0 when none.
    static int masterPid(const QStringList& ssh, const RemoteTarget& target, const Plan& plan);

    // Where our sockets go: $XDG_RUNTIME_DIR when it is ours, 0700 and short
    // enough for a socket path (108 bytes with ssh's temporary suffix), else
    // /tmp/ckpt-ssh-UID (made 0700; refused when someone else owns it). Empty
    // when neither can be used: calls then connect directly.
    static QString runtimeDir();
    // Seconds an idle master stays up after its last session.
    static constexpr int kPersistSeconds = 60;

    // The options with which ssh -G / -O talk about `target`.
    static QStringList destinationArgs(const RemoteTarget& target);
};

} // namespace ckpt
