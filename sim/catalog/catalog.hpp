// The catalog of collective algorithms (MPI-free, driver and rank side
// alike): one row per algorithm (name, collective, limits, cost model,
// one-line description), generated from the one list algorithms.def and
// read by `collsim run/compare/map` (--algo, --help, errors, restrictions,
// model columns), by the harness (which row to run; its run function comes
// from the same list, rank/run_table.hpp) and by the shared tests.
//
// Adding an algorithm = one file under sim/algorithms/ (its model, and its
// run function inside #ifdef COLLSIM_RANK) + one row in algorithms.def.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// The α-β-γ model of seed 004 §2.1, with SMPI's message envelope: a message of
// m bytes costs α + (m + envelope)β (SMPI adds 16 bytes no setting removes).
// full_duplex: a rank can send and receive at once at full bandwidth (seed
// 004's "bi"); otherwise a simultaneous send and receive share the link
// ("uni": an exchange of m bytes each way costs α + 2mβ, seed 004's fβ = 2).
struct Net {
  double alpha;     // seconds per message
  double beta;      // seconds per byte
  double gamma;     // seconds per byte of ⊕
  bool full_duplex = true;
  int64_t envelope = 16;
  int64_t element = 1;  // bytes of one element: plans cut blocks of whole elements
  // Ranks placed block-wise, node_size to a node (1: every rank its own
  // node); a message within a node costs intra_alpha + (m + envelope)
  // intra_beta. The node-aware algorithms' models and the circulant
  // rounds' (shift_round) read these.
  int64_t node_size = 1;
  double intra_alpha = 0, intra_beta = 0;
  double message(int64_t bytes) const { return alpha + static_cast<double>(bytes + envelope) * beta; }
  // The same network as seen within one node: one group of ranks, the
  // intra-node α, β.
  Net intra() const {
    Net n = between_nodes();
    n.alpha = intra_alpha, n.beta = intra_beta;
    return n;
  }
  // The network as seen by one rank per node (the node-aware algorithms'
  // leaders and lanes).
  Net between_nodes() const {
    Net n = *this;
    n.node_size = 1;
    return n;
  }
  // Ranks on a full node and the node count, for p ranks.
  int64_t node_ranks(int64_t p) const { return node_size < p ? node_size : p; }
  int64_t nodes(int64_t p) const { return (p - 1) / node_ranks(p) + 1; }
  // A round in which every rank r sends `bytes` to r + skip mod p (a
  // circulant round), its wire bytes (with the envelope) times fbeta (2 on a
  // half-duplex link, which carries the receive too). Block placement, c
  // ranks a node: the min(c, skip, p − skip) ranks of a node whose partner
  // lies on another node share the node's link, each getting 1/cross of
  // it; the others' messages stay within the node, at the intra-node α, β.
  // The round takes the slower of the two. One rank a node: α + wire·β;
  // one node: all within it.
  //   p = 1152, c = 32, skip 64: all 32 cross, α + 32·wire·β;
  //   skip 4: 4 cross, max(α + 4·wire·β, α_i + wire·β_i).
  double shift_round(int64_t p, int64_t skip, double bytes, double fbeta = 1) const;
};

// Limits, as bit flags.
enum Limit : unsigned {
  kNone = 0,
  kBlocks = 1u << 0,       // pipelined: takes a block count n (--blocks)
  kCommutative = 1u << 1,  // needs a commutative ⊕: wrong results with matmul
  kSmpiBuiltin = 1u << 2,  // a SimGrid built-in, selected by --cfg=smpi/<collective>:<name>
  kExactModel = 1u << 3,   // the model equals the simulation on full-duplex alphabeta
  kPlan = 1u << 4,         // runs its plan (schedules/plan_builders.hpp) through the plan executor
  kSegments = 1u << 5,     // cuts each of p segments (not the whole vector) into its n blocks
};

struct Algorithm {
  const char* name;  // "circulant", "smpi:ompi", ...
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
