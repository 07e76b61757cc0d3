#!/usr/bin/env bash
# A sharded run with GNU parallel gives the file one process writes.
#
# Usage: tests/cluster/parallel.sh [SIGNALBOX]    (SIGNALBOX: the binary to run, also taken from
#        the environment variable SIGNALBOX; default target/release/signalbox)
#
# Installs Debian's `parallel` with apt-get if it is missing (as root), then, in a fresh folder
# (SIGNALBOX_PARALLEL_DIR, default ${TMPDIR:-/tmp}/signalbox-parallel-test):
#   1. runs `coe batch --seeds 1..40 --max-turns 4 --threads 1 --out single.jsonl` as one process;
#   2. runs the same command with deploy/parallel/run as 4 shards over a hosts file of this machine
#      (`:`), two at a time, and checks that merged.jsonl is single.jsonl line by line apart from
#      each line's `seconds` (the solve time);
#   3. a failed shard: part 2 of a second run is a broken file, so the run fails and merges
#      nothing; with the file removed, the same command runs shard 2 alone and merges the same.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
signalbox=${1:-${SIGNALBOX:-$root/target/release/signalbox}}
dir=${SIGNALBOX_PARALLEL_DIR:-${TMPDIR:-/tmp}/signalbox-parallel-test}
started=$(date +%s)

say() { echo "[parallel test $(($(date +%s) - started)) s] $*"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

[ -x "$signalbox" ] || { echo "usage: $0 [SIGNALBOX]  (no executable at $signalbox; build with cargo build --release)" >&2; exit 2; }
signalbox=$(cd "$(dirname "$signalbox")" && pwd)/$(basename "$signalbox")
if ! command -v parallel >/dev/null || ! command -v python3 >/dev/null; then
  [ "$(id -u)" -eq 0 ] || { echo "$0: GNU parallel is missing; install Debian's parallel" >&2; exit 2; }
  say "installing parallel"
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends parallel python3
fi

rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
echo ":" >hosts.txt
command=("$signalbox" coe batch --seeds 1..40 --max-turns 4 --threads 1)
run() { bash "$root/deploy/parallel/run" --hosts hosts.txt --jobs 2 "$@"; }

# same_as_single FILE: FILE is single.jsonl line by line, each line's `seconds` left out.
same_as_single() {
  python3 "$root/tests/cluster/same_apart_from_seconds.py" single.jsonl "$1" || fail "$1 differs from single.jsonl"
}

# --- 1. one process -------------------------------------------------------------------------
"${command[@]}" --out single.jsonl >single.txt 2>&1 || { cat single.txt; fail "the single run failed"; }
say "single run: $(($(wc -l <single.jsonl) - 1)) seeds"

# --- 2. four shards -------------------------------------------------------------------------
run 4 merged.jsonl -- "${command[@]}" >run.txt 2>&1 || { cat run.txt; fail "deploy/parallel/run failed"; }
grep '^run: shard' run.txt
[ "$(grep -c '^run: shard [1-4]/4: exit 0' run.txt)" -eq 4 ] || fail "not 4 shards ran and exited 0"
same_as_single merged.jsonl
say "4 shards and the merge"

# --- 3. a failed shard, run again alone -------------------------------------------------------
mkdir -p again.jsonl.parts
echo "not a batch file" >again.jsonl.parts/part-2-of-4.jsonl
if run 4 again.jsonl -- "${command[@]}" >again1.txt 2>&1; then cat again1.txt; fail "a run with a broken part succeeded"; fi
grep '^run: shard' again1.txt
grep -q '^run: shard 2/4: exit 2' again1.txt || { cat again1.txt; fail "shard 2 did not fail on its broken file"; }
[ ! -e again.jsonl ] || fail "a failed run merged"
rm again.jsonl.parts/part-2-of-4.jsonl
run 4 again.jsonl -- "${command[@]}" >again2.txt 2>&1 || { cat again2.txt; fail "the rerun failed"; }
grep '^run: shard' again2.txt
if [ "$(grep -c '^run: shard' again2.txt)" -ne 1 ] || ! grep -q '^run: shard 2/4: exit 0' again2.txt; then
  cat again2.txt
  fail "the rerun did not run shard 2 alone"
fi
same_as_single again.jsonl
say "PASS"
