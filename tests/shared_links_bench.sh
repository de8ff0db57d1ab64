#!/usr/bin/env bash
# The shared-links evaluator (engine/shared_links.hpp) at scale, issue 33
# item 3 (not a test: run it by hand and read the table). Each O(log p)
# plan of ours at 1 MiB on P ranks as P/128 nodes of 128 cores (loggp with
# omnipath36x32's intra-node alpha and beta) on each topology given; one
# line each: wall and CPU seconds, peak RSS, exit status, the row.
#   tests/shared_links_bench.sh [COLLSIM] [P] [TOPOLOGY...]
#   e.g. tests/shared_links_bench.sh build/cli/collsim 16384 fat-tree:2 dragonfly
# CPU_LIMIT (seconds of CPU a case, default none) and WALL_LIMIT (seconds,
# default 3600) stop a case; --max-messages is raised so that none is
# refused by its estimate (engine/work_estimate.hpp).
set -uo pipefail
collsim=$(realpath "${1:-build/cli/collsim}")
p=${2:-16384}
shift $(($# < 2 ? $# : 2))
topologies=("$@")
[[ ${#topologies[@]} -eq 0 ]] && topologies=(fat-tree:2 dragonfly)
plans=("bcast binomial" "bcast circulant" "bcast two-tree" "allreduce recursive-doubling"
       "allreduce halving-doubling" "allreduce binary-blocks" "allreduce circulant"
       "allgatherv circulant" "reduce_scatter circulant" "exscan 123-doubling")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-30s %-11s %8s %8s %8s %8s %3s  %s\n' plan topology p wall_s cpu_s peak_mib rc row
for topology in "${topologies[@]}"; do
  for plan in "${plans[@]}"; do
    read -r collective algo <<<"$plan"
    (
      [[ -n ${CPU_LIMIT:-} ]] && ulimit -t "$CPU_LIMIT"
      /usr/bin/time -f '%e %U %S %M' -o "$work/time" timeout "${WALL_LIMIT:-3600}" "$collsim" run \
        --engine loggp --collective "$collective" --algo "$algo" --p "$p" --size 1MiB --platform loggp \
        --nodes $((p / 128)) --cores-per-node 128 --intra-alpha 0.3e-6 --intra-beta 0.1e-9 \
        --topology "$topology" --max-messages 1000000000000 >"$work/out" 2>"$work/err"
    )
    rc=$?
    read -r wall user sys rss < <(tail -1 "$work/time")
    row=$(grep -v '^#' "$work/out" | tail -1 | tr -s ' ')
    [[ -z $row ]] && row=$(grep -v '^engine:' "$work/err" | head -1 | cut -c1-100)
    printf '%-30s %-11s %8s %8s %8.2f %8d %3s  %s\n' "$plan" "$topology" "$p" "$wall" \
      "$(echo "$user + $sys" | bc)" $((rss / 1024)) "$rc" "$row"
  done
done
