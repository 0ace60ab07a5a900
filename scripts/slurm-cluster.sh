#!/usr/bin/env bash
# A REAL one-node Slurm cluster (munge, slurmctld, slurmd) in a folder, for the
# launcher's tests and for users who want to try the Slurm backend:
#
#   scripts/slurm-cluster.sh start DIR    # prints: export SLURM_CONF=DIR/slurm.conf
#   scripts/slurm-cluster.sh status DIR
#   scripts/slurm-cluster.sh stop DIR     # scancel everything, then the daemons
#
# Everything lives in DIR (config, state, logs, its own munge socket and key);
# the ports are picked free at start, so it never meets another cluster. Needs
# root (SlurmUser=root) and the Debian packages slurmctld slurmd slurm-client
# munge (scripts/setup-deps.sh). Exit status: 0 fine, 1 failed, 2 usage,
# 3 Slurm is not installed.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|status DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
action=$1
dir=$2
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
conf=$dir/slurm.conf
pids=$dir/pids
export SLURM_CONF=$conf

log() { echo "slurm-cluster: $*" >&2; }

# kill -0 sees a zombie as alive: look at /proc.
alive() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $state && $state != Z && $state != X ]]
}

wait_gone() { # PID SECONDS
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    alive "$1" || return 0
    sleep 0.1
  done
  return 1
}

port_free() {
  local hex
  hex=$(printf '%04X' "$1")
  ! grep -q ":$hex " /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

free_port() {
  local p
  for ((p = 20000 + RANDOM % 20000; ; p = 20000 + RANDOM % 20000)); do
    port_free "$p" && port_free $((p + 1)) && { echo "$p"; return; }
  done
}

stop_daemons() {
  [[ -f $pids ]] || return 0
  local name pid
  # Reverse order of start: slurmd, slurmctld, munged.
  for name in slurmd slurmctld munged; do
    pid=$(awk -v n="$name" '$1 == n {print $2}' "$pids")
    [[ -n $pid ]] || continue
    if alive "$pid"; then
      kill -TERM "$pid" 2>/dev/null || true
      wait_gone "$pid" 10 || { log "$name ($pid) ignored SIGTERM; SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; wait_gone "$pid" 5 || true; }
    fi
  done
  rm -f "$pids"
}

start() {
  for tool in slurmctld slurmd munged sinfo sbatch squeue scancel scontrol; do
    command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
    command -v "$tool" >/dev/null 2>&1 || { log "$tool not found: install slurmctld slurmd slurm-client munge (scripts/setup-deps.sh)"; exit 3; }
  done
  [[ $(id -u) -eq 0 ]] || { log "must run as root (SlurmUser=root, munged as user munge)"; exit 1; }
  if [[ -f $pids ]]; then
    local running=1 name pid
    while read -r name pid; do alive "$pid" || running=0; done <"$pids"
    if [[ $running -eq 1 ]]; then
      log "already running in $dir"
      echo "export SLURM_CONF=$conf"
      return 0
    fi
    log "cleaning up a half-dead cluster"
    stop_daemons
  fi
  rm -rf "$dir/state" "$dir/spool" "$dir/munge"
  mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/munge"

  if ! setpriv --reuid=munge --regid=munge --clear-groups test -x "$dir"; then
    log "user munge cannot reach $dir: make it and its parents searchable (chmod o+x)"
    exit 1
  fi
  # munge with its own key and socket, as the munge user.
  local key=$dir/munge/munge.key
  if [[ -r /etc/munge/munge.key ]]; then
    cp /etc/munge/munge.key "$key"
  else
    mungekey -c -k "$key"
  fi
  chown -R munge:munge "$dir/munge"
  # munged wants its socket's folders searchable by all (clients connect).
  chmod 755 "$dir" "$dir/munge"
  chmod 600 "$key"
  local socket=$dir/munge/munge.socket
  setsid setpriv --reuid=munge --regid=munge --clear-groups \
    munged -F --socket="$socket" --key-file="$key" --log-file="$dir/munge/munged.log" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed" \
    </dev/null >>"$dir/log/munged.out" 2>&1 &
  echo "munged $!" >"$pids"
  local i
  for ((i = 0; i < 50; i++)); do [[ -S $socket ]] && break; sleep 0.1; done
  [[ -S $socket ]] || { log "munged did not start: $(tail -n 3 "$dir/munge/munged.log" "$dir/log/munged.out" 2>/dev/null)"; stop_daemons; exit 1; }

  local host node ctld_port
  host=$(hostname -s)
  node=$(slurmd -C | head -n 1)
  ctld_port=$(free_port)
  cat >"$conf" <<EOF
# Written by scripts/slurm-cluster.sh: a one-node cluster for tests.
ClusterName=ckpt-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
KillWait=5
MinJobAge=300
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  touch "$dir/log/jobcomp.txt"

  setsid slurmctld -D -c -f "$conf" </dev/null >>"$dir/log/slurmctld.out" 2>&1 &
  echo "slurmctld $!" >>"$pids"
  setsid slurmd -D -f "$conf" </dev/null >>"$dir/log/slurmd.out" 2>&1 &
  echo "slurmd $!" >>"$pids"
  local state=""
  for ((i = 0; i < 300; i++)); do
    state=$(timeout 5 sinfo -h -o %T 2>/dev/null | head -n 1 || true)
    [[ $state == idle ]] && break
    sleep 0.1
  done
  if [[ $state != idle ]]; then
    log "the node did not become idle (state '${state:-none}'); logs in $dir/log"
    tail -n 5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
    stop_daemons
    exit 1
  fi
  log "one-node cluster up in $dir (slurmctld port $ctld_port)"
  echo "export SLURM_CONF=$conf"
}

stop() {
  if [[ ! -f $pids ]]; then
    log "no cluster running in $dir"
    return 0
  fi
  # Running jobs' slurmstepd survive the daemons and ignore SIGTERM: cancel
  # every job and wait for the queue to drain before stopping the daemons.
  if [[ -f $conf ]]; then
    local jobs i
    jobs=$(timeout 10 squeue -h -o %i 2>/dev/null || true)
    if [[ -n $jobs ]]; then
      # shellcheck disable=SC2086
      timeout 10 scancel $jobs 2>/dev/null || true
      for ((i = 0; i < 300; i++)); do
        [[ -z $(timeout 5 squeue -h -o %i 2>/dev/null || true) ]] && break
        sleep 0.1
      done
    fi
  fi
  stop_daemons
  log "stopped"
}

status() {
  if [[ ! -f $pids ]]; then
    echo "stopped"
    return 1
  fi
  local name pid ok=0
  while read -r name pid; do
    if alive "$pid"; then echo "$name $pid running"; else echo "$name $pid dead"; ok=1; fi
  done <"$pids"
  timeout 5 sinfo 2>&1 || ok=1
  return $ok
}

case $action in
start) start ;;
stop) stop ;;
status) status ;;
*) usage ;;
esac
