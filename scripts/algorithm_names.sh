# shellcheck shell=sh
# Sourced by the scripts that loop over algorithms (POSIX sh).
#
#   algorithm_names COLLSIM COLLECTIVE [ours|lock-step|blocks]
# prints the names of COLLECTIVE's algorithms, one a line, as
# `collsim algorithms --format csv` lists them: ours in catalog order, then
# SimGrid's built-ins (smpi:NAME); with `ours`, only ours; with
# `lock-step`, ours but the graph plans (restriction `graph`); with
# `blocks`, ours that take --blocks (restriction `blocks`). The columns
# are found by their header names; name, kind and restrictions come before
# the free-text column, whose quoted commas cannot shift them.
algorithm_names() {
  "$1" algorithms --collective "$2" --format csv |
    awk -F, -v ours="${3:-}" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      ours != "" && $col["kind"] == "smpi" { next }
      ours == "lock-step" && $col["restrictions"] ~ /graph/ { next }
      ours == "blocks" && $col["restrictions"] !~ /blocks/ { next }
      { print $col["name"] }'
}
