#!/usr/bin/env bash
# The plan engine against SMPI on the machine shapes of issue 33 (item 2,
# "cross-validated"): for every algorithm of ours with a plan (as `collsim
# algorithms` lists them, kept where `collsim verify plan --algo` knows a
# plan), at 4 KiB, 64 KiB and 1 MiB, `collsim run --engine smpi` and `collsim
# run --engine loggp` on the same platform, joined cell by cell.
#
#   scripts/engine_vs_smpi.sh [--quick] [--out DIR] [--join DIR,DIR] [--engine-only] [--shapes A,B]
#                             [--sizes LIST] [--collectives A,B] [--algos A,B] [--timeout S]
#
# --quick      small p (16 ranks, 4 x 4 nodes; 64 on the fat tree so that it
#              has two leaves): what CI can afford, a few minutes
# --out DIR    where the table goes (default: results/engine-vs-smpi in full
#              mode, build/engine-vs-smpi-quick with --quick)
# --join DIRS  run nothing: join the tables that runs with --out DIR left in
#              these directories (one shape each, say, run side by side) into
#              one table and summary in --out
# --shapes     only these shapes (names as in the table below; the 512-rank
#              variants of the 1,024-rank shapes run only when named here)
# --sizes      instead of 4KiB,64KiB,1MiB (collsim's --size list syntax)
# --collectives  only these collectives
# --algos      only these algorithms (registry names; in every collective
#              that has them), e.g. the rows added since the table was made
# --timeout S  wall-clock limit of one `collsim run` (default 3600); a run
#              past it is a `smpi-timeout` cell, not the end of the table
# --engine-only  rerun the engine alone on every cell of the table already
#              in --out (its shapes, algorithms and sizes; --shapes,
#              --collectives and --algos narrow it, the other cells are kept
#              as they are) and keep its SMPI columns: what SMPI says does
#              not change when the engine does. Minutes instead of hours.
#
# Writes DIR/engine_vs_smpi.csv (one row per cell: shape, collective,
# algorithm, p, bytes, blocks, both times, ratio = engine / SMPI, SMPI's
# wall seconds, status) and DIR/summary.md (per shape: ratio range, median,
# worst cell, cells within 2 % and 5 %), and DIR/errors.txt (the stderr of
# every run that failed). Exit 0 when the table is written, whatever the
# ratios say: the table is the instrument, tests/test_engine_vs_smpi.cpp the
# check. Needs a built collsim (build/cli/collsim, or $COLLSIM).
set -euo pipefail
usage="usage: $0 [--quick] [--out DIR] [--join DIR,DIR] [--engine-only] [--shapes A,B] [--sizes LIST] [--collectives A,B] [--algos A,B] [--timeout S]"
cd "$(dirname "$0")/.."
collsim=${COLLSIM:-./build/cli/collsim}
# shellcheck source=scripts/algorithm_names.sh
. scripts/algorithm_names.sh

quick=0 out="" join="" only_shapes="" sizes="4KiB,64KiB,1MiB" only_collectives="" only_algos="" limit=3600
engine_only=0
while (($#)); do
  case "$1" in
    --quick) quick=1; shift ;;
    --engine-only) engine_only=1; shift ;;
    --out | --join | --shapes | --sizes | --collectives | --algos | --timeout)
      (($# >= 2)) || { echo "$1 needs a value; $usage" >&2; exit 2; }
      case "$1" in
        --out) out=$2 ;;
        --join) join=$2 ;;
        --shapes) only_shapes=$2 ;;
        --sizes) sizes=$2 ;;
        --collectives) only_collectives=$2 ;;
        --algos) only_algos=$2 ;;
        --timeout) limit=$2 ;;
      esac
      shift 2 ;;
    -h | --help) echo "$usage"; exit 0 ;;
    *) echo "unknown argument '$1'; $usage" >&2; exit 2 ;;
  esac
done
[[ "$limit" =~ ^[1-9][0-9]*$ ]] || { echo "--timeout wants whole seconds > 0, not '$limit'" >&2; exit 2; }
[[ -x "$collsim" ]] || { echo "no collsim at $collsim: build it first (cmake --build build --target collsim)" >&2; exit 2; }
# A bad --sizes fails here, once, not in every cell: the engine takes a case in no time.
"$collsim" run --engine loggp --collective bcast --algo binomial --p 2 --size "$sizes" >/dev/null </dev/null ||
  { echo "--sizes '$sizes' is not a size list collsim takes (above)" >&2; exit 2; }
[[ -n "$out" ]] || out=$([[ $quick == 1 ]] && echo build/engine-vs-smpi-quick || echo results/engine-vs-smpi)

# omnipath36x32's intra-node alpha and beta (platforms/platform.cpp), for the
# LogGP cluster that shares the node shape but keeps LogGP's rules between nodes.
omnipath_intra=(--intra-alpha 0.3e-6 --intra-beta 0.1e-9)

# The shapes: name, p, then the platform options, one shape per call.
# Full mode: the table of issue 33, plus rome200x128 at 8 x 128 and a
# round-robin placement.
shapes_full() {
  shape flat-loggp 1024 --platform loggp
  shape omnipath-256x1 256 --platform omnipath36x32 --nodes 256 --cores-per-node 1
  shape omnipath-8x32 256 --platform omnipath36x32 --nodes 8
  shape loggp-8x32 256 --platform loggp --nodes 8 --cores-per-node 32 "${omnipath_intra[@]}"
  shape loggp-fat-tree-2 1024 --platform loggp --topology fat-tree:2
  shape loggp-dragonfly-4488 1024 --platform loggp --topology dragonfly:4,4,8,8
  shape rome-8x128 1024 --platform rome200x128 --nodes 8
  shape omnipath-8x32-round-robin 256 --platform omnipath36x32 --nodes 8 --placement round-robin
  # The 1,024-rank shapes at 512 ranks, the same kind of machine at half the
  # SMPI cost (about an hour per 1,024-rank shape on the 2-core machine):
  # run only when --shapes names them. The fat tree keeps two leaves (it
  # needs >= 64 nodes); dragonfly:4,4,8,8 holds exactly 1,024 nodes, so its
  # half is 2 groups of the same chassis and routers (groups <= routers per
  # chassis); Rome keeps its 128-core nodes, 4 of them.
  named_only shape flat-loggp-512 512 --platform loggp
  named_only shape loggp-fat-tree-2-512 512 --platform loggp --topology fat-tree:2
  named_only shape loggp-dragonfly-2488 512 --platform loggp --topology dragonfly:2,4,8,8
  named_only shape rome-4x128 512 --platform rome200x128 --nodes 4
}
# --quick: the same kinds at 16 ranks (the fat tree at 64: leaves hold 32 nodes).
shapes_quick() {
  shape flat-loggp 16 --platform loggp
  shape omnipath-16x1 16 --platform omnipath36x32 --nodes 16 --cores-per-node 1
  shape omnipath-4x4 16 --platform omnipath36x32 --nodes 4 --cores-per-node 4
  shape loggp-4x4 16 --platform loggp --nodes 4 --cores-per-node 4 "${omnipath_intra[@]}"
  shape loggp-fat-tree-2 64 --platform loggp --topology fat-tree:2
  shape loggp-dragonfly-2222 16 --platform loggp --topology dragonfly:2,2,2,2
  shape rome-2x8 16 --platform rome200x128 --nodes 2 --cores-per-node 8
  shape omnipath-4x4-round-robin 16 --platform omnipath36x32 --nodes 4 --cores-per-node 4 --placement round-robin
}

# Is WORD in the comma list LIST (an empty list holds everything)?
wanted() { [[ -z "$2" || ",$2," == *",$1,"* ]]; }
# The same test for awk programs that read the previous table.
wanted_awk='function wanted(w, list) { return list == "" || index("," list ",", "," w ",") }'

# `named_only shape NAME ...`: the shape only where --shapes names it.
named_only() { [[ ",$only_shapes," == *",$2,"* ]] || return 0; "$@"; }


# The algorithms of ours that have a plan, "collective algorithm" a line.
plan_algorithms() {
  local c a
  for c in bcast reduce allreduce reduce_scatter allgatherv scan exscan; do
    wanted "$c" "$only_collectives" || continue
    for a in $(algorithm_names "$collsim" "$c" ours); do
      wanted "$a" "$only_algos" || continue
      "$collsim" verify plan --collective "$c" --algo "$a" --p 4 --quiet >/dev/null 2>&1 && echo "$c $a"
    done
  done
}

# One `collsim run` of a cell under ENGINE into FILE; its exit status (124
# past --timeout), its stderr appended to errors.txt when it fails.
run_engine() {
  local engine=$1 file=$2 rc=0
  shift 2
  # stdin from /dev/null: the loop over algorithms reads its list from stdin.
  timeout "$limit" "$collsim" run --format csv --engine "$engine" "$@" <"/dev/null" >"$file" 2>"$work/stderr" || rc=$?
  if ((rc != 0)); then
    { printf '%s (exit %d):\n' "$*" "$rc"; sed 's/^/  /' "$work/stderr"; } >>"$errors"
  fi
  return "$rc"
}

# Both engines on one shape and algorithm, all sizes in one run each, joined
# into rows of the table by collective, algorithm, p and bytes.
cell() {
  local name=$1 c=$2 a=$3 p=$4 smpi_rc=0 engine_rc=0 sizes=$sizes
  shift 4
  if ((engine_only)); then
    previous_smpi "$name" "$c" "$a" "$p" >"$work/smpi.csv"
    sizes=$(awk -F, 'NR > 1 { printf "%s%s", sep, $1; sep = "," }' "$work/smpi.csv")
  fi
  local cell_args=(--collective "$c" --algo "$a" --p "$p" "$@")
  local args=("${cell_args[@]}" --size "$sizes")
  ((engine_only)) || run_engine smpi "$work/smpi.csv" "${args[@]}" || smpi_rc=$?
  run_engine loggp "$work/engine.csv" "${args[@]}" || engine_rc=$?
  if ((engine_only && engine_rc == 0)); then at_smpi_blocks "${cell_args[@]}" || engine_rc=$?; fi
  # A failed run still gets its rows: one per size, with the reason.
  awk -F, -v shape="$name" -v c="$c" -v a="$a" -v p="$p" -v sizes="$sizes" \
      -v smpi_rc="$smpi_rc" -v engine_rc="$engine_rc" '
    function status_of(rc, who) { return rc == 124 ? who "-timeout" : who "-exit-" rc }
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    { key = $col[FILENAME, "bytes"]
      t[FILENAME, key] = $col[FILENAME, "time_us"]; blocks[FILENAME, key] = $col[FILENAME, "blocks"]
      correct[FILENAME, key] = $col[FILENAME, "correct"]; wall[FILENAME, key] = $col[FILENAME, "wall_s"]
      if (FILENAME == ARGV[1]) order[++n] = key; else engine_order[++n_engine] = key }
    END {
      s = ARGV[1]; e = ARGV[2]
      # No SMPI rows: the sizes of the engine rows (bytes), else as given.
      if (n == 0) for (k = 1; k <= n_engine; k++) order[++n] = engine_order[k]
      if (n == 0) n = split(sizes, order, ",")
      for (k = 1; k <= n; k++) {
        b = order[k]; st = "ok"
        if (smpi_rc != 0) st = status_of(smpi_rc, "smpi")
        else if (engine_rc != 0) st = status_of(engine_rc, "engine")
        else if (!((e, b) in t)) st = "engine-row-missing"
        else if (correct[s, b] != 1) st = "smpi-wrong-result"
        else if (blocks[s, b] != blocks[e, b]) st = "blocks-differ-" blocks[e, b]
        ratio = (st == "ok" && t[s, b] > 0) ? sprintf("%.4f", t[e, b] / t[s, b]) : ""
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", shape, c, a, p, b, blocks[s, b], t[s, b], t[e, b],
               ratio, wall[s, b], st } }' "$work/smpi.csv" "$work/engine.csv" >>"$table"
}

# --engine-only: the SMPI side of a cell as `collsim run` wrote it, from
# the previous table's rows (bytes, blocks, time, wall; correct, as only
# cells whose status is ok are rerun).
previous_smpi() {
  awk -F, -v shape="$1" -v c="$2" -v a="$3" -v p="$4" '
    BEGIN { print "bytes,blocks,time_us,correct,wall_s" }
    NR > 1 && $1 == shape && $2 == c && $3 == a && $4 == p { print $5 "," $6 "," $7 ",1," $10 }' "$previous"
}

# --engine-only: where the block policy's n for a size has changed since
# SMPI ran, the engine again at SMPI's n (--blocks), its row replacing the
# policy's in engine.csv. Returns the failing run's status, if one fails.
at_smpi_blocks() {
  local bytes blocks
  while read -r bytes blocks; do
    run_engine loggp "$work/fixed.csv" "$@" --size "$bytes" --blocks "$blocks" || return $?
    awk -F, -v bytes="$bytes" 'NR == FNR { if (FNR == 2) row = $0; next }
      FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "bytes") col = i }
      { print (FNR > 1 && $col == bytes) ? row : $0 }' "$work/fixed.csv" "$work/engine.csv" >"$work/merged-engine.csv"
    mv -- "$work/merged-engine.csv" "$work/engine.csv"
  done < <(awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
             NR == FNR { smpi[$col[FILENAME, "bytes"]] = $col[FILENAME, "blocks"]; next }
             { b = $col[FILENAME, "bytes"]; if ((b in smpi) && smpi[b] != $col[FILENAME, "blocks"]) print b, smpi[b] }' \
             "$work/smpi.csv" "$work/engine.csv")
}

# Called by shapes_full / shapes_quick once per shape: with listing=1 it
# only collects the wanted names (checked before anything runs), then runs
# every algorithm on the shape.
shape() {
  local name=$1 p=$2 c a
  shift 2
  wanted "$name" "$only_shapes" || return 0
  if ((listing)); then
    seen_shapes+=("$name")
    return 0
  fi
  local cells=$algorithms
  if ((engine_only)); then
    # This shape's cells of the previous table, all ok (else none is rerun).
    cells=$(awk -F, -v shape="$name" -v collectives="$only_collectives" -v algos="$only_algos" "$wanted_awk"'
      NR > 1 && $1 == shape && wanted($2, collectives) && wanted($3, algos) && !seen[$2, $3]++ { print $2, $3 }' "$previous")
    [[ -n "$cells" ]] || return 0
  fi
  while read -r c a; do
    echo "engine vs smpi: $name p=$p $c $a" >&2
    SECONDS=0
    cell "$name" "$c" "$a" "$p" "$@"
    echo "  ${SECONDS} s" >&2
  done <<<"$cells"
}

# The summary of TABLE into SUMMARY: per shape (in the table's order), over
# the cells that ran (status ok).
write_summary() {
  local table=$1 summary=$2 produced_by=$3 name
  {
    echo "# Engine against SMPI, $([[ $quick == 1 ]] && echo quick || echo full) mode"
    echo
    echo "ratio = engine time / SMPI time (\`collsim run --engine loggp\` against \`--engine smpi\`),"
    echo "sizes $sizes; every algorithm of ours with a plan. Produced by"
    echo "\`$produced_by\` from \`$(basename "$table")\`."
    echo
    echo "| shape | p | cells | failed | ratio min | median | max | within 2 % | within 5 % | worst cell |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    awk -F, 'NR > 1 && !seen[$1]++ { print $1 }' "$table" | while read -r name; do
      # ratio <tab> the cell, its times <tab> p; failed cells as "failed"; sorted by ratio.
      awk -F, -v OFS='\t' -v shape="$name" 'NR > 1 && $1 == shape {
          print ($11 == "ok" ? $9 : "failed"), $2 " " $3 " " $5 " B: " $8 " against " $7 " us", $4 }' "$table" |
        sort -g | awk -F'\t' -v shape="$name" '
          { p = $3 }
          $1 == "failed" { failed++; next }
          { r[++n] = $1; d = $1 > 1 ? $1 - 1 : 1 - $1
            if (d <= 0.02) in2++
            if (d <= 0.05) in5++
            if (n == 1 || d > worst_d) { worst_d = d; worst = $2 " (" $1 ")" } }
          END {
            if (n == 0) { printf "| %s | %s | 0 | %d | | | | | | |\n", shape, p, failed; exit }
            med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
            printf "| %s | %s | %d | %d | %.3f | %.3f | %.3f | %d | %d | %s |\n", shape, p, n, failed + 0, r[1], med, r[n], in2 + 0, in5 + 0, worst }'
    done
    echo
    echo "Failed cells (status other than ok) are listed in the CSV with their reason; the"
    echo "stderr of each failed run is in \`errors.txt\`."
  } >"$summary"
}

header="shape,collective,algorithm,p,bytes,blocks,smpi_time_us,engine_time_us,ratio,smpi_wall_s,status"

# --join: the tables of separate runs (one shape each, run side by side)
# into one table, errors.txt and summary in --out.
if [[ -n "$join" ]]; then
  mkdir -p "$out"
  table="$out/engine_vs_smpi.csv"
  IFS=, read -r -a join_dirs <<<"$join"
  for dir in "${join_dirs[@]}"; do
    [[ -f "$dir/engine_vs_smpi.csv" ]] || { echo "--join: no $dir/engine_vs_smpi.csv" >&2; exit 2; }
    [[ "$(head -n 1 "$dir/engine_vs_smpi.csv")" == "$header" ]] ||
      { echo "--join: $dir/engine_vs_smpi.csv is not a table of this script" >&2; exit 2; }
  done
  { echo "$header"; for dir in "${join_dirs[@]}"; do tail -n +2 "$dir/engine_vs_smpi.csv"; done; } >"$table.tmp"
  for dir in "${join_dirs[@]}"; do cat "$dir/errors.txt" 2>/dev/null || true; done >"$out/errors.txt.tmp"
  mv "$table.tmp" "$table"
  mv "$out/errors.txt.tmp" "$out/errors.txt"
  write_summary "$table" "$out/summary.md" "scripts/engine_vs_smpi.sh --join ${join_dirs[*]}"
  echo "wrote $table and $out/summary.md" >&2
  exit 0
fi

listing=1 seen_shapes=()
if ((engine_only)); then
  [[ -f "$out/engine_vs_smpi.csv" && "$(head -n 1 "$out/engine_vs_smpi.csv")" == "$header" ]] ||
    { echo "--engine-only: no table of this script in $out to rerun" >&2; exit 2; }
  awk -F, 'NR > 1 && $11 != "ok" { bad++ } END { exit bad > 0 }' "$out/engine_vs_smpi.csv" ||
    { echo "--engine-only: $out/engine_vs_smpi.csv has cells that did not run; rerun them in full" >&2; exit 2; }
  # Every shape of the table, the 512-rank ones included.
  only_shapes=${only_shapes:-$(awk -F, 'NR > 1 && !seen[$1]++ { printf "%s%s", sep, $1; sep = "," }' "$out/engine_vs_smpi.csv")}
  awk -F, -v shapes="$only_shapes" -v collectives="$only_collectives" -v algos="$only_algos" "$wanted_awk"'
    NR > 1 && wanted($1, shapes) && wanted($2, collectives) && wanted($3, algos) { found = 1; exit }
    END { exit !found }' "$out/engine_vs_smpi.csv" ||
    { echo "--engine-only: no cell of $out/engine_vs_smpi.csv matches --shapes, --collectives and --algos" >&2; exit 2; }
fi
if ((quick)); then shapes_quick; else shapes_full; fi
((${#seen_shapes[@]})) || { echo "no shape named in --shapes '$only_shapes'" >&2; exit 2; }
algorithms=""
((engine_only)) || algorithms=$(plan_algorithms)
[[ -n "$algorithms" || $engine_only == 1 ]] ||
  { echo "no algorithm with a plan (--collectives '$only_collectives', --algos '$only_algos'?)" >&2; exit 2; }
listing=0
mkdir -p "$out"
table="$out/engine_vs_smpi.csv" errors="$out/errors.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ((engine_only)); then
  previous="$work/previous.csv"
  cp -- "$table" "$previous"
fi
: >"$errors"
echo "$header" >"$table"
if ((quick)); then shapes_quick; else shapes_full; fi
if ((engine_only)); then
  # The previous table's rows in their order, each replaced by its rerun
  # where it was rerun (those left out by --shapes, --collectives or
  # --algos as they were).
  awk -F, 'NR == FNR { if (FNR > 1) rerun[$1, $2, $3, $4, $5] = $0; next }
           FNR == 1 { print; next }
           { key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5; print (key in rerun) ? rerun[key] : $0 }' \
    "$table" "$previous" >"$work/merged.csv"
  mv -- "$work/merged.csv" "$table"
fi

produced_by=scripts/engine_vs_smpi.sh
if ((quick)); then produced_by+=" --quick"; fi
if ((engine_only)); then produced_by+=" --engine-only"; fi
if [[ -n "$only_shapes" ]]; then produced_by+=" --shapes $only_shapes"; fi
write_summary "$table" "$out/summary.md" "$produced_by"
echo "wrote $table and $out/summary.md" >&2
