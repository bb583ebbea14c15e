#!/usr/bin/env bash
# A one-node Slurm on this machine, for the cluster tests and for trying `arena slurm` by hand.
# Debian 12 packages (munge, slurmctld, slurmd, slurm-client); root only; no systemd, cgroups or
# accounting. Used by .ci/run before the tests; tests/slurm_e2e_test.cpp skips (saying why) when
# no Slurm answers.
#
#   tools/slurm-local.sh start    install what is missing, configure, start the daemons, wait for the node
#   tools/slurm-local.sh stop     stop the daemons
#   tools/slurm-local.sh status   the daemons and sinfo
#
# "start" is idempotent: running daemons are kept unless the configuration changed.
# SLURM_LOCAL_CPUS sets the node's CPUs (default: nproc); SLURM_LOCAL_WAIT the seconds to wait (60).
set -euo pipefail

conf=/etc/slurm/slurm.conf
state=/var/lib/slurm
logs=/var/log/slurm
cpus="${SLURM_LOCAL_CPUS:-$(nproc)}"
wait_s="${SLURM_LOCAL_WAIT:-60}"
declare -A pidfile=([munged]=/run/munge/munged.pid [slurmctld]=/run/slurmctld.pid [slurmd]=/run/slurmd.pid)

say() { echo "slurm-local: $*" >&2; }

# running NAME: its pid file names a live process called NAME
running() {
  local pid
  pid=$(cat "${pidfile[$1]}" 2>/dev/null) || return 1
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ]
}

install_missing() {
  local missing=() p
  for p in munge slurmctld slurmd slurm-client; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  for _ in 1 2 3 4 5 6; do apt-get update -q >/dev/null 2>&1 && break; sleep 5; done
  apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

# Writes slurm.conf; returns 0 when it changed.
configure() {
  local mem new
  mem=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
  new=$(mktemp)
  cat >"$new" <<CONF
# tools/slurm-local.sh: one node, the controller on the same machine
ClusterName=local
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=300
MaxArraySize=100001
StateSaveLocation=$state/slurmctld
SlurmdSpoolDir=$state/slurmd
SlurmctldPidFile=${pidfile[slurmctld]}
SlurmdPidFile=${pidfile[slurmd]}
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  mkdir -p "$(dirname "$conf")"
  if cmp -s "$new" "$conf"; then rm -f "$new"; return 1; fi
  install -m 0644 "$new" "$conf"
  rm -f "$new"
  say "wrote $conf"
}

start_munge() {
  if [ ! -s /etc/munge/munge.key ]; then
    install -d -o munge -g munge -m 0700 /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  install -d -o munge -g munge -m 0755 /run/munge
  install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
  running munged && return 0
  say "starting munged"
  runuser -u munge -- /usr/sbin/munged
}

stop_daemon() {
  local pid
  running "$1" || { rm -f "${pidfile[$1]}"; return 0; }
  pid=$(cat "${pidfile[$1]}")
  say "stopping $1 (pid $pid)"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "${pidfile[$1]}"
}

wait_for_node() {
  local st=""
  for _ in $(seq "$wait_s"); do
    if scontrol ping >/dev/null 2>&1; then
      st=$(sinfo -h -n localhost -o %T 2>/dev/null | head -n 1)
      case "$st" in
        idle* | mixed* | allocated* | completing*) say "ready: node localhost is $st"; return 0 ;;
        drain* | down*) scontrol update NodeName=localhost State=RESUME >/dev/null 2>&1 || true ;;
      esac
    fi
    sleep 1
  done
  say "no ready node after ${wait_s}s (state: ${st:-unknown}); the logs' last lines:"
  tail -n 20 "$logs/slurmctld.log" "$logs/slurmd.log" >&2 || true
  return 1
}

start() {
  [ "$(id -u)" -eq 0 ] || { say "must run as root (it installs packages and starts daemons)"; exit 1; }
  install_missing
  local changed=0
  configure && changed=1
  start_munge
  if [ $changed -eq 1 ]; then stop_daemon slurmd; stop_daemon slurmctld; fi
  install -d -m 0755 "$state/slurmctld" "$state/slurmd" "$logs"
  running slurmctld || { say "starting slurmctld"; slurmctld; }
  running slurmd || { say "starting slurmd"; slurmd -N localhost; }
  wait_for_node
}

case "${1:-start}" in
  start) start ;;
  stop) stop_daemon slurmd; stop_daemon slurmctld; stop_daemon munged ;;
  status)
    for d in munged slurmctld slurmd; do
      if running "$d"; then echo "$d running (pid $(cat "${pidfile[$d]}"))"; else echo "$d stopped"; fi
    done
    sinfo 2>/dev/null || true ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
