#!/usr/bin/env bash
# The mutation run (issue 36): every check is shown to fail. Each row of
# tests/mutations/list.tsv names a small patch, tests/mutations/<id>.patch
# (one to three changed lines of product code), and the tests that must catch
# it. For each row the patch goes into a scratch copy of this tree, the copy
# is rebuilt incrementally (one build folder reused, ccache-backed), the named
# tests run, and the copy is restored. A row is caught when a named test
# fails, or when the mutated code does not compile (shown as "caught (build)");
# missed when every named test passes. Prints a table and exits 1 on any miss.
#
#   bash scripts/mutations.sh [--only ID,...] [--build DIR] [--no-baseline] [--list] [--check-patches]
#
# --build DIR   the scratch folder: DIR/tree is the copy (tracked and untracked,
#               not ignored files of this worktree, so uncommitted work is
#               included), DIR/tree/build its build (default build/mutations,
#               inside this tree's ignored build folder). The user's tree is
#               never patched: an interrupted run leaves only the scratch copy
#               mutated, and the next run puts it back first.
# --only ID,... run these rows only.
# --no-baseline skip the first pass, which runs every named test unmutated
#               (a test that fails there would "catch" every mutation; the
#               run stops with exit 2 instead).
# --list        print the rows and exit.
# --check-patches  check that every row's patch still applies to this tree
#               (`git apply --check`) and exit; ctest runs this
#               (mutation_patches_apply), so a moved line cannot silently
#               retire a mutation.
#
# Not part of ctest (ctest runs every registered test by default). The whole
# list took 383 s on two shared cores with a built scratch folder and a warm
# ccache (a first run builds the tree first); docs/hardening.md, "Mutation run".
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
list="$repo/tests/mutations/list.tsv"
scratch="$repo/build/mutations"
only="" baseline=1 check_patches=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) only="${2:?--only needs a list of ids}"; shift 2 ;;
    --build) scratch="${2:?--build needs a folder}"; shift 2 ;;
    --no-baseline) baseline=0; shift ;;
    --list) grep -v '^#' "$list" | column -t -s $'\t'; exit 0 ;;
    --check-patches) check_patches=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "mutations.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [[ $check_patches == 1 ]]; then
  stale=0
  while IFS=$'\t' read -r id _; do
    [[ -z $id || $id == \#* ]] && continue
    git -C "$repo" apply --check "tests/mutations/$id.patch" 2>/dev/null ||
      { echo "mutations.sh: tests/mutations/$id.patch no longer applies" >&2; stale=1; }
  done <"$list"
  exit "$stale"
fi
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
tree="$scratch/tree"
bld="$tree/build"
log="$scratch/logs"
mkdir -p "$tree" "$log"
jobs=$(nproc)

# The rows: id, file, what, test binary (a CMake target), gtest filter.
ids=() files=() whats=() targets=() filters=()
while IFS=$'\t' read -r id file what target filter; do
  [[ -z "$id" || "$id" == \#* ]] && continue
  if [[ -n "$only" && ",$only," != *",$id,"* ]]; then continue; fi
  [[ -f "$repo/tests/mutations/$id.patch" ]] || { echo "mutations.sh: no tests/mutations/$id.patch" >&2; exit 2; }
  ids+=("$id") files+=("$file") whats+=("$what") targets+=("$target") filters+=("$filter")
done <"$list"
[[ ${#ids[@]} -gt 0 ]] || { echo "mutations.sh: no rows selected" >&2; exit 2; }

# Bring the copy level with this worktree. A file is copied only when its
# content differs, and gets the current time then, so a file a previous
# (interrupted) run left mutated is rebuilt; equal files keep their times and
# the build stays incremental.
# Files gone from this worktree go from the copy too (algorithms/ is
# globbed by CMake).
sync_tree() {
  local f
  (cd "$repo" && git ls-files -co --exclude-standard) | sort >"$scratch/files"
  (cd "$tree" && find . -path ./build -prune -o -type f -print | sed 's|^\./||') | sort |
    comm -23 - "$scratch/files" | while IFS= read -r f; do rm -f "$tree/$f"; done
  while IFS= read -r f; do
    [[ -f "$repo/$f" ]] || continue
    if ! cmp -s "$repo/$f" "$tree/$f"; then
      mkdir -p "$(dirname "$tree/$f")"
      cp "$repo/$f" "$tree/$f"
    fi
  done <"$scratch/files"
}

# Put back the file a patch changed: copied anew (a fresh time, so make
# rebuilds what the mutated version built).
restore() {
  local f
  for f in $(patch_files "$1"); do cp "$repo/$f" "$tree/$f"; done
}
patch_files() { sed -n 's|^+++ b/||p' "$repo/tests/mutations/$1.patch"; }
current=""
trap '[[ -n "$current" ]] && restore "$current"' EXIT

export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$repo")} CCACHE_NOHASHDIR=1
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
sync_tree
cmake -S "$tree" -B "$bld" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >"$log/cmake.log"

build() { cmake --build "$bld" -j"$jobs" --target "$@"; }
# One row's tests: the binary run directly with its filter, under the same
# limits ctest gives it (tests/CMakeLists.txt).
run_tests() {
  (cd "$bld/tests" && COLLSIM_TIME_LIMIT=600 timeout 900 "./$1" --gtest_filter="$2" --gtest_brief=1)
}

if [[ $baseline == 1 ]]; then
  echo "baseline: building and running the named tests unmutated" >&2
  mapfile -t uniq_targets < <(printf '%s\n' "${targets[@]}" | sort -u)
  build "${uniq_targets[@]}" >"$log/baseline-build.log" 2>&1 || { echo "baseline build failed: $log/baseline-build.log" >&2; exit 2; }
  declare -A seen=()
  for i in "${!ids[@]}"; do
    key="${targets[$i]} ${filters[$i]}"
    [[ -n "${seen[$key]:-}" ]] && continue
    seen[$key]=1
    if ! run_tests "${targets[$i]}" "${filters[$i]}" >"$log/baseline-${ids[$i]}.log" 2>&1; then
      echo "baseline: ${targets[$i]} --gtest_filter=${filters[$i]} fails unmutated ($log/baseline-${ids[$i]}.log)" >&2
      exit 2
    fi
    # A filter that names no test passes under every mutation.
    grep -q 'PASSED  \] [1-9]' "$log/baseline-${ids[$i]}.log" || {
      echo "baseline: ${targets[$i]} --gtest_filter=${filters[$i]} runs no test" >&2; exit 2; }
  done
fi

results=() secs=() missed=0 start_all=$SECONDS
for i in "${!ids[@]}"; do
  id=${ids[$i]}
  t0=$SECONDS
  current=$id
  # The copy lies inside this worktree's ignored build folder: without the
  # ceiling git apply would take it for a subfolder of this repository and
  # silently skip every path outside it.
  (cd "$tree" && GIT_CEILING_DIRECTORIES="$scratch" git apply "$repo/tests/mutations/$id.patch") || {
    echo "mutations.sh: $id.patch does not apply to ${files[$i]}" >&2; exit 2; }
  if cmp -s "$repo/${files[$i]}" "$tree/${files[$i]}"; then
    echo "mutations.sh: $id.patch left ${files[$i]} unchanged" >&2; exit 2
  fi
  if ! build "${targets[$i]}" >"$log/$id.build.log" 2>&1; then
    result="caught (build)"
  elif run_tests "${targets[$i]}" "${filters[$i]}" >"$log/$id.test.log" 2>&1; then
    result="MISSED"; missed=$((missed + 1))
  else
    result="caught"
  fi
  restore "$id"
  current=""
  results+=("$result") secs+=($((SECONDS - t0)))
  printf '%-28s %-14s %4ss\n' "$id" "$result" "${secs[-1]}" >&2
done

# The table: markdown, so it can go into docs/hardening.md as it is.
echo "| id | file | mutation | must be caught by | result | s |"
echo "|---|---|---|---|---|---|"
for i in "${!ids[@]}"; do
  echo "| ${ids[$i]} | \`${files[$i]}\` | ${whats[$i]} | \`${targets[$i]}\` \`${filters[$i]}\` | ${results[$i]} | ${secs[$i]} |"
done
echo
echo "${#ids[@]} mutations, $((${#ids[@]} - missed)) caught, $missed missed, $((SECONDS - start_all)) s (baseline not counted)"
[[ $missed == 0 ]]
