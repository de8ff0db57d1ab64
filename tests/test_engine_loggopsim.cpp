// The engine's loggopsim rules (engine/loggopsim.hpp) on plans small enough
// to time by hand from the LogGOPS rules: L = 5 µs, o = 1 µs, g = 2 µs,
// G = 1 ns/B, γ = 1 ns/B, S = 65535 B. Every expected time below is worked
// out in its comment, in ns.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "loggopsim.hpp"
#include "plan_families.hpp"
#include "protocol.hpp"
#include "run_cli.hpp"

namespace collsim::engine {
namespace {

const LogGOPS kParams{5'000'000, 1'000'000, 2'000'000, 1'000, 1'000, 65535};

// A hand-written plan: each rank's steps; block b has bytes[b] bytes.
struct HandPlan {
  std::map<int64_t, std::vector<plan::Step>> steps;
  std::vector<int64_t> bytes;

  std::vector<double> finish_ns(int64_t p) const {
    plan::Plan pl;
    pl.header.p = p;
    pl.header.blocks = static_cast<int64_t>(bytes.size());
    pl.steps = [this](int64_t r) {
      const auto it = steps.find(r);
      return it == steps.end() ? std::vector<plan::Step>{} : it->second;
    };
    // Block b lies after blocks 0 .. b − 1.
    const auto spans = [this](int64_t b) {
      int64_t begin = 0;
      for (int64_t i = 0; i < b; ++i) begin += bytes[static_cast<size_t>(i)];
      return sim::Span{begin, begin + bytes[static_cast<size_t>(b)]};
    };
    const Result res = evaluate(pl, spans, kParams, true);
    std::vector<double> ns;
    for (double t : res.finish) ns.push_back(t * 1e9);
    return ns;
  }
};

// One block each way (plan_families.hpp's step makers).
plan::Step send(int64_t to, int64_t block, plan::Value value = plan::Value::acc) {
  return plan::send_step(to, {block}, value);
}
plan::Step recv(int64_t from, int64_t block, plan::Combine combine = plan::Combine::store) {
  return plan::recv_step(from, {block}, combine);
}
plan::Step fold(int64_t block) { return plan::fold_step({block}); }

void expect_ns(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size(); ++r) EXPECT_NEAR(got[r], want[r], 1e-6) << "rank " << r;
}

// 0 -> 1, s = 1000 B (eager). Sender: busy o = 1000. Receiver: the message
// arrives at o + L = 6000, then o + (s−1)G = 1999 on its CPU: 7999
// = L + 2o + (s−1)G.
TEST(EngineLogGOPSim, OneMessage) {
  const HandPlan h{{{0, {send(1, 0)}}, {1, {recv(0, 0)}}}, {1000}};
  expect_ns(h.finish_ns(2), {1000, 7999});
}

// Root 0 sends 1000 B to 1, 2, 3 in turn: sends start max(o, g + (s−1)G)
// = 2999 apart, at 0, 2999, 5998; the root ends at 5998 + o = 6998. Child
// i ends L + 2o + (s−1)G = 7999 after its send's start: 7999, 10998, 13997.
TEST(EngineLogGOPSim, RootSendsGApart) {
  const HandPlan h{{{0, {send(1, 0), send(2, 0), send(3, 0)}}, {1, {recv(0, 0)}}, {2, {recv(0, 0)}}, {3, {recv(0, 0)}}},
                   {1000}};
  expect_ns(h.finish_ns(4), {6998, 7999, 10998, 13997});
}

// 0 -> 1 -> 2, 1000 B: rank 1's CPU holds the receive until 7999, so the
// forward starts then: rank 1 ends 7999 + o = 8999, rank 2 at 7999 + 7999.
TEST(EngineLogGOPSim, ReceiveThenForward) {
  const HandPlan h{{{0, {send(1, 0)}}, {1, {recv(0, 0), send(2, 0)}}, {2, {recv(1, 0)}}}, {1000}};
  expect_ns(h.finish_ns(3), {1000, 8999, 15998});
}

// Calcs, γ = 1 ns/B: rank 1 combines the 1000 B it receives (7999 + 1000
// = 8999), then sends acc ⊕ input: its calc 8999 .. 9999, the send's o to
// 10999; rank 2 gets it at 9999 + 6000 and ends 1999 later, 17998.
TEST(EngineLogGOPSim, CombineAndAccPlusInputCalcs) {
  const HandPlan h{{{0, {send(1, 0)}},
                    {1, {recv(0, 0, plan::Combine::left), send(2, 0, plan::Value::acc_op_input)}},
                    {2, {recv(1, 0)}}},
                   {1000}};
  expect_ns(h.finish_ns(3), {1000, 10999, 17998});
}

// Rendezvous, s = 100000 B > S. Rank 1 folds 20000 B first (CPU to 20000)
// and so posts its receive at 20000; the message (there at 6000) waits for
// the CPU until 20000 too and, queued first, is charged first: rank 1 ends
// 20000 + o + (s−1)G = 120999. Rank 0's send is done only at the match,
// 20000 (its CPU clock pushed there), so its 10 B fold ends at 20010, not
// at 1000 + 10 as after an eager send.
TEST(EngineLogGOPSim, RendezvousWaitsForTheReceive) {
  const HandPlan h{{{0, {send(1, 0), fold(1)}}, {1, {fold(2), recv(0, 0)}}}, {100000, 10, 20000}};
  expect_ns(h.finish_ns(2), {20010, 120999});
}

// The same 100000 B message posted early: the match is at the arrival,
// 6000, so the sender's fold runs at 6000 .. 6010; the receiver ends at
// 6000 + o + (s−1)G = 106999.
TEST(EngineLogGOPSim, RendezvousMatchedOnArrival) {
  const HandPlan h{{{0, {send(1, 0), fold(1)}}, {1, {recv(0, 0)}}}, {100000, 10}};
  expect_ns(h.finish_ns(2), {6010, 106999});
}

TEST(EngineLogGOPSim, UnreceivedMessageIsAnError) {
  const HandPlan h{{{0, {send(1, 0)}}}, {1000}};
  EXPECT_THROW(h.finish_ns(2), std::invalid_argument);
}

std::string collsim(const std::string& args) { return std::string(COLLSIM_BIN) + " run --format csv " + args; }

// Through the command line: a binomial bcast at p = 2 is the one message.
TEST(EngineLogGOPSim, RunWithTheLoggopsimRules) {
  const auto out =
      test::run_words(collsim("--algo binomial --p 2 --size 1000B --engine loggp --rules loggopsim "
                              "--L 5e-6 --o 1e-6 --g 2e-6 --G 1e-9"));
  ASSERT_EQ(out.status, 0) << out.out;
  std::stringstream lines(out.out);
  std::string line, last;
  while (std::getline(lines, line)) last = line;
  const sim::Row row = sim::parse_row(last);
  EXPECT_NEAR(row.time_us, 7.999, 1e-9);
  EXPECT_EQ(row.engine, "loggopsim");
  EXPECT_FALSE(row.model_us.has_value());
}

TEST(EngineLogGOPSim, BadRuleOptionsAreOneErrorLine) {
  const std::string base = "--algo binomial --p 4 --size 1KiB ";
  for (const char* bad :
       {"--engine loggp --o -1e-6", "--engine loggp --rules logp", "--engine loggp --rules loggopsim --g -1",
        "--engine loggp --rules loggopsim --L nan", "--rules loggopsim"}) {
    const auto out = test::run_words(collsim(base + bad), true);
    EXPECT_EQ(out.status, 2) << bad << ": " << out.out;
    EXPECT_EQ(std::count(out.out.begin(), out.out.end(), '\n'), 1) << bad << ": " << out.out;
  }
}

// A strided run's bytes (BlockBytes::run_bytes's closed form over the
// stepped segments) equal its blocks' bytes added one by one, for both
// even cuts (an allreduce's nested segments, an allgatherv's per-rank
// counts), with partial and empty segments, for a stride of k segments
// (k = 1: consecutive segments; k > 1: allgatherv multi-lane's node phase,
// offset-major); with one block a segment (n = 1), runs of consecutive
// blocks take the closed form.
TEST(EngineBlockBytes, StridedRunsCountAsTheirBlocks) {
  for (Collective c : {Collective::allreduce, Collective::allgatherv})
    for (int64_t units : {0, 5, 37, 100, 1000})
      for (int64_t n : {1, 3})
        for (int64_t k : {1, 2, 3}) {
          const int64_t p = 10;
          plan::Header h{c, p, 0, p * n, true};
          if (c == Collective::allreduce) h.segments = p;
          const BlockBytes spans = even_blocks(h, units * 8, 8);
          for (int64_t u = 0; u < n; ++u)
            for (int64_t j0 = 0; j0 < p; ++j0)
              for (int64_t count = 2; j0 + (count - 1) * k < p; ++count) {
                plan::BlockList strided;
                strided.push_strided(j0 * n + u, count, k * n);
                int64_t one_by_one = 0;
                for (int64_t b : strided) one_by_one += spans(b).count();
                EXPECT_EQ(list_bytes(spans, strided), one_by_one)
                    << collective_name(c) << " units " << units << " n " << n << " k " << k << " u " << u
                    << " segments " << j0 << "+" << count;
              }
        }
}

}  // namespace
}  // namespace collsim::engine
