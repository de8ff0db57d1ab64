// The catalog of collective algorithms (MPI-free, driver and rank side
// alike): one row per algorithm (name, collective, limits, cost model,
// one-line description), generated from the one list
// algorithms/algorithms.def (each row's description, limits and model from
// its file's AlgorithmDef, algorithms/algorithm.hpp) and
// read by `collsim run/compare/map` (--algo, --help, errors, restrictions,
// model columns), by the harness (which row to run; its run function comes
// from the same list, rank/run_table.hpp) and by the shared tests.
//
// Adding an algorithm = one file under algorithms/<collective>/ + one row in
// algorithms/algorithms.def (docs/adding-an-algorithm.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithm.hpp"
#include "collectives.hpp"

namespace collsim::sim {

// The collectives (schedules/collectives.hpp), by their short names here.
using collsim::Collective;
using collsim::collective_name;
using collsim::kCollectives;
using collsim::parse_collective;
using collsim::reduces;

// The ⊕ a reduction is checked with (the harness's test data, sim/workload):
//   bxor    MPI_LONG elements, bitwise xor: commutative (seed 000's Table 1)
//   matmul  2 x 2 matrices of uint64 (32-byte elements), product mod 2^64:
//           associative, not commutative, so any reordering shows
enum class Operator { bxor, matmul };
const char* operator_name(Operator op);
Operator parse_operator(const std::string& name);
int64_t element_bytes(Collective c, Operator op);  // 1 for bcast and allgatherv

// How reduce_scatter and allgatherv split `bytes` over the ranks:
//   even    as evenly as possible (the first m mod p ranks one element more)
//   ramp    rank r gets a share proportional to r + 1
//   single  the root gets everything, the others nothing
//   mod3    rank r gets a share proportional to r mod 3 (seed 003's
//           "irregular problem", Fig. 2: ranks 0, 3, 6, .. get nothing)
enum class Layout { even, ramp, single, mod3 };
const char* layout_name(Layout l);
Layout parse_layout(const std::string& name);

struct Algorithm {
  const char* name;  // ours by name, SimGrid's as "smpi:<name>"
  Collective collective;
  unsigned limits;
  // Predicted seconds for p ranks, `bytes` bytes and n blocks (1 unless
  // kBlocks); nullptr where no model is claimed (SimGrid's built-ins).
  double (*model)(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
  const char* description;

  bool has(Limit l) const { return (limits & l) != 0; }
  // For built-ins: the name SimGrid knows ("ompi" for "smpi:ompi").
  std::string builtin_name() const;
};

const std::vector<Algorithm>& algorithms();
// The row's position in algorithms() (rank/run_table.cpp keeps the run
// functions in the same order).
size_t catalog_index(const Algorithm& a);
std::vector<const Algorithm*> algorithms_of(Collective c);
// Ours only: every row of c but SimGrid's built-ins.
std::vector<const Algorithm*> our_algorithms(Collective c);
// Throws std::invalid_argument "unknown <collective> algorithm 'x'; known: ...".
const Algorithm& find_algorithm(Collective c, const std::string& name);
std::string known_names(Collective c);  // comma-separated, table order

// The restrictions of a row, checked in this one place before anything runs
// (run refuses, compare and map skip, the PMPI library falls back): the
// reason `a` cannot run this case, or "" when it can.
std::string unmet_restriction(const Algorithm& a, bool commutative_op);
// The same for the harness's test operators (matmul is not commutative).
std::string unmet_restriction(const Algorithm& a, Operator op);

}  // namespace collsim::sim
