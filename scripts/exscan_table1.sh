#!/bin/sh
# The shape of seed 000's Table 1 in simulation: MPI_Exscan of 1, 10, 100,
# 1000 and 10000 MPI_LONGs with MPI_BXOR on the 36-node Omni-Path preset,
#   p = 36 x 1   one rank per node (--cores-per-node 1: the preset would
#                otherwise place ranks block-wise, 32 to a node)
#   p = 36 x 32  all 1152 cores, ranks block-wise (0..31 on node-0, ...)
# for 123-doubling, 1-doubling, two-op-doubling, two-tree and SimGrid's
# built-in (linear) MPI_Exscan; and the same p = 36 on the default `loggp`
# platform (one rank per node, per-message overheads o and g: issue 17).
# Writes results/exscan-table1/p36x1.csv, p36x32.csv, loggp36.csv and
# table.md.
#
# One timed call after one untimed warm-up call per case (collsim's
# default): the simulation is deterministic, and SimGrid's built-ins do
# one-time setup on their first call. p = 1152 with SimGrid's linear
# exscan (p^2/2 messages) is slow on a shared machine.
# Usage: scripts/exscan_table1.sh [BUILD_DIR]   (default: build)
set -eu
build=${1:-build}
out=results/exscan-table1
algos=123-doubling,1-doubling,two-op-doubling,two-tree,smpi:default
mkdir -p "$out"

run() {  # name, platform, extra options
  name=$1
  platform=$2
  shift 2
  "$build/cli/collsim" compare --collective exscan --platform "$platform" --op bxor \
    --sizes 8,80,800,8000,80000 --algos "$algos" --reps 1 --out "$out/$name" "$@" >/dev/null
  mv "$out/$name/results.csv" "$out/$name.csv"
  rm -r "${out:?}/$name"
}
run p36x1 omnipath36x32 --p 36 --cores-per-node 1
run p36x32 omnipath36x32 --p 1152
run loggp36 loggp --p 36

# One markdown table per configuration: longs down, algorithms across (µs).
{
  for name in p36x1 p36x32 loggp36; do
    printf '\n### %s (simulated µs, slowest rank)\n\n' "$name"
    awk -F, -v algos="$algos" '
      NR == 1 { next }
      { t[$4 / 8, $2] = $6; sizes[$4 / 8] = 1 }
      END {
        n = split(algos, a, ",")
        line = "| longs |"; rule = "|---:|"
        for (i = 1; i <= n; i++) { line = line " " a[i] " |"; rule = rule "---:|" }
        print line; print rule
        for (m = 1; m <= 10000; m *= 10) {
          line = "| " m " |"
          for (i = 1; i <= n; i++) line = line " " t[m, a[i]] " |"
          print line
        }
      }' "$out/$name.csv"
  done
} >"$out/table.md"
cat "$out/table.md"
