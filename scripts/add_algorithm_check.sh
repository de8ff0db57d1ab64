#!/usr/bin/env bash
# Shows that adding an algorithm is one new file plus one row of the one
# list: in a scratch copy of the committed tree (git archive HEAD) it adds a
# throwaway flat-tree broadcast of the MPI-code kind (no plan) exactly as
# docs/adding-an-algorithm.md says, builds it, and checks that
#   1. `collsim algorithms` lists it,
#   2. `collsim compare --algos all` runs it with a correct result (on
#      alphabeta: without a plan it has no model on LogGP's platforms),
#   3. the shared correctness loop and the model loop (tests/test_sim.cpp)
#      pass with it,
#   4. the correctness loop fails when the algorithm skips the last rank,
#   5. the model loop fails when its model is made twice too large.
# About 5 minutes on 2 cores (one full build, two one-file rebuilds). Not part
# of ctest. Exit 0 when all five hold.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
git -C "$repo" archive HEAD | tar -x -C "$work/src"
src=$work/src build=$work/build
file=$src/algorithms/bcast/throwaway.cpp

write_algorithm() {  # $1: the send loop's bound, $2: the model's factor
  cat >"$file" <<CPP
// throwaway: the root sends the whole message to every other rank, one after
// the other (a flat tree). Cost: (p − 1)(α + β(m + 16)). Limits: any p, any
// root. Memory: none. (Written by scripts/add_algorithm_check.sh.)
#include "algorithm.hpp"
#include "circulant.hpp"

namespace collsim::sim {

double model_bcast_throwaway(const Net& net, int64_t p, int64_t bytes, int64_t) {
  return bytes == 0 ? 0 : $2 * static_cast<double>(p - 1) * net.message(bytes);
}

const AlgorithmDef def_bcast_throwaway{kExactModel, "throwaway flat tree: (p-1)(a+b*m)", model_bcast_throwaway};

}  // namespace collsim::sim

#ifdef COLLSIM_RANK
#include "collective.hpp"

namespace collsim::sim {

void bcast_throwaway(const CollArgs& a) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  if (a.bytes == 0) return;
  const int count = static_cast<int>(a.bytes);
  if (rank != a.root) {
    MPI_Recv(a.buf, count, MPI_BYTE, a.root, 0, a.comm, MPI_STATUS_IGNORE);
    return;
  }
  for (int64_t v = 1; v < $1; ++v)
    MPI_Send(a.buf, count, MPI_BYTE, static_cast<int>(real_rank(v, a.root, p)), 0, a.comm);
}

}  // namespace collsim::sim
#endif  // COLLSIM_RANK
CPP
}

step() { echo "add-algorithm check: $*" >&2; }
build() { cmake --build "$build" -j"$(nproc)" --target collsim test_sim >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 1; }; }
loops() { "$build/tests/test_sim" --gtest_filter='SimBcast.EveryAlgorithmDeliversCorrectData:SimModels.EveryExactModelMatchesTheSimulation' >"$work/test.log" 2>&1; }

step "one file: algorithms/bcast/throwaway.cpp; one row in algorithms/algorithms.def"
write_algorithm p 1
sed -i '/^COLLSIM_PLAN(bcast, "binomial"/i COLLSIM_OURS(bcast, "throwaway", bcast_throwaway, whole, tree)' \
  "$src/algorithms/algorithms.def"
grep -q '"throwaway"' "$src/algorithms/algorithms.def"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
step "building (a few minutes)"
build
collsim=$build/cli/collsim

step "1. listed by collsim algorithms"
# shellcheck source=scripts/algorithm_names.sh
. "$src/scripts/algorithm_names.sh"
algorithm_names "$collsim" bcast ours | grep -x throwaway >/dev/null
step "2. run by compare --algos all"
"$collsim" compare --collective bcast --platform alphabeta --p 7 --sizes 1KiB --algos all --out "$work/compare" >/dev/null 2>&1 || true
grep -q '^bcast,throwaway,7,1024,1,[0-9.]*,[0-9.]*,0,1,,,1,' "$work/compare/results.csv"
step "3. the correctness loop and the model loop pass"
loops || { tail -20 "$work/test.log"; exit 1; }

step "4. broken (the last rank never gets the data): the correctness loop must fail"
write_algorithm 'p - 1' 1
build
if loops; then echo "add-algorithm check: the broken algorithm passed the correctness loop" >&2; exit 1; fi
grep -q 'SimBcast.EveryAlgorithmDeliversCorrectData' "$work/test.log"
grep -q 'throwaway' "$work/test.log"

step "5. model twice too large: the model loop must fail"
write_algorithm p 2
build
if loops; then echo "add-algorithm check: the doubled model passed the model loop" >&2; exit 1; fi
grep -q 'FAILED  \] SimModels.EveryExactModelMatchesTheSimulation' "$work/test.log"
! grep -q 'FAILED  \] SimBcast.EveryAlgorithmDeliversCorrectData' "$work/test.log"
step "all five hold"
