// engine/fluid.hpp on cases worked out by hand from SimGrid's CM02 rules
// (the rules: fluid.hpp). test_fluid_simgrid.cpp holds it against SimGrid.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <stdexcept>
#include <vector>

#include "due_queue.hpp"
#include "fluid.hpp"
#include "fluid_replay.hpp"

using collsim::engine::DueQueue;
using collsim::engine::FluidNetwork;
using collsim::engine::testing::replay;
using collsim::engine::testing::Transfer;
using Sharing = FluidNetwork::Sharing;

namespace {

constexpr double kGB = 1e9;  // bytes/s
constexpr double kUs = 1e-6;

double rel(double expected) { return expected * 1e-12; }

}  // namespace

TEST(Fluid, OneFlowTakesLatencyPlusBytesOverBandwidth) {
  FluidNetwork net;
  const auto up = net.add_link(kGB, Sharing::shared), down = net.add_link(2 * kGB, Sharing::shared);
  const auto end = replay(net, {{0, {up, down}, 2 * kUs, 1e6}});
  EXPECT_NEAR(end[0], 2 * kUs + 1e6 / kGB, rel(1e-3));  // the slower link
}

TEST(Fluid, TwoFlowsOnALinkGetHalfEach) {
  FluidNetwork net;
  const auto l = net.add_link(kGB, Sharing::shared);
  const auto end = replay(net, {{0, {l}, kUs, 1e6}, {0, {l}, kUs, 1e6}});
  EXPECT_NEAR(end[0], kUs + 2e6 / kGB, rel(2e-3));
  EXPECT_NEAR(end[1], kUs + 2e6 / kGB, rel(2e-3));
}

TEST(Fluid, AFinishedFlowFreesItsBandwidth) {
  FluidNetwork net;
  const auto l = net.add_link(kGB, Sharing::shared);
  const auto end = replay(net, {{0, {l}, kUs, 1e6}, {0, {l}, kUs, 3e6}});
  // Both at 0.5 GB/s until the first has sent its 1 MB (2 ms), then 2 MB alone.
  EXPECT_NEAR(end[0], kUs + 2e-3, rel(2e-3));
  EXPECT_NEAR(end[1], kUs + 2e-3 + 2e6 / kGB, rel(4e-3));
}

TEST(Fluid, SharesAreInverseToLatency) {
  FluidNetwork net;
  const auto l = net.add_link(kGB, Sharing::shared);
  FluidNetwork::FlowId a = net.start({l}, 1 * kUs, 1e6);
  FluidNetwork::FlowId b = net.start({l}, 3 * kUs, 1e6);
  std::vector<FluidNetwork::Finished> done;
  net.advance_to(1 * kUs, done);
  net.next_event();
  EXPECT_DOUBLE_EQ(net.rate(a), kGB);  // b is still in its latency: no bandwidth
  EXPECT_EQ(net.rate(b), 0);
  net.advance_to(3 * kUs, done);
  net.next_event();
  // Penalties 1 µs and 3 µs: rates 3:1.
  EXPECT_NEAR(net.rate(a), 0.75 * kGB, 1e-3);
  EXPECT_NEAR(net.rate(b), 0.25 * kGB, 1e-3);
  while (net.in_flight() > 0) net.advance_to(net.next_event(), done);
  ASSERT_EQ(done.size(), 2u);
  // a: 2 kB alone, then 998 kB at 0.75 GB/s; b: the link never idles from 1 µs on.
  EXPECT_EQ(done[0].flow, a);
  EXPECT_NEAR(done[0].time, 3 * kUs + 998e3 / (0.75 * kGB), rel(2e-3));
  EXPECT_EQ(done[1].flow, b);
  EXPECT_NEAR(done[1].time, 1 * kUs + 2e6 / kGB, rel(2e-3));
}

TEST(Fluid, ALatencyFreeRouteHasPenaltyOne) {
  // comm_action_set_variable: variable_new(action, 1.0, ...) when the latency
  // is 0, so against a 1 µs flow it gets a 1e-6 : 1 share.
  FluidNetwork net;
  const auto l = net.add_link(kGB, Sharing::shared);
  FluidNetwork::FlowId a = net.start({l}, 0, 1e6);
  FluidNetwork::FlowId b = net.start({l}, kUs, 1e6);
  std::vector<FluidNetwork::Finished> done;
  net.advance_to(kUs, done);
  net.next_event();
  const double w = 1 / 1.0 + 1 / kUs;
  EXPECT_NEAR(net.rate(a), kGB * (1 / 1.0) / w, 1e-6);
  EXPECT_NEAR(net.rate(b), kGB * (1 / kUs) / w, 1e-3);
}

TEST(Fluid, AFatpipeDoesNotShareAmongEqualLatencies) {
  FluidNetwork net;
  const auto loop = net.add_link(kGB, Sharing::fatpipe);
  const auto end = replay(net, {{0, {loop}, kUs, 1e6}, {0, {loop}, kUs, 1e6}, {0, {loop}, kUs, 1e6}});
  for (double e : end) EXPECT_NEAR(e, kUs + 1e6 / kGB, rel(1e-3));
}

TEST(Fluid, AFatpipeSaturatedByASmallerLatencyHoldsTheOthersAtItsLevel) {
  // maxmin.cpp: a FATPIPE's level is bandwidth / max(1/p) over its flows;
  // all of them are fixed at level / p, so the 2 µs flow gets half the
  // bandwidth while the 1 µs one is there. Unless the 1 µs flow's bound
  // (the fatpipe's bandwidth) times its penalty is below that level in
  // doubles: then it is fixed at its bound alone first (next test).
  ASSERT_FALSE(kGB * (1 * kUs) < kGB / (1 / (1 * kUs)));
  FluidNetwork net;
  const auto pipe = net.add_link(kGB, Sharing::fatpipe);
  FluidNetwork::FlowId a = net.start({pipe}, 1 * kUs, 1e6);
  FluidNetwork::FlowId b = net.start({pipe}, 2 * kUs, 1e6);
  std::vector<FluidNetwork::Finished> done;
  net.advance_to(2 * kUs, done);
  net.next_event();
  EXPECT_DOUBLE_EQ(net.rate(a), kGB);
  EXPECT_NEAR(net.rate(b), 0.5 * kGB, 1e-3);
  while (net.in_flight() > 0) net.advance_to(net.next_event(), done);
  ASSERT_EQ(done.size(), 2u);
  const double a_end = 1 * kUs + 1e6 / kGB;
  EXPECT_NEAR(done[0].time, a_end, rel(1e-3));
  // b: 0.5 GB/s from 2 µs to a_end, then alone at 1 GB/s.
  const double b_sent = 0.5 * kGB * (a_end - 2 * kUs);
  EXPECT_NEAR(done[1].time, a_end + (1e6 - b_sent) / kGB, rel(2e-3));
}

TEST(Fluid, AFatpipeFlowThatReachesItsBoundFirstLeavesTheOthersTheirs) {
  // bound · p = 3800 < 1e9 / (1 / 3.8e-6) = 3800.0000000000005: the 3.8 µs
  // flow is fixed at its bound before the level, then the 7.6 µs one is
  // alone on the fatpipe and gets the whole bandwidth too.
  const double p = 3.8e-6;
  ASSERT_TRUE(kGB * p < kGB / (1 / p));
  FluidNetwork net;
  const auto pipe = net.add_link(kGB, Sharing::fatpipe);
  FluidNetwork::FlowId a = net.start({pipe}, p, 1e6);
  FluidNetwork::FlowId b = net.start({pipe}, 2 * p, 1e6);
  std::vector<FluidNetwork::Finished> done;
  net.advance_to(2 * p, done);
  net.next_event();
  EXPECT_EQ(net.rate(a), kGB);
  EXPECT_NEAR(net.rate(b), kGB, 1e-3);
}

TEST(Fluid, AFatpipeFlowOfAnotherLatencyJoiningTakesTheOthersIntoTheSolve) {
  // a (1 µs) is alone on the fatpipe, so it is never solved (a "solo"
  // flow: may_go_solo). b (2 µs) starts while a transmits: from b's latency
  // end both are solved, the fatpipe's level 1e9 / (1 / 1 µs) gives a the
  // whole bandwidth and b half of it until a ends, then b all of it. Left
  // out of the solve, a would leave b the whole bandwidth (1,502 µs).
  ASSERT_FALSE(kGB * (1 * kUs) < kGB / (1 / (1 * kUs)));
  FluidNetwork net;
  const auto pipe = net.add_link(kGB, Sharing::fatpipe);
  const auto end = replay(net, {{0, {pipe}, 1 * kUs, 1e6}, {500 * kUs, {pipe}, 2 * kUs, 1e6}});
  const double a_end = 1 * kUs + 1e6 / kGB;
  EXPECT_NEAR(end[0], a_end, rel(1e-3));
  const double b_sent = 0.5 * kGB * (a_end - 502 * kUs);
  EXPECT_NEAR(end[1], a_end + (1e6 - b_sent) / kGB, rel(2e-3));
}

TEST(Fluid, MaxMinGivesTheRestToTheFlowNotBottleneckedElsewhere) {
  FluidNetwork net;
  const auto shared = net.add_link(kGB, Sharing::shared), slow = net.add_link(0.2 * kGB, Sharing::shared);
  FluidNetwork::FlowId a = net.start({shared, slow}, kUs, 1e6);
  FluidNetwork::FlowId b = net.start({shared}, kUs, 1e6);
  std::vector<FluidNetwork::Finished> done;
  net.advance_to(kUs, done);
  net.next_event();
  EXPECT_NEAR(net.rate(a), 0.2 * kGB, 1e-3);
  EXPECT_NEAR(net.rate(b), 0.8 * kGB, 1e-3);
  while (net.in_flight() > 0) net.advance_to(net.next_event(), done);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].flow, b);
  EXPECT_NEAR(done[0].time, kUs + 1e6 / (0.8 * kGB), rel(2e-3));
  EXPECT_NEAR(done[1].time, kUs + 1e6 / (0.2 * kGB), rel(6e-3));  // slow link all along
}

TEST(Fluid, ALinkNamedTwiceCountsTwiceWhenShared) {
  FluidNetwork net;
  const auto l = net.add_link(kGB, Sharing::shared);
  const auto end = replay(net, {{0, {l, l}, kUs, 1e6}});
  EXPECT_NEAR(end[0], kUs + 2e6 / kGB, rel(2e-3));
}

TEST(Fluid, FlowsInTheirLatencyUseNoBandwidth) {
  FluidNetwork net;
  const auto l = net.add_link(kGB, Sharing::shared);
  const auto end = replay(net, {{0, {l}, kUs, 1e5}, {0, {l}, 1e-3, 1e5}});
  EXPECT_NEAR(end[0], kUs + 1e5 / kGB, rel(1e-4));
  EXPECT_NEAR(end[1], 1e-3 + 1e5 / kGB, rel(1e-3));
}

TEST(Fluid, IndependentComponentsKeepTheirRates) {
  FluidNetwork net;
  const auto l1 = net.add_link(kGB, Sharing::shared), l2 = net.add_link(kGB, Sharing::shared);
  const auto end = replay(net, {{0, {l1}, kUs, 1e6}, {0, {l2}, kUs, 1e6}, {5e-4, {l2}, kUs, 1e5}});
  EXPECT_NEAR(end[0], kUs + 1e6 / kGB, rel(1e-3));
  // l2: the first alone until 5e-4 + 1 µs, then halves for 2e5 bytes.
  EXPECT_NEAR(end[2], 5e-4 + kUs + 2e5 / kGB, rel(1e-3));
  EXPECT_NEAR(end[1], kUs + 1.1e6 / kGB, rel(1e-3));
}

TEST(Fluid, EventsWithinANanosecondHappenTogether) {
  // update_actions_state_lazy: every event within sg_surf_precision of now.
  FluidNetwork net;
  const auto l1 = net.add_link(kGB, Sharing::shared), l2 = net.add_link(kGB, Sharing::shared);
  const auto end = replay(net, {{0, {l1}, kUs, 1e6}, {0, {l2}, kUs, 1e6 + 0.5}});
  EXPECT_NEAR(end[0], kUs + 1e-3, rel(1e-3));
  EXPECT_EQ(end[1], end[0]);  // 0.5 ns later: finished at the same now
  FluidNetwork far;
  const auto m1 = far.add_link(kGB, Sharing::shared), m2 = far.add_link(kGB, Sharing::shared);
  const auto apart = replay(far, {{0, {m1}, kUs, 1e6}, {0, {m2}, kUs, 1e6 + 2}});
  EXPECT_NEAR(apart[1] - apart[0], 2e-9, 1e-15);
}

TEST(Fluid, ManyEventsAtOneInstantComeInDateThenStartOrder) {
  // 3,000 flows, each alone on its link, end at one instant: the even ones
  // first, the odd ones 0.5 ns later (within the nanosecond: the same
  // step), each group in start order; two longer flows stay in the heap.
  // More than a sixteenth of the heap is due, so it is taken by a scan.
  FluidNetwork net;
  constexpr int kFlows = 3000;
  std::vector<FluidNetwork::FlowId> started;
  for (int i = 0; i < kFlows + 2; ++i) {
    const auto l = net.add_link(kGB, Sharing::shared);
    const double bytes = i >= kFlows ? 2e6 : i % 2 == 0 ? 1e6 : 1e6 + 0.5;
    started.push_back(net.start({l}, kUs, bytes));
  }
  std::vector<FluidNetwork::Finished> done;
  net.advance_to(kUs + 1.5e-3, done);
  ASSERT_EQ(done.size(), static_cast<size_t>(kFlows));
  for (int k = 0; k < kFlows; ++k) {
    const int i = k < kFlows / 2 ? 2 * k : 2 * (k - kFlows / 2) + 1;
    EXPECT_EQ(done[k].flow, started[i]) << "event " << k;
    EXPECT_EQ(done[k].time, done[0].time);
  }
  EXPECT_EQ(net.in_flight(), 2u);
  net.advance_to(1, done);
  ASSERT_EQ(done.size(), static_cast<size_t>(kFlows) + 2);
  EXPECT_NEAR(done.back().time, kUs + 2e-3, rel(2e-3));
}

namespace {
// Ties go by a key that scrambles the ids (a permutation of 0 .. 100,002),
// so an event pushed during a drain may come before due ones already there.
struct Event {
  double time;
  int64_t id;
  int64_t key() const { return id * 7919 % 100003; }
  bool operator>(const Event& o) const { return time > o.time || (time == o.time && key() > o.key()); }
};
// The same events, their tie-break as DueQueue's order_key: a batch due at
// one time goes through its radix sort.
struct KeyedEvent : Event {
  KeyedEvent() = default;
  KeyedEvent(double time, int64_t id) : Event{time, id} {}
  uint64_t order_key() const { return static_cast<uint64_t>(key()); }
};
}  // namespace

// Runs a simulation of `n` events on a coarse time grid (many ties) whose
// visits push more, some due at once: the events in the order taken.
// Queue: DueQueue, or std::priority_queue popped one by one.
template <class Queue, class Ev = Event, class Drain>
std::vector<Event> taken_order(int n, Drain drain) {
  Queue queue;
  int64_t next_id = 0;
  std::mt19937 rng(7);
  for (int i = 0; i < n; ++i) queue.push(Ev{static_cast<double>(rng() % 8), next_id++});
  std::vector<Event> taken;
  for (double now = 0; !queue.empty(); now += 1)
    drain(queue, now, [&](const Ev& e) {
      taken.push_back(e);
      if (e.id % 3 == 0) queue.push(Ev{now + static_cast<double>(e.id % 2), next_id++});  // due now, or next time
    });
  return taken;
}

void expect_same_order(const std::vector<Event>& ours, const std::vector<Event>& reference, int n) {
  ASSERT_EQ(ours.size(), reference.size()) << n << " events";
  EXPECT_GT(ours.size(), static_cast<size_t>(n));  // the visits pushed some
  for (size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(ours[i].id, reference[i].id) << "event " << i << " of " << n;
    if (ours[i].id != reference[i].id) break;
  }
}

TEST(DueQueue, TakesDueEventsInOrderAsAHeapPoppedOneByOneDoes) {
  using Reference = std::priority_queue<Event, std::vector<Event>, std::greater<>>;
  for (int n : {10, 300, 5000, 40000}) {
    const auto reference = taken_order<Reference>(n, [](auto& q, double now, auto visit) {
      while (!q.empty() && q.top().time <= now) {
        const Event e = q.top();
        q.pop();
        visit(e);
      }
    });
    auto drain = [](auto& q, double now, auto visit) {
      q.drain([now](const auto& e) { return e.time <= now; }, visit);
    };
    expect_same_order(taken_order<DueQueue<Event>>(n, drain), reference, n);
    // With order_key: the batches due at one time radix-sorted.
    expect_same_order(taken_order<DueQueue<KeyedEvent>, KeyedEvent>(n, drain), reference, n);
  }
}

TEST(Fluid, AnEmptyRouteIsADelay) {
  FluidNetwork net;
  const auto end = replay(net, {{1e-3, {}, 5 * kUs, 1e9}});
  EXPECT_NEAR(end[0], 1e-3 + 5 * kUs, rel(1e-3));
}

TEST(Fluid, ZeroBytesTakeTheLatency) {
  FluidNetwork net;
  const auto l = net.add_link(kGB, Sharing::shared);
  const auto end = replay(net, {{0, {l}, 3 * kUs, 0}});
  EXPECT_NEAR(end[0], 3 * kUs, rel(3 * kUs));
}

TEST(Fluid, IdsAreReusedAfterTheyFinish) {
  FluidNetwork net;
  const auto l = net.add_link(kGB, Sharing::shared);
  const auto first = net.start({l}, kUs, 1e3);
  std::vector<FluidNetwork::Finished> done;
  net.advance_to(1, done);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(net.start({l}, kUs, 1e3), first);
  EXPECT_EQ(net.in_flight(), 1u);
}

TEST(Fluid, RefusesWhatSimGridCannotRun) {
  FluidNetwork net;
  EXPECT_THROW(net.add_link(0, Sharing::shared), std::invalid_argument);
  EXPECT_THROW(net.add_link(FluidNetwork::kNever, Sharing::shared), std::invalid_argument);
  const auto l = net.add_link(kGB, Sharing::shared);
  EXPECT_THROW(net.start({}, 0, 1), std::invalid_argument);
  EXPECT_THROW(net.start({l}, -1, 1), std::invalid_argument);
  EXPECT_THROW(net.start({l}, kUs, -1), std::invalid_argument);
  EXPECT_THROW(net.start({l + 1}, kUs, 1), std::invalid_argument);
  std::vector<FluidNetwork::Finished> done;
  net.advance_to(1, done);
  EXPECT_THROW(net.advance_to(0.5, done), std::invalid_argument);
}
