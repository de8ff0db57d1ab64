// A plan's steps as both of the engine's evaluators read them (loggp.cpp's
// sweep over independent messages, shared_links.cpp's event simulation over
// shared links): per rank, in step order, whom the step sends to and
// receives from, the bytes it sends, and the ⊕ it does before its send and
// after its halves, with the holdings the executor keeps (plan.hpp: acc,
// aux; where blocks start empty a store costs nothing and the first combine
// into a block is a copy).
//
// Memory: each rank's step source, and where blocks start empty or aux is
// used, p·B bits of holdings, refused past plan::kMaxHoldings (2^32) bits,
// except for a bcast or allgatherv whose every receive is a store: nothing
// is kept for it (circulant allgatherv at p = 2^20, B = p·n).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loggp.hpp"
#include "plan.hpp"

namespace collsim::engine {

// What rank r's next step asks of the network and of its CPU.
struct StepCost {
  int64_t send_to = -1,
          recv_from = -1;  // the plan's peers; -1: no such half (empty halves dropped)
  int64_t send_bytes = 0;
  double before = 0;  // seconds of ⊕ before the send (an acc+input or aux send)
  double after = 0;   // seconds of ⊕ after the halves (combines, a fold or a join)
  int64_t before_bytes = 0,
          after_bytes = 0;  // the bytes of those ⊕ (for a tracer)
};

// The evaluators that take steps in order (the sweep, the shared links,
// the loggopsim rules' Simulator) refuse a graph plan with
// std::invalid_argument: graph_links.hpp times it (or goal_sim.hpp its
// GOAL export). PlanSteps itself takes either: a graph plan's costs in
// plan order.
void require_lock_step(const plan::Header& h);

class PlanSteps {
 public:
  // Throws std::invalid_argument where the holdings would pass 2^32 bits
  // (for a bcast or allgatherv: at the first step that reads them).
  PlanSteps(const plan::Plan& plan, const BlockBytes& bytes, double gamma);

  // Rank r's next step into `c`, its holdings updated as the executor
  // updates them when it runs the step; false, and r's step source
  // released, when r has none left. Ranks may be taken in any order; each
  // rank's steps in order.
  bool next(int64_t r, StepCost& c);

 private:
  bool holdings_fit() const;
  std::string too_many_holdings(const std::string& why) const;
  void read_held(int64_t r, const plan::BlockList& blocks) const;
  double op_time(int64_t r, const plan::BlockList& blocks, bool hold);
  std::vector<bool>::reference aux_bit(int64_t r, int64_t b);
  bool acc_holds(int64_t r, int64_t b) const;
  double aux_time(int64_t r, const plan::BlockList& blocks, plan::Value v, bool join);
  void hold(int64_t r, const plan::BlockList& blocks);

  const plan::Header& h_;
  const BlockBytes& bytes_;
  double gamma_;
  std::vector<plan::StepSource> sources_;  // released as ranks finish
  std::vector<bool> held_;                 // [r·B + b]: rank r's acc holds block b
  bool untracked_ = false;                 // blocks start empty, held_ would pass 2^32 bits
  std::vector<bool> aux_;                  // [r·B + b]: rank r's aux holds block b (once used)
  plan::Step step_;                        // the step being taken apart
  int64_t op_bytes_ = 0;                   // bytes of the ⊕ being costed
};

}  // namespace collsim::engine
