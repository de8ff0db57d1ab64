#!/usr/bin/env bash
# The fixed matrix of simulated times that a refactoring must leave unchanged
# (issue 22): every algorithm of ours and SimGrid's default, per collective,
# at p = 7, 64, 200 and 1 KiB, 64 KiB, 1 MiB on the built-in alphabeta
# platform, one repetition (SMPI's times are deterministic).
#
#   scripts/fixed_matrix.sh run OUT.csv            simulate, write the matrix
#   scripts/fixed_matrix.sh check BEFORE.csv AFTER.csv
#                                                  exit 1 unless every case of
#                                                  BEFORE is in AFTER with the
#                                                  same time_us and correct = 1
# The committed baseline is results/fixed-matrix/before.csv (rewritten at
# a8c17ea + issue 31, 405 cases: the issue-22 baseline no longer held, as
# binary-blocks, the two-tree scans and the node-aware families changed on
# purpose since; rewritten again with issue 34's logp-tree rows, 423 cases:
# with logp-tree in the bcast batch, the 25 bcast cases of the algorithms
# after it in the list moved by 0.001 us, SimGrid's rounding at a later
# simulated clock, and without it in the batch they give the old times to
# the last digit; and again with logp-tree-pipeline, 432 cases: 8 bcast
# cases after it moved by 0.001 us, and without it in the batch p = 7
# gives the old times to the last digit); and the 9 reduce
# logp-tree-pipeline cases appended, 441 cases (the other 432 unchanged);
# rewritten again when the harness lined its ranks up (issue 33, item 2;
# sim/rank/start_instant.cpp): 203 of the 441 times lower by 0.001 us
# (one by 0.002), one higher by 0.001 us (circulant allgatherv, p = 200,
# 1 MiB), no other change. SMPI used to wake the ranks up to a nanosecond
# after the instant the times were measured from (the sleep was rounded
# up to whole nanoseconds); now every rank starts at one instant, the one
# measured from, in rank order.
set -euo pipefail
cd "$(dirname "$0")/.."
# COLLSIM (and COLLSIM_SMPI_LIB, which collsim reads) select another build,
# e.g. the one before a change.
collsim=${COLLSIM:-./build/cli/collsim}
# shellcheck source=scripts/algorithm_names.sh
. scripts/algorithm_names.sh
columns="collective,algorithm,p,bytes,blocks,time_us,model_us,correct"

work=""
trap '[[ -n "$work" ]] && rm -rf "$work"' EXIT

run() {
  local out=$1
  work=$(mktemp -d)
  echo "$columns" >"$out"
  for c in bcast reduce allreduce reduce_scatter allgatherv scan exscan; do
    # Our lock-step algorithms of c, as `collsim algorithms` lists them, and
    # smpi:default. The graph plans (issue 34's two-tree-overlap rows) stay
    # out, so that the batches, and SimGrid's rounding in them, are those of
    # the baseline.
    algos=$(algorithm_names "$collsim" "$c" lock-step | tr '\n' ,)smpi:default
    for p in 7 64 200; do
      # Cold calls: the matrix watches the code for change, and one call a
      # case halves its time; it compares nothing with anything.
      echo "fixed matrix: $c p=$p" >&2
      "$collsim" compare --platform alphabeta --collective "$c" --p "$p" --sizes 1KiB,64KiB,1MiB --algos "$algos" \
        --reps 1 --warmup 0 --out "$work/$c-$p" >/dev/null
      # Keep the columns that must not change, by name.
      awk -F, -v want="$columns" '
        NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) col[$i] = i; next }
        { line = ""; for (i = 1; i <= n; i++) line = line (i > 1 ? "," : "") $(col[w[i]]); print line }' \
        "$work/$c-$p/results.csv" >>"$out"
    done
  done
}

check() {
  local before=$1 after=$2
  # Key: collective,algorithm,p,bytes. Same blocks and time_us, correct.
  awk -F, '
    FNR == 1 { next }
    NR == FNR { seen[$1","$2","$3","$4] = $5","$6; cases++; next }
    { key = $1","$2","$3","$4
      if (!(key in seen)) next
      found++
      if (seen[key] != $5","$6 || $8 != 1) { printf "changed: %s before blocks,time_us %s, after %s (correct %s)\n", key, seen[key], $5","$6, $8; bad++ }
      delete seen[key] }
    END { for (k in seen) { printf "missing: %s\n", k; bad++ }
          printf "fixed matrix: %d cases compared, %d differ or are missing\n", found, bad
          exit bad > 0 }' "$before" "$after"
}

case "${1:-}" in
  run) (($# == 2)) || { echo "usage: $0 run OUT.csv" >&2; exit 2; }; run "$2" ;;
  check) (($# == 3)) || { echo "usage: $0 check BEFORE.csv AFTER.csv" >&2; exit 2; }; check "$2" "$3" ;;
  *) echo "usage: $0 run OUT.csv | check BEFORE.csv AFTER.csv" >&2; exit 2 ;;
esac
