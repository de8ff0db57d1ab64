// The block count of a case, decided here once for everyone who runs one:
// the harness (under SMPI and under mpirun), the engine (`--engine loggp`),
// the PMPI library and the work estimates all call resolve_blocks, and a
// result row's `blocks` column is what it returned. Where the ranks share
// links (nodes of several cores, a topology) the driver searches n on the
// contention-aware engine instead (sim/driver/engine_run.hpp,
// contention_blocks) and hands its n to the harness
// (HarnessArgs::chosen_blocks); the models here ignore that sharing.
//
// The policy that picks the block count n of a pipelined algorithm (kBlocks)
// is kept apart from the algorithms as Open MPI keeps coll/tuned apart from
// coll/base: the algorithms run any n they are given.
//
// Rule: the n in [1, e] that minimises the algorithm's own cost model on the
// platform's α and β (ternary search down to 32 candidates, then all of
// them; the models are unimodal in n up to the rounding of ⌈m/n⌉). For
// circulant, (n − 1 + q)(α + β m/n) is smallest at n = sqrt((q − 1)βm/α),
// i.e. blocks of F·sqrt(m/(q − 1)) bytes with F = sqrt(α/β): the paper's
// F·sqrt(m/⌈log2 p⌉) rule with F set by the model instead of by experiment.
// e is the number of elements cut into blocks: of the vector, or of one of
// the p segments (⌈elements/p⌉, kSegments).
#pragma once

#include <cstdint>
#include <vector>

#include "catalog.hpp"
#include "plan.hpp"
#include "plan_builders.hpp"

namespace collsim::sim {

// What a case's block count depends on besides the algorithm and the
// network.
struct BlockCase {
  int64_t p = 1;
  int64_t bytes = 0;
  // --blocks, COLLSIM_BLOCKS or a tuning rule's n; 0: the policy picks.
  int64_t fixed = 0;
  // kSegments (allgatherv, reduce_scatter): each rank's segment in bytes
  // where the layout cuts the vector (--layout); empty: even segments.
  std::vector<int64_t> segment_bytes;
};

// The block count of one case of `algo`, the `blocks` of its row, with one
// meaning under every engine:
//   - an algorithm with kBlocks (a pipeline): n, its blocks per message
//     stream (per segment for kSegments), the number --blocks sets: `fixed`
//     where given, else the policy's pick on `net` (choose_blocks below);
//   - any other algorithm: 1. The pieces such an algorithm cuts the data
//     into itself (ring and scatter-allgather p, halving-doubling and
//     binary-blocks 2^floor(log2 p)) are part of the algorithm, not a
//     parameter; plan_cut_blocks gives them.
// `net` is the machine that times the case (its models charge a message's
// fixed cost, per_message: the overheads of a LogGP platform included;
// Net{}, alphabeta's numbers, where no platform describes it: the PMPI
// library on a real machine) and net.element the bytes of one element
// (element_bytes(collective, op)): blocks hold whole elements.
int64_t resolve_blocks(const Algorithm& algo, const Net& net, const BlockCase& c);

// Whether resolve_blocks searches the policy (a pipeline without a fixed
// n): the search evaluates the cost model some 70 times, so the harness
// lets one rank do it and broadcasts the result.
bool policy_decides(const Algorithm& algo, const BlockCase& c);

// A plan file's rows: the file's own block count B (its header's blocks).
int64_t resolve_blocks(const plan::Header& plan);

// The block count B of the plan that algorithm `pa` runs at p ranks for a
// row's `blocks`: that n where the plan is pipelined, else the plan's own
// cut (plan::cut_blocks: 1, p or 2^floor(log2 p)).
int64_t plan_cut_blocks(const plan::PlanAlgorithm& pa, int64_t blocks, int64_t p);

// The largest n the policy considers: the elements of what is cut (the
// vector, or one of its p segments for kSegments), at least 1.
int64_t most_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes);

// The policy's pick (callers use resolve_blocks): 1 for algorithms without
// kBlocks or m = 0.
int64_t choose_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes);

// The same for a segmented algorithm (kSegments: allgatherv, reduce_scatter)
// with the actual bytes of each rank's segment, which need not be even
// (--layout ramp, single). The models assume even segments; with uneven
// ones the first q = ⌈log2 p⌉ rounds cost more. In round t < q a rank
// forwards, for each root within distance 2^t behind it, one block of that
// root's segment: at most W(2^t)/n bytes, W(w) the largest sum of w
// cyclically consecutive segments, against 2^t·m/(p·n) when even. So the
// cost is the model plus (β [+ γ]) Σ_{t<q} (W(2^t) − 2^t·m/p)/n, and n may
// go up to the largest segment's elements. Worked example, p = 64,
// m = 16 MiB on alphabeta: even, n = 1 (m·63/64·β + 6α = 16.5 ms);
// single (W = m): the excess is (6 − 63/64)·mβ/n, 84 ms at n = 1, and the
// policy takes n = 128 (18.1 ms simulated, 1.09× even); ramp: W(32) =
// 0.75 m, the excess 0.65·mβ/n, n = 46 (17.1 ms, 1.03×). Segments within one element of each other
// are even: choose_blocks(p, bytes).
int64_t choose_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes,
                      const std::vector<int64_t>& segment_bytes);

}  // namespace collsim::sim
