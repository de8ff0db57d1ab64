#!/usr/bin/env bash
# Shows that adding an algorithm is one new file plus one row of the one
# list, for each kind (docs/adding-an-algorithm.md): in a scratch copy of
# the source tree it adds, exactly as that recipe says,
#   throwaway-plan  a plan algorithm: a pipelined flat-tree broadcast (the
#                   root sends each of the n blocks to every other rank);
#   throwaway-mpi   an MPI-code algorithm without a plan: a flat-tree
#                   broadcast of the whole message;
# builds collsim (with the SMPI rank library) and test_sim there once, and
# checks
#   1. `collsim algorithms` lists both, each with its one file,
#   2. `collsim verify plan` passes throwaway-plan,
#   3. `collsim run` gives correct results under SMPI for both, and
#      `--engine loggp` runs throwaway-plan in SMPI's time,
#   4. the shared correctness loop and the model loop of tests/test_sim.cpp
#      pass with both;
# then breaks both (the last rank never gets the last block) and checks
#   5. `verify plan` and `collsim run` fail, and the correctness loop fails
#      naming both and nothing else;
# then doubles both models (the code correct again) and checks
#   6. the model loop fails naming both and nothing else.
# Each change rewrites the two files and rebuilds only them. The copy holds the tracked and
# untracked (not ignored) files of the working tree, so uncommitted changes
# are tested too. ctest runs it (label `recipe`); time: docs/testing.md.
# Exit 0 when everything holds; the scratch folder is removed either way.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/src build=$work/build
mkdir "$src"

step() { echo "add-algorithm check: $*" >&2; }
fail() { echo "add-algorithm check: FAILED: $*" >&2; exit 1; }

# The working tree's files as the build sees them (deleted ones left out).
git -C "$repo" ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [[ -e "$repo/$f" ]] && printf '%s\0' "$f"; done |
  tar -C "$repo" --null --verbatim-files-from --no-recursion -T - -cf - | tar -x -C "$src"

# --- the plan algorithm: algorithms/bcast/throwaway_plan.cpp ---------------
# $1: blocks the last rank never gets (0; 1 breaks it), $2: the model's factor.
write_plan_algorithm() {
  cat >"$src/algorithms/bcast/throwaway_plan.cpp" <<CPP
// throwaway-plan: a pipelined flat tree. The root sends the n blocks to
// virtual rank 1, then to rank 2, ..., to rank p − 1, one block a step.
//
// Cost: (p − 1)(nα + (m + 16n)β): the root's (p − 1)n sends are sequential.
// Limits: any p, any root, any n ≥ 1; no ⊕. Memory: the executor's.
// Verified by collsim verify plan; written by scripts/add_algorithm_check.sh.
#include "algorithm.hpp"
#include "plan_families.hpp"

namespace collsim::sim {

double model_bcast_throwaway_plan(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (bytes == 0 || p == 1) return 0;
  const double n = static_cast<double>(blocks);
  return $2 * static_cast<double>(p - 1) * (n * net.alpha + static_cast<double>(bytes + blocks * net.envelope) * net.beta);
}

}  // namespace collsim::sim

namespace collsim::plan {

// Blocks the last rank never gets (the check's switch: 0 is correct).
constexpr int64_t kThrowawayDropped = $1;

// Root round i: block i mod n to virtual rank 1 + i / n; rank v's round j:
// block j from the root.
Plan bcast_throwaway_plan(int64_t p, int64_t root, int64_t blocks) {
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const int64_t v = ranks.virt(rank);
    if (v == 0)
      return rounds(0, (p - 1) * blocks - kThrowawayDropped, [=](int64_t i, Step& s) {
        set_send(s, ranks.real(1 + i / blocks), block_run(i % blocks, 1));
      });
    const int64_t received = v == p - 1 ? blocks - kThrowawayDropped : blocks;
    return rounds(0, received, [=](int64_t j, Step& s) { set_recv(s, root, block_run(j, 1)); });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_throwaway_plan{
    kExactModel,
    "throwaway pipelined flat tree: (p-1)(n*a+b*m)",
    model_bcast_throwaway_plan, plan::bcast_throwaway_plan};

}  // namespace collsim::sim
CPP
}

# --- the MPI-code algorithm: algorithms/bcast/throwaway_mpi.cpp ------------
# $1: ranks at the end that never get the message (0; 1 breaks it), $2: the
# model's factor.
write_mpi_algorithm() {
  cat >"$src/algorithms/bcast/throwaway_mpi.cpp" <<CPP
// throwaway-mpi: a flat tree. The root sends the whole message to virtual
// rank 1, then to rank 2, ..., to rank p − 1.
//
// Cost: (p − 1)(α + β(m + 16)). Limits: any p, any root; no ⊕; no plan, so
// no model on LogGP's platforms. Memory: none.
// Verified by the correctness loop; written by scripts/add_algorithm_check.sh.
#include "algorithm.hpp"
#ifdef COLLSIM_RANK
#include "circulant.hpp"
#include "collective.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
// Ranks at the end that never get the message (the check's switch: 0 is correct).
constexpr int64_t kThrowawaySkipped = $1;

void bcast_throwaway_mpi(const CollArgs& a) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  if (a.bytes == 0) return;
  const int count = static_cast<int>(a.bytes);
  const int64_t reached = p - kThrowawaySkipped;
  if (rank != a.root) {
    if (virtual_rank(rank, a.root, p) < reached) MPI_Recv(a.buf, count, MPI_BYTE, a.root, 0, a.comm, MPI_STATUS_IGNORE);
    return;
  }
  for (int64_t v = 1; v < reached; ++v)
    MPI_Send(a.buf, count, MPI_BYTE, static_cast<int>(real_rank(v, a.root, p)), 0, a.comm);
}
#endif  // COLLSIM_RANK

double model_bcast_throwaway_mpi(const Net& net, int64_t p, int64_t bytes, int64_t) {
  return bytes == 0 ? 0 : $2 * static_cast<double>(p - 1) * net.message(bytes);
}

const AlgorithmDef def_bcast_throwaway_mpi{kExactModel, "throwaway flat tree: (p-1)(a+b*m)", model_bcast_throwaway_mpi};

}  // namespace collsim::sim
CPP
}

build() {
  cmake --build "$build" -j"$(nproc)" --target collsim test_sim >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log"; fail "the build"; }
}
# Runs test_sim's loops ($1: a gtest filter) into test.log; its exit status.
loops() { "$build/bin/test_sim" --gtest_filter="$1" >"$work/test.log" 2>&1; }
correctness=SimBcast.EveryAlgorithmDeliversCorrectData
model=SimModels.EveryExactModelMatchesTheSimulation
# A failed loop's failures (gtest's "file:line: Failure" blocks) must each
# name one of the throwaways: they are what broke it, nothing else.
failures_name_only_throwaways() {
  local blocks names
  blocks=$(grep -c ': Failure$' "$work/test.log" || true)
  names=$(grep -cE '(^| )throwaway-(plan|mpi) p=' "$work/test.log" || true)
  grep -qE '(^| )throwaway-plan p=' "$work/test.log" || fail "$1: no failure names throwaway-plan"
  grep -qE '(^| )throwaway-mpi p=' "$work/test.log" || fail "$1: no failure names throwaway-mpi"
  [[ $blocks == "$names" ]] || { tail -40 "$work/test.log"; fail "$1: $blocks failures, $names naming a throwaway"; }
}
# One CSV column ($2, by its header name) of every row in $1.
column() { awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next } { print $at[name] }' <<<"$1"; }
collsim=$build/cli/collsim  # its documented place (commands/CMakeLists.txt keeps it there)
run() { "$collsim" run --collective bcast --format csv "$@"; }

step "two files, algorithms/bcast/throwaway_{plan,mpi}.cpp; two rows at the end of algorithms/algorithms.def"
write_plan_algorithm 0 1
write_mpi_algorithm 0 1
printf '%s\n' 'COLLSIM_PLAN(bcast, "throwaway-plan", bcast_throwaway_plan, pipelined, tree)' \
  'COLLSIM_OURS(bcast, "throwaway-mpi", bcast_throwaway_mpi, whole, tree)' >>"$src/algorithms/algorithms.def"
launcher=()
if command -v ccache >/dev/null; then  # a second run compiles nothing twice
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$work CCACHE_NOHASHDIR=1
fi
# -O1: the build is most of this check's time, and -O1 compiles in about 70 %
# of -O3's time with the loops about as fast (-O0: 55 %, but the loops take
# three times as long). No simulated time depends on it: collsim runs SMPI
# with smpi/simulate-computation:no. Every program goes to bin/, wherever its
# sources live, except collsim, whose target keeps build/cli/collsim.
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DCMAKE_RUNTIME_OUTPUT_DIRECTORY="$build/bin" "${launcher[@]}" >"$work/cmake.log" 2>&1 ||
  { tail -30 "$work/cmake.log"; fail "cmake"; }
step "building collsim and test_sim (minutes)"
start=$SECONDS
build
step "built in $((SECONDS - start)) s"

step "1. collsim algorithms lists both, each with its file"
listing=$("$collsim" algorithms --collective bcast --format csv)
for kind in plan mpi-code; do
  name=throwaway-${kind%-code}
  row=$(awk -F, -v name="$name" 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
    $at["name"] == name { print $at["kind"] " " $at["source"] }' <<<"$listing")
  [[ $row == "$kind algorithms/bcast/${name//-/_}.cpp" ]] || fail "collsim algorithms lists $name as: ${row:-nothing}"
done

step "2. collsim verify plan passes throwaway-plan"
for root in 0 4; do
  "$collsim" verify plan --collective bcast --algo throwaway-plan --p 1:40 --blocks 1,2,7 --root "$root" --quiet ||
    fail "verify plan, root $root"
done

step "3. collsim run: correct under SMPI; --engine loggp in SMPI's time"
csv=$(run --algo throwaway-mpi --platform alphabeta --p 7 --root 3 --size 1,4099) || fail "run throwaway-mpi"
[[ $(column "$csv" correct | sort -u) == 1 ]] || fail "run throwaway-mpi: not correct"
smpi=$(run --algo throwaway-plan --p 7 --root 3 --size 4099 --blocks 3) || fail "run throwaway-plan"
[[ $(column "$smpi" correct) == 1 ]] || fail "run throwaway-plan: not correct"
engine=$(run --algo throwaway-plan --p 7 --root 3 --size 4099 --blocks 3 --engine loggp) || fail "run --engine loggp"
awk -v a="$(column "$smpi" time_us)" -v b="$(column "$engine" time_us)" 'BEGIN { exit !(a > 0 && b > 0.99 * a && b < 1.01 * a) }' ||
  fail "throwaway-plan: SMPI $(column "$smpi" time_us) us, engine $(column "$engine" time_us) us"

step "4. the correctness loop and the model loop pass"
loops "$correctness:$model" || { tail -40 "$work/test.log"; fail "the loops with both throwaways"; }

step "5. both broken (the last rank never gets the last block): caught"
write_plan_algorithm 1 1
write_mpi_algorithm 1 1
build
# Exit 1 from both: a broken rule (verify), a wrong result (run); 2 would
# be a usage error, which shows nothing.
rc=0
"$collsim" verify plan --collective bcast --algo throwaway-plan --p 2:9 --quiet >/dev/null 2>&1 || rc=$?
[[ $rc == 1 ]] || fail "verify plan on the broken throwaway-plan: exit $rc, not 1"
for kind in plan mpi; do
  rc=0
  csv=$(run --algo "throwaway-$kind" --platform alphabeta --p 5 --size 1000 2>/dev/null) || rc=$?
  [[ $rc == 1 && $(column "$csv" correct) == 0 ]] || fail "collsim run on the broken throwaway-$kind: exit $rc, not 1 with correct = 0"
done
if loops "$correctness"; then fail "the correctness loop passed both broken throwaways"; fi
failures_name_only_throwaways "the correctness loop"

step "6. both models twice too large: the model loop fails"
write_plan_algorithm 0 2
write_mpi_algorithm 0 2
build
if loops "$model"; then fail "the model loop passed both doubled models"; fi
failures_name_only_throwaways "the model loop"
step "all hold ($SECONDS s)"
