#!/usr/bin/env bash
# A Slurm cluster of one host for the scale-out tests (tests/python/test_slurm.py): munged,
# slurmctld and two slurmd "nodes" of 2 CPUs each, every file of theirs (key, configuration,
# sockets, state, logs) under one directory, on ports of their own; nothing of the system's
# /etc/slurm, /etc/munge or /run is used. Needs root (slurmd starts the tasks) and Debian's
# slurmctld, slurmd, slurm-client and munge (scripts/lib/install_deps.sh test installs them as root).
#
#   tests/scale_out/slurm_cluster.sh start DIR   # prints the SLURM_CONF to use once both nodes are idle
#   tests/scale_out/slurm_cluster.sh stop DIR    # stops the daemons and removes DIR
set -euo pipefail

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local dir=$1 host ctld_port
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  chmod 0700 "$dir"
  host=$(hostname -s)
  # munged refuses a key or socket directory that others may write; --force accepts root's
  # temporary directory.
  dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$dir/munge.key"
  munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed"
  ctld_port=$(free_port)
  mkdir -p "$dir/state"
  cat >"$dir/slurm.conf" <<EOF
ClusterName=kscope-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
KillWait=2
InactiveLimit=0
NodeName=kscope1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$(free_port) CPUs=2 State=UNKNOWN
NodeName=kscope2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$(free_port) CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=10 State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF" -N kscope1
  slurmd -f "$SLURM_CONF" -N kscope2
  local i
  for i in $(seq 1 100); do
    # Both nodes idle, and every daemon's pid file written (a slurmd may write it after its node
    # shows idle, and stop() finds the daemons by these files).
    if [ "$(sinfo -h -N -o '%T' 2>/dev/null | grep -c '^idle$')" = 2 ] &&
       [ "$(find "$dir" -maxdepth 1 -name '*.pid' | wc -l)" = 4 ]; then
      echo "$SLURM_CONF"
      return 0
    fi
    sleep 0.2
  done
  echo "slurm_cluster.sh: the two nodes were not idle, or a daemon's pid file was missing, after 20 s; sinfo says:" >&2
  ls "$dir"/*.pid >&2 || true
  sinfo -N >&2 || true
  tail -n 20 "$dir"/*.log >&2 || true
  return 1
}

stop() {
  local dir=$1 pidfile pid pids=()
  [ -d "$dir" ] || return 0
  # The Slurm daemons together (each takes 1-2 s after a job), then munged, which they use.
  for pidfile in "$dir"/slurmd-*.pid "$dir/slurmctld.pid" - "$dir/munged.pid" -; do
    if [ "$pidfile" = - ]; then
      wait_for_exit "${pids[@]}"
      pids=()
    elif [ -f "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null && pids+=("$pid")
    fi
  done
  rm -rf "$dir"
}

# Whether process `pid` still runs: a daemon that ended is a zombie until the host's init, its
# parent, reaps it (a container's first process may never do so).
running() {
  local state
  state=$(sed -n 's/^[0-9]* (.*) \([A-Za-z]\) .*/\1/p' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# Waits up to 10 s for the processes to end, then kills those left.
wait_for_exit() {
  local pid
  for _ in $(seq 1 100); do
    local alive=0
    for pid in "$@"; do running "$pid" && alive=1; done
    [ "$alive" = 1 ] || return 0
    sleep 0.1
  done
  for pid in "$@"; do kill -9 "$pid" 2>/dev/null || true; done
}

case "${1:-}" in
  start) start "$2" ;;
  stop) stop "$2" ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
