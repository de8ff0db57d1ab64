# shellcheck shell=sh
# Sourced by the scripts that loop over algorithms (POSIX sh).
#
#   algorithm_names COLLSIM COLLECTIVE [ours]
# prints the names of COLLECTIVE's algorithms, one a line, as
# `collsim algorithms --format csv` lists them: ours in catalog order, then
# SimGrid's built-ins (smpi:NAME); with `ours`, only ours. The columns are
# found by their header names; name and kind come before the free-text
# columns, whose quoted commas cannot shift them.
algorithm_names() {
  "$1" algorithms --collective "$2" --format csv |
    awk -F, -v ours="${3:-}" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      !(ours == "ours" && $col["kind"] == "smpi") { print $col["name"] }'
}
