# shellcheck shell=bash
# Sourced by the studies that collect `collsim run --engine loggp` rows on
# the machine of issue 33's study (verdicts_at_scale.sh,
# block_policy_sweep.sh).
#
# The machine: the default loggp platform's L, o, g, G between nodes,
# 128-core nodes with rome200x128's intra-node alpha and beta (0.4 us,
# 0.15 ns/B; loggp has none); the caller adds --topology.
study_machine=(--platform loggp --cores-per-node 128 --intra-alpha 0.4e-6 --intra-beta 0.15e-9)

#   run_rows LABEL LIMIT COLUMNS VALUES ARGS...
# runs `$collsim run ARGS --format csv` under `timeout LIMIT` and appends
# its rows to $rows, each with ",VALUES" after it; the first run that
# succeeds (while $header is empty) writes the header with ",COLUMNS".
# A run that fails appends "LABEL: why" to $skipped instead (its last
# stderr line, or the time limit) and returns its status. Its stderr goes
# to $out/stderr.txt.
run_rows() {
  local label=$1 limit=$2 columns=$3 values=$4 csv status=0 why
  shift 4
  csv=$(timeout "$limit" "$collsim" run "$@" --format csv 2>"$out/stderr.txt" </dev/null) || status=$?
  if ((status != 0)); then
    why=$(tail -1 "$out/stderr.txt")
    ((status == 124)) && why="stopped after --timeout $limit s"
    echo "$label: $why" >>"$skipped"
    return "$status"
  fi
  [[ -n "$header" ]] || { header=$(head -1 <<<"$csv"); echo "$header,$columns" >"$rows"; }
  # VALUES hold the user's text (a topology): awk reads them from the
  # environment, as data, unescaped (a sed script built from them could
  # run commands).
  tail -n +2 <<<"$csv" | suffix=",$values" awk '{ print $0 ENVIRON["suffix"] }' >>"$rows"
}
