#!/usr/bin/env bash
# A sharded run under a real Slurm gives the file one process writes.
#
# Usage: tests/cluster/slurm.sh [SIGNALBOX]    (as root; SIGNALBOX: the binary to run, also taken
#        from the environment variable SIGNALBOX; default target/release/signalbox)
#
# Starts a one-node Slurm cluster on this machine: Debian's slurm-wlm and munge (installed with
# apt-get if missing), a munge key and socket of its own, slurmctld and slurmd started by this
# script, with every state, spool, pid and log file in one folder (SIGNALBOX_SLURM_DIR, default
# ${TMPDIR:-/tmp}/signalbox-slurm-test; ports SIGNALBOX_SLURM_PORT and the next, default 16817).
# No system service is used or changed. Then:
#   1. runs `coe batch --seeds 1..40 --max-turns 4 --threads 1 --out single.jsonl` as one process;
#   2. submits the same command with deploy/slurm/submit as a job array of 4 shards and the merge
#      job after it, waits for both (10 minutes at most), checks that the 4 array tasks ran under
#      Slurm and succeeded (the controller's job records, the job completion log and each task's
#      log), and that merged.jsonl is single.jsonl line by line apart from each line's `seconds`
#      (the solve time);
#   3. as after a lost node: cuts part 3 short in the middle of a line, resubmits task 3 alone
#      (`submit --tasks 3 --force`), and checks that it resumed and the new merge is the same.
# The daemons it started are stopped on exit; a second run starts from a clean folder (stopping a
# daemon an interrupted run left behind, found by its pid file there). The logs stay there.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
signalbox=${1:-${SIGNALBOX:-$root/target/release/signalbox}}
BASE=${SIGNALBOX_SLURM_DIR:-${TMPDIR:-/tmp}/signalbox-slurm-test}
ctld_port=${SIGNALBOX_SLURM_PORT:-16817}
slurmd_port=$((ctld_port + 1))
wait_limit=600
started=$(date +%s)

say() { echo "[slurm test $(($(date +%s) - started)) s] $*"; }
fail() {
  echo "FAIL: $*" >&2
  show_logs >&2
  exit 1
}
show_logs() {
  local f
  for f in "$BASE"/slurmctld.log "$BASE"/slurmd.log "$BASE"/munged.log "$BASE"/jobcomp.txt \
    "$BASE"/work/merged.jsonl.parts/*.log; do
    [ -f "$f" ] || continue
    echo "----- $f (last 40 lines)"
    tail -n 40 "$f"
  done
}

[ -x "$signalbox" ] || { echo "usage: $0 [SIGNALBOX]  (no executable at $signalbox; build with cargo build --release)" >&2; exit 2; }
signalbox=$(cd "$(dirname "$signalbox")" && pwd)/$(basename "$signalbox")
if [ "$(id -u)" -ne 0 ]; then
  echo "$0: needs root (it starts slurmd, which runs jobs, and may apt-get install slurm-wlm and munge)" >&2
  exit 2
fi

# --- Slurm and munge ------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
  || ! command -v munged >/dev/null || ! command -v python3 >/dev/null; then
  say "installing slurm-wlm and munge"
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends slurm-wlm munge python3
fi

# --- a clean folder; a daemon an interrupted run left behind is stopped by its pid file ---------
stop_pid() { # PIDFILE: stops the process if it is alive and one of ours (its command names $BASE)
  local pid
  [ -f "$1" ] || return 0
  pid=$(cat "$1")
  case "$pid" in '' | *[!0-9]*) return 0 ;; esac
  if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$BASE"; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
    if [ -d "/proc/$pid" ]; then kill -9 "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$1"
}
stop_daemons() {
  stop_pid "$BASE/slurmd.pid"
  stop_pid "$BASE/slurmctld.pid"
  stop_pid "$BASE/munged.pid"
}
stop_daemons
rm -rf "$BASE"
mkdir -p "$BASE/state" "$BASE/spool" "$BASE/munge" "$BASE/work"
chmod 700 "$BASE" "$BASE/munge"

cleanup() {
  local status=$?
  if [ -f "$BASE/slurmctld.pid" ] && [ -f "$BASE/slurm.conf" ]; then
    SLURM_CONF="$BASE/slurm.conf" scancel --quiet --user=root 2>/dev/null || true
  fi
  stop_daemons
  say "daemons stopped; logs in $BASE"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- munge: a key and a socket of our own ---------------------------------------------------
dd if=/dev/urandom of="$BASE/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$BASE/munge/munge.key"
socket="$BASE/munge/munge.socket.2"
# The daemons get their pid files written by this script: they run in the foreground (-F, -D),
# in the background of this shell, their output in $BASE.
munged -F --force --socket="$socket" --key-file="$BASE/munge/munge.key" --log-file="$BASE/munged.log" \
  --pid-file="$BASE/munge/munged.pidfile" --seed-file="$BASE/munge/munged.seed" \
  </dev/null >"$BASE/munged.out" 2>&1 &
echo $! >"$BASE/munged.pid"
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || fail "munged did not start"
munge -S "$socket" -n | unmunge -S "$socket" >/dev/null || fail "munge does not round-trip a credential"

# --- slurm.conf: this machine as the one node, its CPUs and memory as slurmd -C reports them ---
node_line=$(slurmd -C | head -n 1)
node=$(echo "$node_line" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
[ -n "$node" ] || fail "slurmd -C printed no node: $node_line"
cat >"$BASE/slurm.conf" <<EOF
ClusterName=signalboxtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$BASE/state
SlurmdSpoolDir=$BASE/spool
SlurmctldPidFile=$BASE/slurmctld.pidfile
SlurmdPidFile=$BASE/slurmd.pidfile
SlurmctldLogFile=$BASE/slurmctld.log
SlurmdLogFile=$BASE/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No systemd and no cgroups here: processes are tracked through /proc.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$BASE/jobcomp.txt
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MinJobAge=3600
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$BASE/slurm.conf"

say "starting slurmctld and slurmd (node $node)"
slurmctld -D -c -f "$SLURM_CONF" </dev/null >"$BASE/slurmctld.out" 2>&1 &
echo $! >"$BASE/slurmctld.pid"
slurmd -D -f "$SLURM_CONF" </dev/null >"$BASE/slurmd.out" 2>&1 &
echo $! >"$BASE/slurmd.pid"
state=""
for _ in $(seq 120); do
  state=$(sinfo -h -N -n "$node" -o '%T' 2>/dev/null || true)
  [ "$state" = "idle" ] && break
  for d in slurmctld slurmd munged; do
    [ -d "/proc/$(cat "$BASE/$d.pid")" ] || fail "$d exited"
  done
  sleep 0.5
done
[ "$state" = "idle" ] || fail "the node is '$state', not idle, after 60 s"
say "node $node idle"

# --- 1. one process -------------------------------------------------------------------------
cd "$BASE/work"
command=("$signalbox" coe batch --seeds 1..40 --max-turns 4 --threads 1)
parts=merged.jsonl.parts

# submit ARGS...: deploy/slurm/submit, its job ids in $shard_job and $merge_job, waited for.
submit() {
  local t0 waited=0
  t0=$(date +%s)
  bash "$root/deploy/slurm/submit" "$@" | tee submit.txt
  shard_job=$(sed -n 's/^shard job: \([0-9]*\).*/\1/p' submit.txt)
  merge_job=$(sed -n 's/^merge job: \([0-9]*\).*/\1/p' submit.txt)
  if [ -z "$shard_job" ] || [ -z "$merge_job" ]; then fail "submit printed no job ids"; fi
  while [ -n "$(squeue -h -j "$shard_job,$merge_job" -o '%i' 2>/dev/null)" ]; do
    [ "$waited" -lt "$wait_limit" ] || { squeue; fail "the jobs were still queued after $wait_limit s"; }
    sleep 1
    waited=$((waited + 1))
  done
  say "shard job $shard_job and merge job $merge_job done: $(($(date +%s) - t0)) s"
}

# ran TASK...: each array task of $shard_job completed under Slurm with exit 0 and wrote its
# part, and the merge job $merge_job completed.
ran() {
  local records k log
  # The controller's record: one line per array task.
  records=$(scontrol -o show job "$shard_job")
  echo "$records" | tr ' ' '\n' | grep -E '^(JobId|ArrayTaskId|JobState|ExitCode|NodeList)=' | paste - - - - -
  [ "$(echo "$records" | wc -l)" -eq "$#" ] || fail "job $shard_job has $(echo "$records" | wc -l) array tasks, not $#"
  for k in "$@"; do
    echo "$records" | grep -qE "ArrayJobId=$shard_job ArrayTaskId=$k .*JobState=COMPLETED .*ExitCode=0:0" \
      || fail "array task $k of job $shard_job did not complete with exit 0"
    # The job completion log, written by slurmctld as each job ends.
    grep -qE "JobState=COMPLETED .*ArrayJobId=$shard_job ArrayTaskId=$k .*ExitCode=0:0" "$BASE/jobcomp.txt" \
      || fail "the job completion log has no completed array task $k of job $shard_job"
    # The task's own log, written by deploy/slurm/shard.sbatch.
    log="$parts/part-$k-of-4.log"
    grep -q "^shard $k/4: array job $shard_job task $k" "$log" || fail "$log: not written by array task $k of job $shard_job"
    tail -n 1 "$log" | grep -q "^shard $k/4: exit 0" || fail "$log: the shard did not exit 0"
    head -n 1 "$parts/part-$k-of-4.jsonl" | grep -q "\"part\":\"$k/4\"" || fail "part-$k-of-4.jsonl is not tagged part $k/4"
  done
  scontrol -o show job "$merge_job" | grep -q 'JobState=COMPLETED .*ExitCode=0:0' \
    || fail "the merge job $merge_job did not complete with exit 0"
  say "array tasks $* of job $shard_job and merge job $merge_job completed under Slurm"
}

# same_as_single: merged.jsonl is single.jsonl line by line, each line's `seconds` left out.
same_as_single() {
  [ -f merged.jsonl ] || fail "no merged.jsonl"
  python3 "$root/tests/cluster/same_apart_from_seconds.py" single.jsonl merged.jsonl || fail "merged.jsonl differs from single.jsonl"
}

# --- 1. one process -------------------------------------------------------------------------
t0=$(date +%s)
"${command[@]}" --out single.jsonl >single.txt 2>&1 || { cat single.txt; fail "the single run failed"; }
say "single run: $(($(date +%s) - t0)) s, $(($(wc -l <single.jsonl) - 1)) seeds"

# --- 2. four shards as a job array, then the merge job --------------------------------------
submit 4 merged.jsonl -- "${command[@]}"
ran 1 2 3 4
same_as_single

# --- 3. a lost node: part 3 cut short mid-line, resubmitted alone with --tasks 3 ---------------
head -c "$(($(head -n 3 "$parts/part-3-of-4.jsonl" | wc -c) + 40))" "$parts/part-3-of-4.jsonl" >cut.jsonl
mv cut.jsonl "$parts/part-3-of-4.jsonl"
say "part 3 cut to $(($(wc -l <"$parts/part-3-of-4.jsonl") - 1)) whole seed lines and a torn one; resubmitting task 3"
submit --tasks 3 --force 4 merged.jsonl -- "${command[@]}"
ran 3
grep -q "seeds already in the output file" "$parts/part-3-of-4.log" || fail "task 3 did not resume from its file"
same_as_single
say "PASS"
