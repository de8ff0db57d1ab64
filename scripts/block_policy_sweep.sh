#!/usr/bin/env bash
# How far the closed-form block policy's n is from the best n under shared
# links, and where collsim's own choice lands (issue 33, item 5). The
# policy (sim/catalog/block_policy.hpp) minimises each pipelined
# algorithm's closed-form model on the platform's alpha and beta, which
# knows nothing of nodes sharing a NIC or of a topology's links; on such
# machines collsim searches n on the engine instead (engine_run.hpp,
# contention_blocks). This script times each pipelined algorithm of ours
# (restriction `blocks`) with the contention-aware engine (`collsim run
# --engine loggp`, links shared as SimGrid shares them) at the model's n
# (`--blocks model`), at collsim's own choice (no --blocks) and at
# n = 1, 2, 4, .., 1024, and reports the best n found beside the others.
#
#   scripts/block_policy_sweep.sh [--out DIR] [--p P] [--sizes A,B]
#                                 [--collectives A,B] [--topologies A,B]
#                                 [--runs A,B] [--timeout S] [--summarize]
#
# Machine: as scripts/verdicts_at_scale.sh (the default loggp platform
# between nodes, 128-core nodes with rome200x128's intra-node alpha and
# beta), wired as each topology (flat: a crossbar of nodes, no shared link
# but each node's NIC). Defaults: p = 8192 (64 nodes), sizes
# 64KiB,1MiB,16MiB, bcast, topologies flat,fat-tree:2,dragonfly, DIR =
# results/block-policy-sweep, --timeout 120 s a run (one run carries every
# size). A run that fails or passes the limit (an n larger than the
# elements, a plan past the work limits) is left out and named in
# DIR/skipped.txt; where the run at the model's n fails, the algorithm is
# not tried further on that topology.
#
# --runs: which of model, chosen and grid to run (default all three).
# The rows made replace DIR/rows.csv's rows of the same p, collective,
# topology and run (and skipped.txt's lines likewise); the others stay:
# `--runs chosen` times collsim's choice again after a change to its
# search.
#
# --summarize runs nothing: summary.csv from DIR/rows.csv as it stands.
#
# Writes DIR/rows.csv (every run's CSV rows, with topology and `run`:
# model, chosen or grid) and DIR/summary.csv (collective,algorithm,
# topology,p,bytes,model_blocks,model_time_us,chosen_blocks,chosen_time_us,
# best_blocks,best_time_us,model_over_best,chosen_over_best), the best over
# every run of the case.
set -euo pipefail
usage="usage: $0 [--out DIR] [--p P] [--sizes A,B] [--collectives A,B] [--topologies A,B] [--runs A,B] [--timeout S] [--summarize]"
cd "$(dirname "$0")/.."
collsim=${COLLSIM:-./build/cli/collsim}

out=results/block-policy-sweep p=8192 sizes=64KiB,1MiB,16MiB collectives=bcast
topologies=flat,fat-tree:2,dragonfly runs=model,chosen,grid limit=120 summarize=0
while (($#)); do
  case "$1" in
    --out | --p | --sizes | --collectives | --topologies | --runs | --timeout)
      (($# >= 2)) || { echo "$1 needs a value; $usage" >&2; exit 2; }
      case "$1" in
        --out) out=$2 ;;
        --p) p=$2 ;;
        --sizes) sizes=$2 ;;
        --collectives) collectives=$2 ;;
        --topologies) topologies=$2 ;;
        --runs) runs=$2 ;;
        --timeout) limit=$2 ;;
      esac
      shift 2 ;;
    --summarize) summarize=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument '$1'; $usage" >&2; exit 2 ;;
  esac
done
[[ "$runs" =~ ^(model|chosen|grid)(,(model|chosen|grid))*$ ]] ||
  { echo "--runs wants a list of model, chosen and grid, not '$runs'" >&2; exit 2; }
[[ "$limit" =~ ^[1-9][0-9]*$ ]] || { echo "--timeout wants whole seconds > 0, not '$limit'" >&2; exit 2; }
[[ "$p" =~ ^[1-9][0-9]*$ ]] && ((p % 128 == 0)) || { echo "--p wants a multiple of 128 (the node size), not '$p'" >&2; exit 2; }
[[ -x "$collsim" ]] || { echo "no collsim at $collsim: build it first (cmake --build build --target collsim)" >&2; exit 2; }
# A path, never an option: DIR reaches head, tail and awk as a file
# argument (a leading '-' would be read as an option there).
[[ $out == /* ]] || out=./$out
mkdir -p -- "$out"

# shellcheck source=scripts/algorithm_names.sh
. scripts/algorithm_names.sh
# shellcheck source=scripts/engine_rows.sh
. scripts/engine_rows.sh
rows="$out/rows.csv" skipped="$out/skipped.txt"
[[ $summarize == 0 ]] || [[ -s "$rows" ]] || { echo "--summarize: no $rows to read" >&2; exit 2; }
header=""
collective_list=()
# Drops from DIR/rows.csv and DIR/skipped.txt what this invocation runs
# again (its p, collectives, topologies and runs), keeping the rest. The
# lists reach awk through the environment, as data.
drop_reruns() {
  local kept="$out/kept.tmp"
  [[ -e "$rows" ]] || : >"$rows"
  [[ -e "$skipped" ]] || : >"$skipped"
  P=$p C=$collectives T=$topologies R=$runs awk -F, '
    function listed(list, x,   i, n, a) { n = split(list, a, ","); for (i = 1; i <= n; ++i) if (a[i] == x) return 1; return 0 }
    function rerun(c, t, pp, run) { return pp == ENVIRON["P"] && listed(ENVIRON["C"], c) && listed(ENVIRON["T"], t) && listed(ENVIRON["R"], run) }
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; print; next }
    !rerun($col["collective"], $col["topology"], $col["p"], $col["run"])' "$rows" >"$kept"
  mv -- "$kept" "$rows"
  P=$p C=$collectives T=$topologies R=$runs awk -F' ' '
    function listed(list, x,   i, n, a) { n = split(list, a, ","); for (i = 1; i <= n; ++i) if (a[i] == x) return 1; return 0 }
    { n = $5; sub(/^n=/, "", n); sub(/:$/, "", n); run = (n == "model" || n == "chosen") ? n : "grid"
      pp = $4; sub(/^p=/, "", pp) }
    !(pp == ENVIRON["P"] && listed(ENVIRON["C"], $1) && listed(ENVIRON["T"], $3) && listed(ENVIRON["R"], run))' \
    "$skipped" >"$kept"
  mv -- "$kept" "$skipped"
  header=$(head -1 "$rows")
}
[[ $summarize == 1 ]] || { drop_reruns; IFS=, read -r -a collective_list <<<"$collectives"; }
IFS=, read -r -a topology_list <<<"$topologies"
for c in "${collective_list[@]}"; do
  mapfile -t algos < <(algorithm_names "$collsim" "$c" blocks)
  for t in "${topology_list[@]}"; do
    for a in "${algos[@]}"; do
      echo "block policy sweep: $c $a $t p=$p" >&2
      for n in model chosen 1 2 4 8 16 32 64 128 256 512 1024; do
        blocks=(--blocks "$n") run=grid
        [[ $n == model ]] && run=model
        [[ $n == chosen ]] && blocks=() run=chosen
        [[ ",$runs," == *",$run,"* ]] || continue
        run_rows "$c $a $t p=$p n=$n" "$limit" topology,run "$t,$run" --engine loggp --collective "$c" --algo "$a" \
          --p "$p" --size "$sizes" --topology "$t" "${study_machine[@]}" "${blocks[@]}" || {
          [[ $n == model ]] && break
          continue
        }
      done
    done
  done
done
rm -f "$out/stderr.txt"
[[ -s "$rows" ]] || { echo "block_policy_sweep.sh: no run finished; $skipped says why" >&2; exit 1; }

awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  { key = $col["collective"] "," $col["algorithm"] "," $col["topology"] "," $col["p"] "," $col["bytes"]
    t = $col["time_us"] + 0; n = $col["blocks"]; run = $col["run"]; keys[key] = 1
    if (run != "grid") { blocks[key, run] = n; time[key, run] = t }
    if (!(key in best_t) || t < best_t[key]) { best_t[key] = t; best_n[key] = n } }
  END { for (k in keys) if ((k, "model") in time && (k, "chosen") in time)
      printf "%s,%s,%.3f,%s,%.3f,%s,%.3f,%.4f,%.4f\n", k, blocks[k, "model"], time[k, "model"], blocks[k, "chosen"],
        time[k, "chosen"], best_n[k], best_t[k], time[k, "model"] / best_t[k], time[k, "chosen"] / best_t[k] }' \
  "$rows" | sort -t, -k1,1 -k2,2 -k3,3 -k5,5n >"$out/summary.body"
{
  echo "collective,algorithm,topology,p,bytes,model_blocks,model_time_us,chosen_blocks,chosen_time_us,best_blocks,best_time_us,model_over_best,chosen_over_best"
  cat "$out/summary.body"
} >"$out/summary.csv"
rm -f "$out/summary.body"
echo "block policy sweep: $(($(wc -l <"$out/summary.csv") - 1)) cases in $out/summary.csv; $(wc -l <"$skipped") runs skipped" >&2
