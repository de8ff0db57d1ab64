// The plan engine for graph plans (plan.hpp "Order", issue 34): a graph
// plan's time as SMPI runs the plan executor's nonblocking path on the
// platform's links (shared_links.hpp's routes and max-min sharing; where
// the senders pay the bytes, `oneported`, links all but unbounded, as the
// platform writer makes them).
// Each rank is one SMPI actor running sim/rank/plan_executor.cpp's
// run_graph, and the rules follow that code and SMPI 3.32
// (src/smpi/mpi/smpi_request.cpp):
//   - every receive is posted at the start, at no cost, in plan order; the
//     k-th send from s to d meets d's k-th receive from s;
//   - the actor starts ready steps lowest index first: the ⊕ before a send
//     (γ per byte), then the send, a persistent request started: an eager
//     one (fewer bytes than Machine::eager_below) sleeps max(o, g) where
//     the machine has overheads (smpi/os; plus m·G where the senders pay
//     the bytes, smpi/ois's per-byte factor), flows at once and its request is
//     done (detached); a rendezvous one sleeps nothing (SMPI charges it as
//     a blocking MPI_Send), flows at once too (its receive is posted) and
//     is done when it arrives; a fold or join is its ⊕;
//   - a received message takes effect (its ⊕ after, γ per byte) once its
//     step has started; a step completes when its halves have, readying
//     the steps that wait only for it;
//   - with nothing ready the actor calls MPI_Waitany: a finished detached
//     send first (the lowest index), else the lowest-index request done by
//     then, else it sleeps until the next completion; an eager receive's
//     request costs o (smpi/or) when Waitany returns it;
//   - requests are indexed as the executor's: step k's send 2k, its
//     receive 2k + 1;
//   - which of two messages ending at one instant SimGrid finishes first
//     decides what MPI_Waitany returns, and so the graph's later order;
//     that depends on the order in which messages started, so events of
//     one instant are taken in SimGrid's order (take_instant in the .cpp):
//     the ranks whose ⊕ or sleep ends there first, in the CPU model's heap
//     order, then those woken by messages, in the order those ended (the
//     harness wakes every rank at the start in rank order:
//     sim/rank/start_instant.cpp); then in sub-rounds of one MPI call a
//     rank (on platforms where SMPI posts a message in one simcall);
//   - every message goes through the solver, as in SimGrid, none solo
//     (fluid.hpp, solve_every_message): a solo message keeps its first
//     stamp where SimGrid re-stamps it at each solve of its link.
// Measured against SMPI, two-tree-overlap bcast, reduce, allreduce, scan
// and exscan at p = 4 to 8 on two omnipath36x32 nodes, 1 to 4 blocks of
// 64 KiB: 60 cases, every one within 1e-4 (before these rules: 13 past
// 0.1 %, the worst 15 %; PlanGraphEngine.SmallNodeCasesTakeSmpisTimeExactly).
// On LogGP platforms with an eager limit each posting also takes the
// receiver's mailbox mutex and probes (3 to 5 simcalls, the lock waiting
// on other ranks): not modelled, there posts come first, then Waitany
// calls, in the order queued (two-tree-overlap at p = 4 to 8 on loggp,
// flat and 2 nodes, 4 KiB and 256 KiB: 16 of 180 cases past 0.1 %, the
// worst 13 %, as before; sub-rounds of one simcall a posting there gave 5
// of 180, but halving-doubling reduce at p = 12, 1 MiB, 15 % off where
// this order is exact).
// A rank's finish is its clock when its last step completes.
//
// Cost: O(steps + dependencies + events · log events) plus the fluid
// solves, and the plan's steps produced twice (counted, then kept);
// memory: every rank's steps at once, kGraphStepBytes a step with its
// requirements and receive lists, fluid.hpp's per message in flight; SimGrid's order (every
// message solved, the instant's events ordered, a set of CPU instants per
// node) cost two-tree-overlap allreduce at p = 16,384 on omnipath36x32 as
// 512 x 32, 1 MiB, 49 to 52 s and 1.43 GiB against 42 to 44 s and 1.39
// GiB before. Plans of more than
// kMaxGraphSteps steps in all are refused (LimitError) before any is kept.
#pragma once

#include "loggp.hpp"
#include "platform.hpp"

namespace collsim::engine {

// What a graph plan's step holds in the evaluator, as measured:
// two-tree-overlap bcast, n = 8, 64 KiB, on 128-core nodes of a fat tree
// (16 steps a rank) peaks at 165 MiB at 2^15 ranks and 642 MiB at 2^17, 318
// bytes a step between them (453 before the step sources were released
// rank by rank). 2^20 ranks of that plan peaked at 7,173 MiB before.
inline constexpr int64_t kGraphStepBytes = 320;
inline constexpr int64_t kMaxGraphSteps = int64_t{1} << 25;  // about 10 GiB held

// Throws std::invalid_argument for a lock-step plan or a plan that does not
// run to its end.
// Refuses a plan of more than `max_steps` steps in all with LimitError.
// With `shared` false, every message as if alone on its route
// (shared_links.hpp's alone_seconds: `--contention off`).
Result evaluate_graph(const plan::Plan& plan, const BlockBytes& block_bytes, const Machine& pf, bool per_rank = false,
                      bool shared = true, int64_t max_steps = kMaxGraphSteps);

}  // namespace collsim::engine
