#!/usr/bin/env bash
# Scale benchmark (issue #8): every algorithm of ours and SimGrid's default
# per family, 1 MiB, at p = 1024, 4096, 16384, in scale mode. One run per
# collective, algorithm and p, each killed (with its smpirun) after LIMIT
# seconds of wall time (recorded as over-time) or when the machine's
# MemAvailable falls below FLOOR_MIB (over-memory). Appends to results/scale/summary.csv:
#   collective,algorithm,p,status,time_us,correct,checked_ranks,wall_s,cpu_s,mem_mib,load1
# status: ok, wrong (correct = 0), over-time, over-memory, refused (collsim's
# work estimate is over --max-messages, exit 4: see *.log), failed (an error).
# wall_s depends on what else the machine runs (load1: its 1-minute load at
# the start); cpu_s is the simulation's own CPU time.
#
#   scripts/scale_bench.sh [--families "bcast reduce"] [--ps "1024 4096"] [--algos "binomial smpi:default"]
# Environment: COLLSIM (default build/cli/collsim), LIMIT (600 s), FLOOR_MIB (3072), OUT (results/scale).
set -u
collsim=${COLLSIM:-build/cli/collsim}
limit=${LIMIT:-600}
floor=${FLOOR_MIB:-3072}
out=${OUT:-results/scale}
families="bcast reduce allreduce reduce_scatter allgatherv scan exscan"
ps="1024 4096 16384"
algos=""
while [ $# -gt 0 ]; do
  case $1 in
    --families) families=$2; shift 2 ;;
    --ps) ps=$2; shift 2 ;;
    --algos) algos=$2; shift 2 ;;
    *) echo "scale_bench.sh: error: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x "$collsim" ] || { echo "scale_bench.sh: error: $collsim is not built" >&2; exit 2; }
mkdir -p "$out"
summary=$out/summary.csv
[ -s "$summary" ] || echo "collective,algorithm,p,status,time_us,correct,checked_ranks,wall_s,cpu_s,mem_mib,load1" > "$summary"

# shellcheck source=scripts/algorithm_names.sh
. "$(dirname "$0")/algorithm_names.sh"

# Our algorithms of family $1 (from `collsim algorithms`) and SimGrid's default.
algorithms_of() {
  algorithm_names "$collsim" "$1" ours
  echo smpi:default
}

mem_available_mib() { awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo; }

# Runs one case in its own process group; prints ok, refused, over-time or
# over-memory.
run_case() {
  local log=$1; shift
  setsid "$collsim" run --platform alphabeta "$@" > "$log.csv" 2> "$log" &
  local pid=$! start=$SECONDS
  while kill -0 "$pid" 2> /dev/null; do
    local over=""
    [ $((SECONDS - start)) -ge "$limit" ] && over=over-time
    [ "$(mem_available_mib)" -lt "$floor" ] && over=over-memory  # the machine's, which other jobs share
    if [ -n "$over" ]; then
      kill -KILL -- "-$pid" 2> /dev/null
      wait "$pid" 2> /dev/null
      echo "$over"
      return
    fi
    sleep 2
  done
  wait "$pid"
  if [ $? -eq 4 ]; then echo refused; else echo ok; fi
}

for c in $families; do
  known=$(algorithm_names "$collsim" "$c")
  for a in ${algos:-$(algorithms_of "$c")}; do
    printf '%s\n' "$known" | grep -qxF -- "$a" || continue
    for p in $ps; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      log=$out/$c-${a//:/_}-$p.log
      start=$SECONDS
      status=$(run_case "$log" --collective "$c" --algo "$a" --p "$p" --size 1MiB --scale on --format csv)
      row=$(tail -n +2 "$log.csv" 2> /dev/null | head -1)
      if [ "$status" = ok ] && [ -n "$row" ]; then
        # Harness columns: ...,time_us(6),...,correct(12),checked_ranks(13),wall_s,cpu_s,mem_mib
        IFS=, read -r _ _ _ _ _ time _ _ _ _ _ correct checked wall cpu mem <<< "$row"
        [ "$correct" = 1 ] || status=wrong
        echo "$c,$a,$p,$status,$time,$correct,$checked,$wall,$cpu,$mem,$load" >> "$summary"
      else
        [ "$status" = ok ] && status=failed
        echo "$c,$a,$p,$status,,,,$((SECONDS - start)),,,$load" >> "$summary"
      fi
      echo "$c $a p=$p: $status" >&2
    done
  done
done
