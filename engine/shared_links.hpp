// The plan engine on shared links (issue 33): a plan's time on a machine
// whose messages share links, as SMPI runs the plan executor there. Ranks
// placed on nodes share their node's link (its NIC: the private link of
// SimGrid's cluster, UP and DOWN halves where full duplex, one SHARED link
// where half duplex); ranks of one node talk over its loopback link; a
// topology's links are shared by the routes that cross them
// (platforms/routes.hpp gives SimGrid's links and routes, fluid.hpp shares
// their bandwidth as SimGrid's CM02 model does).
//
// The rules are loggp.hpp's rendezvous ones, now in time order because a
// message's end depends on the messages beside it:
//   - a rank posts its step when the previous one has completed and its ⊕
//     are done (plus the ⊕ of an acc+input send); with LogGP overheads
//     (a topology on a LogGP platform) a step with both halves first
//     spends max(o, g) in MPI_Isend (SMPI's smpi/ois sleep, before the
//     step's receive is posted); a step with one half is a blocking
//     MPI_Send or MPI_Recv (SMPI's MPI_Sendrecv with MPI_PROC_NULL:
//     smpi_pmpi_request.cpp), whose rendezvous send SMPI charges nothing
//     (smpi/os is slept only for detached or nonblocking sends:
//     smpi_request.cpp, Request::start, at v3.32);
//   - a message starts when both of its halves are posted, as a flow of
//     bytes + envelope over the route between the two ranks' nodes
//     (latency, then bandwidth shared max-min); both halves end when it
//     arrives. SMPI charges no receive overhead on a rendezvous message
//     (smpi/or is slept only for detached ones: smpi_request.cpp,
//     finish_wait, at v3.32).
//   - messages that start at one instant start in rank order (SimGrid's
//     actors run in an order of their own; ties of that kind change times
//     by rounding: fluid.hpp).
// On a flat LogGP platform whose NICs carry the bytes (the default since
// issue 33) a message under the eager limit (Machine::eager_below) is
// eager instead: its send spends max(o, g) (smpi/os or smpi/ois, one half
// or two), then its message flows at once and the send is done
// (detached); a receive takes the pair's oldest eager message (MPI's
// non-overtaking order, whichever arrives first) and ends o (smpi/or)
// after the later of its posting and that arrival. A rank's overlapping
// eager sends share its NIC's UP half, the messages into a node its DOWN
// half.
// Flat LogGP platforms whose senders pay the bytes (eager sends, unbounded
// links) share nothing a message's time depends on: loggp.hpp evaluates
// them exactly, as it does flat α-β platforms of one rank a node.
//
// Cost: O(steps · log p) for the rank events plus fluid.hpp's solves, the
// largest part where many messages share one link (a fat tree's uplinks).
// Memory: ~100 bytes a rank, PlanSteps's holdings, fluid.hpp's ~90 bytes a
// message in flight plus 32 a hop.
#pragma once

#include <limits>
#include <vector>

#include "fluid.hpp"
#include "loggp.hpp"
#include "platform.hpp"
#include "routes.hpp"

namespace collsim::engine {

// Every link of `routes`, in order, into `net`: link l of the platform is
// link l of the fluid network (shared here and in graph_links.hpp).
void add_links(const platforms::Routes& routes, FluidNetwork& net);

// A message of `bytes` on `route` (links of `routes`, whose latencies sum
// to `latency`) as if no other message shared its links: its latency,
// then the slowest link's whole bandwidth (SimGrid's bound for a flow
// alone); an empty route is its latency. `--contention off`'s time.
double alone_seconds(const platforms::Routes& routes, const std::vector<int64_t>& route, double latency, double bytes);

// Does a plan's time on `pf` depend on shared links: bytes on the links
// (platforms::bytes_on_links) and ranks sharing nodes, a topology, half
// duplex links (a rank's send and receive share one), or eager messages (a
// rank's sends overlap)?
bool shares_links(const Machine& pf);

// What one evaluation may spend in the max-min solver, counted in the
// (message, link) pairs its solves set up (FluidNetwork::solved_hops):
// where a plan's messages fall out of step (circulant bcast's eager
// blocks on a crossbar of many-core nodes), every event re-solves all the
// messages in flight, so the work grows as the messages times those in
// flight, which the estimate made before the run does not see
// (engine/work_estimate.hpp, kSecondsPerSolvedHop). Past
// `max_solved_hops` the evaluation stops with a LimitError. (A projection
// from the pace so far does not work: such a plan's ranks drift apart
// gradually, so its first million messages of 2^17 ranks on 8-core nodes
// cost 400 pairs each at the end and 6 at the start.)
struct SolveBudget {
  double max_solved_hops = std::numeric_limits<double>::infinity();
};

// The plan's time on `pf` (platform_xml of it as SMPI runs it). With
// `shared` false, every message as if alone on its route (its latency,
// then the slowest link's bandwidth): the same rules without contention,
// to see what sharing costs (`--contention off`). Throws
// std::invalid_argument on a plan that cannot run to its end, or on a
// platform whose senders pay the bytes (shares_links is false there).
Result evaluate_shared(const plan::Plan& plan, const BlockBytes& block_bytes, const Machine& pf, bool per_rank = false,
                       EventSink* sink = nullptr, bool shared = true, const SolveBudget& budget = {});

}  // namespace collsim::engine
