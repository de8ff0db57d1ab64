// What an algorithm of ours is, as its own file under algorithms/<collective>/
// states it: the network its cost model reads (Net), its limits, and its
// AlgorithmDef (description, limits, model, plan builder). The one list
// (algorithms.def) names each file's AlgorithmDef; the catalog
// (sim/catalog/catalog.hpp), the plan table (plan_builders.hpp) and the run
// table (sim/rank/run_table.cpp) are built from the list. MPI-free.
#pragma once

#include <cstdint>

#include "machine.hpp"
#include "plan.hpp"
#include "plan_builders.hpp"

namespace collsim::sim {

// The machine as an algorithm's cost model reads it: the one machine
// description (platforms/machine.hpp) and the bytes of one element of the
// case. The models are seed 004's α-β-γ ones (§2.1) with SMPI's message
// envelope: a message of m bytes costs its fixed cost (α; on a LogGP
// machine max(o, g) + L + o, per_message) plus (m + envelope)β. full_duplex:
// a rank can send and receive at once at full bandwidth (seed 004's "bi");
// otherwise a simultaneous send and receive share the link ("uni": an
// exchange of m bytes each way costs α + 2mβ, seed 004's fβ = 2).
// Ranks are placed block-wise, node_size() to a node (1: every rank its own
// node); a message within a node costs intra_alpha + (m + envelope)
// intra_beta (plus the overheads). The node-aware algorithms' models and
// the circulant rounds' (shift_round) read these.
struct Net : platforms::Machine {
  int64_t element = 1;  // bytes of one element: plans cut blocks of whole elements

  Net() = default;
  explicit Net(const platforms::Machine& m, int64_t element_bytes = 1) : Machine(m), element(element_bytes) {}
  double message(int64_t bytes) const { return per_message(bytes) + static_cast<double>(bytes + envelope) * beta; }
  // The largest of `blocks` blocks of whole elements that `bytes` is cut
  // into (engine::even_blocks): ⌈elements/n⌉ elements.
  int64_t block_bytes(int64_t bytes, int64_t blocks) const {
    const int64_t elements = bytes / element;
    return (elements / blocks + (elements % blocks != 0 ? 1 : 0)) * element;
  }
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
    n.cores_per_node = 1, n.round_robin = false;
    return n;
  }
  // Ranks on a full node and the node count, for p ranks.
  int64_t node_ranks(int64_t p) const { return node_size() < p ? node_size() : p; }
  int64_t node_count(int64_t p) const { return (p - 1) / node_ranks(p) + 1; }
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
  // A LogP tree's lag for a whole message of `bytes` (logp_tree.hpp): the
  // time from a send's start until its receiver can send on (message()),
  // over the sender's gap between two sends: max(o, g), or the NIC's wire
  // time where that is longer (the sender's o + wire time where the sender
  // pays the bytes). An eager message frees its sender early; a rendezvous
  // one (every size on α-β platforms and topologies) holds it until the
  // receiver has it: lag 1, the binomial tree. Between nodes only: the
  // tree knows no nodes. `combines`: the tree run backwards (reduce), where
  // the receiver ⊕s each message (γ a byte) before it takes the next: the
  // gap is the receiver's o + γm (or the NIC's wire time in), the lag runs
  // to the ⊕'s end.
  double tree_lag(int64_t bytes, bool combines = false) const;
  // The gap that tree_lag divides by, in seconds.
  double tree_gap(int64_t bytes, bool combines = false) const;
};

// What the plan builders of collective c read of the machine for a message
// (bcast) or vector (reduce) of `bytes` cut into `blocks` (the row's n; 1
// where the algorithm sends the whole vector): the lag of one message,
// block_bytes.
inline plan::PlanParams plan_params(const Net& net, Collective c, int64_t bytes, int64_t blocks) {
  return {net.node_size(), net.tree_lag(net.block_bytes(bytes, blocks), c == Collective::reduce)};
}

// Limits, as bit flags.
enum Limit : unsigned {
  kNone = 0,
  kBlocks = 1u << 0,       // pipelined: takes a block count n (--blocks)
  kCommutative = 1u << 1,  // needs a commutative ⊕: wrong results with matmul
  kSmpiBuiltin = 1u << 2,  // a SimGrid built-in, selected by --cfg=smpi/<collective>:<name>
  kExactModel = 1u << 3,   // the model equals the simulation on full-duplex alphabeta
  kPlan = 1u << 4,         // runs its plan (algorithms/plan_builders.hpp) through the plan executor
  kSegments = 1u << 5,     // cuts each of p segments (not the whole vector) into its n blocks
  // Its plan is a dependency graph (plan.hpp "Order"): its model is the
  // closed form on every platform, and the engine times it as SMPI runs
  // the executor's graph path (engine/graph_links.hpp), not by the
  // lock-step sweep.
  kGraph = 1u << 6,
};

using Model = double (*)(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
using FlatBuilder = plan::Plan (*)(int64_t p, int64_t root, int64_t blocks);
using NodeBuilder = plan::Plan (*)(int64_t p, int64_t root, int64_t blocks, int64_t node_size);
using LagBuilder = plan::Plan (*)(int64_t p, int64_t root, int64_t blocks, double lag);

// An algorithm's own statement of itself, defined in its file as
//   const AlgorithmDef def_<id>{limits, "description", model_<id>, plan::<id>};
// (constant-initialized, so the tables read it safely at start-up).
//   limits       kCommutative, kExactModel, kSegments, kGraph, kPlan (an MPI-code row
//                that runs its plan where it can): never kBlocks, which the
//                list's Cut states (Cut::pipelined: takes a block count n)
//   description  one line for --help, `collsim algorithms`, docs/algorithms.md
//   model        predicted seconds for p ranks, `bytes` bytes, n blocks
//   build        its plan builder (plan_builders.hpp), or build_on_nodes for
//                one that places node_size ranks on a node, or build_with_lag
//                for a LogP tree (PlanParams::lag); none for an MPI-code
//                algorithm without a plan
struct AlgorithmDef {
  // An MPI-code algorithm without a plan (yet): no `collsim plan`, no
  // --engine loggp, and no model on platforms with LogGP's o or g.
  constexpr AlgorithmDef(unsigned l, const char* what, Model m) : limits(l), description(what), model(m) {}
  constexpr AlgorithmDef(unsigned l, const char* what, Model m, FlatBuilder b)
      : limits(l), description(what), model(m), build(b) {}
  constexpr AlgorithmDef(unsigned l, const char* what, Model m, NodeBuilder b)
      : limits(l), description(what), model(m), build_on_nodes(b) {}
  constexpr AlgorithmDef(unsigned l, const char* what, Model m, LagBuilder b)
      : limits(l), description(what), model(m), build_with_lag(b) {}
  unsigned limits;
  const char* description;
  Model model;
  FlatBuilder build = nullptr;
  NodeBuilder build_on_nodes = nullptr;
  LagBuilder build_with_lag = nullptr;
};

// Declared from the one list: algorithms/<collective>/<name>.cpp defines each.
#define COLLSIM_OURS(coll, name, id, cut, shape) extern const AlgorithmDef def_##id;
#define COLLSIM_PLAN COLLSIM_OURS
#define COLLSIM_BUILTIN(coll, name, limits, what)
#include "algorithms.def"
#undef COLLSIM_OURS
#undef COLLSIM_PLAN
#undef COLLSIM_BUILTIN

}  // namespace collsim::sim
