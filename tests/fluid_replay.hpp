// Runs a list of transfers through engine/fluid.hpp the way SimGrid's
// engine runs them when each starts from an actor's sleep_until(start)
// (tests/fluid_simgrid_record.cpp): time moves to the earlier of the next
// network event and the next start, and a start within 1e-9 s after the
// time reached happens at it (sg_surf_precision, as for any SimGrid event).
#pragma once

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "fluid.hpp"

namespace collsim::engine::testing {

struct Transfer {
  double start = 0;
  std::vector<FluidNetwork::LinkId> route;
  double latency = 0;
  double bytes = 0;
};

// Each transfer's completion time. Transfers due at the same time start in
// list order (or `order`, a permutation of the list by start time, where
// SimGrid's actors called in another order). With `finished`, also the
// transfers in the order the network reported them finished.
inline std::vector<double> replay(FluidNetwork& net, const std::vector<Transfer>& list,
                                  std::vector<size_t> order = {}, std::vector<size_t>* finished = nullptr) {
  if (order.empty()) {
    order.resize(list.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return list[a].start < list[b].start; });
  }
  std::vector<double> end(list.size(), -1);
  std::vector<size_t> owner;  // FlowId -> transfer
  std::vector<FluidNetwork::Finished> done;
  size_t next = 0;
  while (next < order.size() || net.in_flight() > 0) {
    const double t = next < order.size() ? list[order[next]].start : FluidNetwork::kNever;
    const double now = std::min(net.next_event(), t);
    if (now == FluidNetwork::kNever) throw std::logic_error("replay: flows in flight but no event");
    done.clear();
    net.advance_to(now, done);
    for (const auto& d : done) {
      end[owner[d.flow]] = d.time;
      if (finished) finished->push_back(owner[d.flow]);
    }
    for (; next < order.size() && list[order[next]].start - now < FluidNetwork::kTimePrecision; ++next) {
      const Transfer& x = list[order[next]];
      const FluidNetwork::FlowId id = net.start(x.route, x.latency, x.bytes);
      if (owner.size() <= id) owner.resize(id + 1);
      owner[id] = order[next];
    }
  }
  return end;
}

}  // namespace collsim::engine::testing
