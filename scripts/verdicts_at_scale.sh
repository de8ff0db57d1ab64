#!/usr/bin/env bash
# Which algorithm wins at scale, with and without shared links (issue 33,
# item 6): `collsim run --engine loggp` of every algorithm of ours with a
# plan, for each collective, topology and p, once with the links shared as
# SimGrid shares them (--contention on) and once with every message alone
# (--contention off, what the engine said before issue 33), then the cells
# where the verdict flips.
#
#   scripts/verdicts_at_scale.sh [--out DIR] [--p LIST] [--sizes A:B]
#                                [--collectives A,B] [--topologies A,B]
#                                [--algos A,B] [--timeout S] [--summarize]
#
# Machine: the default loggp platform's L, o, g, G between nodes, 128-core
# nodes with rome200x128's intra-node alpha and beta (0.4 us, 0.15 ns/B;
# loggp has none), wired as each topology (fat-tree:2, a 2:1 taper above
# leaves of 32 nodes; dragonfly, the default shape for the nodes). Our
# algorithms with a plan compete (the classic ones, binomial, recursive
# doubling, ring, ..., are among them); one the engine refuses (too much
# work, no plan, or a run past --timeout S seconds, default 300) is left
# out of that cell and named in DIR/skipped.txt.
# Defaults: p = 16384,131072,1048576; sizes 8:64MiB; bcast, allreduce,
# allgatherv; fat-tree:2,dragonfly; DIR = results/verdicts-at-scale.
# --algos A,B runs only those of the collectives' algorithms (to fill the
# cells of runs that an earlier pass skipped: append its rows to that
# pass's rows.csv and --summarize there).
#
# --summarize runs nothing: verdicts.csv and summary.md from DIR/rows.csv
# as it stands (of a run that was stopped, say).
#
# Writes DIR/rows.csv (every run's rows: run's CSV columns and contention),
# DIR/verdicts.csv (collective,topology,p,bytes,winner_shared,
# time_shared_us,winner_alone,time_alone_us,alone_winner_shared_us,flips)
# and DIR/summary.md (the flips, per collective, topology and p).
set -euo pipefail
usage="usage: $0 [--out DIR] [--p LIST] [--sizes A:B] [--collectives A,B] [--topologies A,B] [--algos A,B] [--timeout S] [--summarize]"
cd "$(dirname "$0")/.."
collsim=${COLLSIM:-./build/cli/collsim}

out=results/verdicts-at-scale ps=16384,131072,1048576 sizes=8:64MiB
collectives=bcast,allreduce,allgatherv topologies=fat-tree:2,dragonfly limit=300 summarize=0 only=
while (($#)); do
  case "$1" in
    --out | --p | --sizes | --collectives | --topologies | --algos | --timeout)
      (($# >= 2)) || { echo "$1 needs a value; $usage" >&2; exit 2; }
      case "$1" in
        --out) out=$2 ;;
        --p) ps=$2 ;;
        --sizes) sizes=$2 ;;
        --collectives) collectives=$2 ;;
        --topologies) topologies=$2 ;;
        --algos) only=$2 ;;
        --timeout) limit=$2 ;;
      esac
      shift 2 ;;
    --summarize) summarize=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument '$1'; $usage" >&2; exit 2 ;;
  esac
done
[[ "$limit" =~ ^[1-9][0-9]*$ ]] || { echo "--timeout wants whole seconds > 0, not '$limit'" >&2; exit 2; }
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
# The runs left out so far (none where skipped.txt was taken away when
# its runs were filled by hand).
skipped_count() { if [[ -e "$skipped" ]]; then wc -l <"$skipped"; else echo 0; fi; }
[[ $summarize == 0 ]] || [[ -s "$rows" ]] || { echo "--summarize: no $rows to read" >&2; exit 2; }
[[ $summarize == 1 ]] || : >"$skipped"
header=""
IFS=, read -r -a collective_list <<<"$collectives"
[[ $summarize == 1 ]] && collective_list=()
IFS=, read -r -a topology_list <<<"$topologies"
IFS=, read -r -a p_list <<<"$ps"
for c in "${collective_list[@]}"; do
  mapfile -t algos < <(algorithm_names "$collsim" "$c" ours)
  if [[ -n "$only" ]]; then
    mapfile -t algos < <(printf '%s\n' "${algos[@]}" | grep -Fx -f <(tr , '\n' <<<"$only") || true)
    ((${#algos[@]})) || { echo "--algos $only: none of them is an algorithm of $c with a plan" >&2; exit 2; }
  fi
  for t in "${topology_list[@]}"; do
    for p in "${p_list[@]}"; do
      for contention in on off; do
        echo "verdicts at scale: $c $t p=$p contention $contention" >&2
        start=$SECONDS
        for a in "${algos[@]}"; do
          run_rows "$c $t p=$p $a contention $contention" "$limit" topology,contention "$t,$contention" \
            --engine loggp --contention "$contention" --collective "$c" --algo "$a" --p "$p" --size "$sizes" \
            --topology "$t" "${study_machine[@]}" || continue
        done
        echo "  $((SECONDS - start)) s" >&2
      done
    done
  done
done
rm -f "$out/stderr.txt"
[[ -s "$rows" ]] || { echo "verdicts_at_scale.sh: no run finished; $skipped says why" >&2; exit 1; }

# Per (collective, topology, p, bytes): the fastest with and without
# sharing, and what the latter's algorithm takes with sharing.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  { key = $col["collective"] "," $col["topology"] "," $col["p"] "," $col["bytes"]; t = $col["time_us"] + 0
    side = $col["contention"]; time[key "," side "," $col["algorithm"]] = t; keys[key] = 1
    if (!((key "," side) in best) || t < best[key "," side]) { best[key "," side] = t; who[key "," side] = $col["algorithm"] } }
  END { for (k in keys) { on = who[k ",on"]; off = who[k ",off"]
      printf "%s,%s,%.3f,%s,%.3f,%.3f,%d\n", k, on, best[k ",on"], off, best[k ",off"], time[k ",on," off], on != off } }' \
  "$rows" | sort -t, -k1,1 -k2,2 -k3,3n -k4,4n >"$out/verdicts.body"
{
  echo "collective,topology,p,bytes,winner_shared,time_shared_us,winner_alone,time_alone_us,alone_winner_shared_us,flips"
  cat "$out/verdicts.body"
} >"$out/verdicts.csv"
rm -f "$out/verdicts.body"

{
  echo "# Verdicts at scale, with and without shared links"
  echo
  echo "\`scripts/verdicts_at_scale.sh\`: \`collsim run --engine loggp\`, loggp's L, o, g, G between nodes,"
  echo "128-core nodes (intra alpha 0.4 us, beta 0.15 ns/B), sizes (bytes) $(awk -F, 'NR > 1 { print $4 }' \
    "$out/verdicts.csv" | sort -n -u | paste -sd,); winner with the links shared"
  echo "(\`--contention on\`) against every message alone (\`--contention off\`). A flip: the two verdicts differ;"
  echo "the last column is what the alone verdict's algorithm really takes. Winners are among the runs that"
  echo "finished: $(skipped_count) runs were skipped (skipped.txt: past --timeout, or refused by the"
  echo "work estimate), so a slow algorithm that might have won a large size is not in its cell."
  echo
  echo "| collective | topology | p | cells | flips | example flip (bytes: shared winner us vs alone winner us with sharing) |"
  echo "|---|---|---|---|---|---|"
  awk -F, 'NR > 1 { key = $1 " | " $2 " | " $3; cells[key]++; if ($10 == 1) { flips[key]++;
      if (!(key in ex)) ex[key] = $4 " B: " $5 " " $6 " vs " $7 " " $9 } order[key] = NR }
    END { for (k in cells) printf "| %s | %d | %d | %s |\n", k, cells[k], flips[k] + 0, (k in ex) ? ex[k] : "-" }' \
    "$out/verdicts.csv" | sort
} >"$out/summary.md"
echo "wrote $out/rows.csv, $out/verdicts.csv and $out/summary.md ($(skipped_count) runs skipped: $skipped)" >&2
