// The plan engine against SMPI (issue 16's cross-validation, first rule
// set): for every plan builder, the engine's time of the plan equals the
// simulated time of the algorithm in SMPI (the plan executor, or its own
// MPI code where a path has no plan) on the full-duplex alphabeta platform
// within 0.1 % (in practice to the nanosecond), at p = 7, 64 and 200, 32 KiB
// and 64 KiB, and at p = 1000 and 4096 (below), matmul for the reductions
// (bxor for a commutative plan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <sstream>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "loggp.hpp"
#include "plan.hpp"
#include "plan_builders.hpp"
#include "protocol.hpp"
#include "run_cli.hpp"
#include "machines.hpp"

namespace collsim::sim {
namespace {

// The first row of `collsim run ARGS --format csv`.
Row first_row(const std::string& args) {
  std::stringstream lines(test::run_words(std::string(COLLSIM_BIN) + " run --format csv " + args).out);
  std::string line;
  std::getline(lines, line);  // header
  std::getline(lines, line);
  return parse_row(line);
}

// SMPI's time of `algo` on alphabeta: of a warm call (after one untimed
// call, as every run times by default), or with `first_call` of the
// first.
double smpi_time_us(Collective c, const std::string& algo, int64_t p, int64_t bytes, int64_t blocks, Operator op,
                    bool first_call = false) {
  std::string args = std::string("--collective ") + collective_name(c) + " --algo " + algo + " --p " +
                     std::to_string(p) + " --size " + std::to_string(bytes) + " --platform alphabeta";
  if (first_call) args += " --warmup 0";
  if (reduces(c)) args += std::string(" --op ") + operator_name(op);
  if (blocks > 1 && plan::find_plan_algorithm(c, algo).cut == plan::Cut::pipelined)
    args += " --blocks " + std::to_string(blocks);
  return first_row(args).time_us;
}

// Nodes of several ranks: the engine charges a message within a node the
// intra-node α, β, as SimGrid's loopback link does, so the node-aware
// plans (whose node links carry one rank's messages) take SMPI's time on
// the Omni-Path preset: 3 nodes of 32, a short fourth of 4. (Multi-lane's
// lanes share a node's link, which the engine does not model.)
TEST(Engine, NodeAwarePlansTakeSmpisTimeOnNodes) {
  for (const char* c : {"bcast --root 37", "reduce --root 37 --op matmul", "allreduce --op matmul"})
    for (int p : {96, 100}) {
      const std::string args = std::string("--collective ") + c + " --algo node-aware --p " + std::to_string(p) +
                               " --size 64KiB --blocks 4 --platform omnipath36x32";
      const Row smpi = first_row(args), engine = first_row(args + " --engine loggp");
      EXPECT_EQ(engine.engine, "loggp");
      EXPECT_NEAR(engine.time_us, smpi.time_us, 1e-3 * smpi.time_us) << c << " p=" << p;
    }
}

TEST(Engine, EveryBuiltPlanTakesSmpisTime) {
  const engine::Machine alphabeta = test::alpha_beta(5e-6, 1e-9, 1e-9);
  size_t checked = 0;
  for (Collective c : kCollectives) {
    for (const std::string& name : plan::plan_algorithms(c)) {
      const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
      for (int64_t p : {7, 64, 200}) {
        const int64_t blocks = a.cut == plan::Cut::pipelined ? 5 : plan::cut_blocks(a.cut, p);
        const plan::Plan pl = plan::build_plan(c, name, p, 0, blocks);
        if (pl.header.graph) continue;  // timed under the loggopsim rules: EngineGraph.*
        // A commutative plan (ring) is the MPI code's path for a commutative
        // ⊕ (bxor); the others keep rank order (matmul).
        const Operator op = reduces(c) && !pl.header.commutative ? Operator::matmul : Operator::bxor;
        for (int64_t bytes : {1024 * 32, 64 * 1024}) {
          const double smpi = smpi_time_us(c, name, p, bytes, blocks, op);
          const int64_t element = element_bytes(c, op);
          const double ours = engine::evaluate(pl, engine::even_blocks(pl.header, bytes, element), alphabeta).time * 1e6;
          EXPECT_NEAR(ours, smpi, 1e-3 * smpi) << collective_name(c) << " " << name << " p=" << p << " m=" << bytes;
          ++checked;
        }
      }
    }
  }
  EXPECT_GE(checked, 21u * 3 * 2);
}

// The same at scale (issue 16's acceptance): p = 1000 for every plan of
// bcast, allreduce, reduce_scatter, allgatherv and exscan, and p = 4096 for
// those of O(log p) rounds (all but the O(p)-round linear pipeline,
// scatter-allgather and ring), 64 KiB, 5 blocks where pipelined. SMPI
// times each plan's first call: a plan does no setup on its first call, so
// its first call takes a warm call's time (EveryBuiltPlanTakesSmpisTime
// holds warm calls at p = 7, 64 and 200 to the same engine; a plan whose
// first call differed would fail one of the two), and the warm-up call
// more than doubled this test's time (ring at p = 1000: 206 s, 78 s cold).
TEST(Engine, PlansTakeSmpisTimeAtScale) {
  const engine::Machine alphabeta = test::alpha_beta(5e-6, 1e-9, 1e-9);
  const std::vector<std::string> linear_rounds = {"linear-pipeline", "scatter-allgather", "ring"};
  const int64_t bytes = 64 * 1024;
  size_t checked = 0;
  for (Collective c : {Collective::bcast, Collective::allreduce, Collective::reduce_scatter, Collective::allgatherv,
                       Collective::exscan})
    for (const std::string& name : plan::plan_algorithms(c))
      for (int64_t p : {1000, 4096}) {
        if (p == 4096 && std::find(linear_rounds.begin(), linear_rounds.end(), name) != linear_rounds.end()) continue;
        const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
        // A node-aware plan on one-rank nodes is the flat plan it runs between nodes, checked here already.
        if (a.build_on_nodes) continue;
        const int64_t blocks = a.cut == plan::Cut::pipelined ? 5 : plan::cut_blocks(a.cut, p);
        const plan::Plan pl = plan::build_plan(c, name, p, 0, blocks);
        if (pl.header.graph) continue;  // timed under the loggopsim rules: EngineGraph.*
        const Operator op = reduces(c) && !pl.header.commutative ? Operator::matmul : Operator::bxor;
        const double smpi = smpi_time_us(c, name, p, bytes, blocks, op, true);
        const double ours =
            engine::evaluate(pl, engine::even_blocks(pl.header, bytes, element_bytes(c, op)), alphabeta).time * 1e6;
        EXPECT_NEAR(ours, smpi, 1e-3 * smpi) << collective_name(c) << " " << name << " p=" << p;
        ++checked;
      }
  EXPECT_GE(checked, 17u + 12u);
}

// The circulant all-to-all plans say `empty-messages skip`: with fewer
// elements than p·n blocks (96 bytes at p = 64: 12 bxor elements, 96 bytes
// of allgatherv) most of their messages are empty and left out at both
// ends, by the executor in SMPI and by the engine alike. The engine sends
// fewer messages than with the flag cleared, and never takes longer.
TEST(Engine, EmptyMessagesAreLeftOutAlike) {
  const engine::Machine alphabeta = test::alpha_beta(5e-6, 1e-9, 1e-9);
  const int64_t p = 64, bytes = 96, blocks = 3;
  for (Collective c : {Collective::allgatherv, Collective::reduce_scatter, Collective::allreduce}) {
    plan::Plan pl = plan::build_plan(c, "circulant", p, 0, blocks);
    ASSERT_TRUE(pl.header.skip_empty) << collective_name(c);
    const auto spans = engine::even_blocks(pl.header, bytes, element_bytes(c, Operator::bxor));
    const engine::Result skipped = engine::evaluate(pl, spans, alphabeta);
    EXPECT_NEAR(skipped.time * 1e6, smpi_time_us(c, "circulant", p, bytes, blocks, Operator::bxor), 1e-3 * skipped.time * 1e6)
        << collective_name(c);
    pl.header.skip_empty = false;
    const engine::Result sent = engine::evaluate(pl, spans, alphabeta);
    EXPECT_LT(skipped.messages, sent.messages) << collective_name(c);
    EXPECT_LE(skipped.time, sent.time) << collective_name(c);
  }
}

// With fewer elements than blocks, the plans' cut (ceil-sized blocks of
// whole elements) leaves the last blocks empty and the first ones full, so
// messages are no longer m/B. Every exact model (kExactModel) stays within
// the 1 % the suite allows a model (EveryExactModelMatchesTheSimulation) of
// the engine's time (which equals SMPI's, above), at p = 64 and 1000 with 2
// and 31 elements. Halving-doubling follows the cut exactly: its even-cut
// formula said 3346 µs for 1 MiB of doubles at p = 2^20 against 12,784 µs,
// the lowest ranges carrying all of m through its first three steps. Left
// out: the circulant all-to-all plans, which skip empty messages (their
// models count every message: 14 % high at p = 64, 2 bytes).
TEST(Engine, ExactModelsFollowTheCutWithFewerElementsThanBlocks) {
  Net net(test::alpha_beta(5e-6, 1e-9, 1e-9));
  size_t checked = 0;
  for (Collective c : kCollectives)
    for (const std::string& name : plan::plan_algorithms(c)) {
      const Algorithm* a = &find_algorithm(c, name);
      const plan::PlanAlgorithm& pa = plan::find_plan_algorithm(c, name);
      if (!a->has(kExactModel)) continue;
      const Operator op = reduces(c) && !a->has(kCommutative) ? Operator::matmul : Operator::bxor;
      net.element = element_bytes(c, op);
      for (int64_t p : {64, 1000})
        for (int64_t bytes : {2 * net.element, 31 * net.element}) {
          const int64_t blocks = pa.cut == plan::Cut::pipelined ? 3 : plan::cut_blocks(pa.cut, p);
          const plan::Plan pl = plan::build_plan(c, name, p, 0, blocks);
          if (pl.header.skip_empty) continue;
          const double ours = engine::evaluate(pl, engine::even_blocks(pl.header, bytes, net.element), net).time;
          EXPECT_NEAR(a->model(net, p, bytes, blocks), ours, 0.01 * ours)
              << collective_name(c) << " " << name << " p=" << p << " m=" << bytes;
          ++checked;
        }
    }
  EXPECT_GE(checked, 60u);
  net.element = 8;
  const int64_t p = int64_t{1} << 20, bytes = int64_t{1} << 20;
  const plan::Plan hd = plan::build_plan(Collective::allreduce, "halving-doubling", p, 0, p);
  const double hd_time = engine::evaluate(hd, engine::even_blocks(hd.header, bytes, net.element), net).time;
  EXPECT_NEAR(find_algorithm(Collective::allreduce, "halving-doubling").model(net, p, bytes, p), hd_time,
              1e-6 * hd_time);
}

// The last CSV row of a run's output.
Row last_row(const std::string& out) {
  std::stringstream lines(out);
  std::string line, last;
  while (std::getline(lines, line)) last = line;
  return parse_row(last);
}

// `collsim run --engine loggp` gives the smpi row's time and model with
// engine = loggp and checked_ranks = 0; SimGrid's built-ins (no plan) are refused.
TEST(Engine, RunWithTheEngineGivesTheSmpiRow) {
  const std::string run = std::string(COLLSIM_BIN) + " run --algo circulant --p 200 --size 1MiB --format csv";
  const Row smpi = last_row(test::run_words(run).out), loggp = last_row(test::run_words(run + " --engine loggp").out);
  EXPECT_EQ(smpi.engine, "smpi");
  EXPECT_EQ(loggp.engine, "loggp");
  EXPECT_EQ(loggp.blocks, smpi.blocks);
  EXPECT_NEAR(loggp.time_us, smpi.time_us, 1e-3 * smpi.time_us);
  EXPECT_EQ(loggp.model_us, smpi.model_us);
  EXPECT_EQ(loggp.checked_ranks, 0);
  const auto refused = test::run_words(
      std::string(COLLSIM_BIN) + " run --collective exscan --algo smpi:default --p 8 --size 1KiB --engine loggp", true);
  EXPECT_EQ(refused.status, 2) << refused.out;
  EXPECT_NE(refused.out.find("no plan for exscan algorithm 'smpi:default'"), std::string::npos) << refused.out;
}

// On a platform with o and g (`loggp`) the engine's smpi rules are SMPI's
// eager ones: `run --engine loggp` gives SMPI's time, and both rows carry
// the plan's time under those rules as their model.
TEST(Engine, EagerRulesOnTheLogGPPlatform) {
  const std::string run =
      std::string(COLLSIM_BIN) +
      " run --platform loggp --collective allreduce --algo circulant --p 64 --size 64KiB --format csv";
  const Row smpi = last_row(test::run_words(run).out), loggp = last_row(test::run_words(run + " --engine loggp").out);
  EXPECT_EQ(loggp.engine, "loggp");
  EXPECT_NEAR(loggp.time_us, smpi.time_us, 1e-3 * smpi.time_us);
  ASSERT_TRUE(smpi.model_us.has_value());
  EXPECT_NEAR(*smpi.model_us, smpi.time_us, 1e-3 * smpi.time_us);
}

// --per-rank: a chain of 4 ranks, one block of 1000 bytes, α = 5 µs,
// β = 1 ns/B: a hop takes 5 + 1.016 = 6.016 µs (SMPI's 16-byte envelope);
// rank v receives at v·6.016 and is done when its one send to v + 1 has
// arrived: 6.016, 12.032, 18.048; the last rank only receives, at 18.048.
TEST(Engine, PerRankFinishTimes) {
  const std::string file = test::fresh_path("per-rank.csv");
  const auto r = test::run_collsim_argv({"run", "--collective", "bcast", "--algo", "linear-pipeline", "--blocks", "1",
                                         "--p", "4", "--size", "1000", "--platform", "alphabeta", "--engine", "loggp",
                                         "--format", "csv", "--per-rank", file});
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(test::read_file(file),
            "collective,algorithm,p,bytes,root,rank,finish_us\n"
            "bcast,linear-pipeline,4,1000,0,0,6.016\n"
            "bcast,linear-pipeline,4,1000,0,1,12.032\n"
            "bcast,linear-pipeline,4,1000,0,2,18.048\n"
            "bcast,linear-pipeline,4,1000,0,3,18.048\n");
  const auto smpi = test::run_collsim_argv({"run", "--algo", "binomial", "--p", "4", "--size", "1KiB", "--per-rank", file});
  EXPECT_EQ(smpi.status, 2) << smpi.out;
}

// compare --engine loggp --p LIST: one row per algorithm and p, each
// algorithm's rows together, times of the binomial tree ⌈log2 p⌉(α + (m + 16)β)
// = 6.04, 12.08, 18.12 µs at p = 2, 4, 8 (α = 5 µs, β = 1 ns/B, m = 1024);
// a list of p without the engine, and with several sizes, is refused.
TEST(Engine, CompareAgainstP) {
  const std::string dir = test::fresh_path("compare-p");
  const auto r =
      test::run_collsim_argv({"compare", "--engine", "loggp", "--collective", "bcast", "--algos", "binomial,circulant",
                              "--p", "2,4,8", "--sizes", "1KiB", "--platform", "alphabeta", "--out", dir});
  ASSERT_EQ(r.status, 0) << r.out;
  std::stringstream csv(test::read_file(dir + "/results.csv"));
  std::string line;
  std::getline(csv, line);
  std::vector<Row> rows;
  while (std::getline(csv, line)) rows.push_back(parse_row(line));
  ASSERT_EQ(rows.size(), 6u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(rows[i].algorithm, "binomial");
    EXPECT_EQ(rows[i].p, int64_t{2} << i);
    EXPECT_NEAR(rows[i].time_us, 6.04 * double(i + 1), 1e-6);
    EXPECT_EQ(rows[i + 3].algorithm, "circulant");
  }
  EXPECT_EQ(test::run_collsim_argv({"compare", "--collective", "bcast", "--p", "2,4", "--sizes", "1KiB", "--out", dir}).status,
            2);
  EXPECT_EQ(test::run_collsim_argv({"compare", "--engine", "loggp", "--collective", "bcast", "--p", "2,4", "--sizes",
                                    "1KiB,2KiB", "--out", dir})
                .status,
            2);
}

// map --engine loggp: the fastest of our plans per (p, size) from the
// engine, at a p that smpirun would refuse for map (2^17 > 2^16); the
// binomial tree is a whole-message plan, so at 1 MiB circulant must win.
TEST(Engine, MapWithTheEngine) {
  const std::string dir = test::fresh_path("map-engine");
  const auto r = test::run_collsim_argv({"map", "--engine", "loggp", "--collective", "bcast", "--algos",
                                         "binomial,circulant", "--p", "131072", "--sizes", "1MiB", "--out", dir});
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string csv = test::read_file(dir + "/map.csv");
  EXPECT_NE(csv.find("131072"), std::string::npos) << csv;
  EXPECT_NE(csv.find("circulant"), std::string::npos) << csv;
  // No SimGrid built-in ran: its columns are empty and there is no ratio picture.
  EXPECT_EQ(csv.substr(csv.size() - 3), ",,\n") << csv;
  EXPECT_FALSE(std::filesystem::exists(dir + "/ratio.png"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/map.png"));
}


// A step of a hand-made plan: send block 0 to `to` and/or receive it from
// `from` (stored), -1 for no such half.
plan::Step step_with(int64_t to, int64_t from, plan::BlockList blocks = {0}) {
  plan::Step s;
  s.send_to = to, s.recv_from = from;
  if (to >= 0) s.send_blocks = blocks;
  if (from >= 0) s.recv_blocks = blocks;
  return s;
}

struct ReceivesByMessage : engine::EventSink {
  std::vector<engine::MessageEvent> messages;
  void message(const engine::MessageEvent& m) override { messages.push_back(m); }
  void combine(const engine::CombineEvent&) override {}
};

// The eager rules (o, g) keep a rank's waiting messages in its state and
// the rest in an overflow; either way the k-th message from r to s meets
// s's k-th receive from r. Rank 0 sends 3 messages to rank 2 and one to
// rank 1 before rank 2 takes any (rank 2 first waits for rank 3's), so
// rank 2's inbox fills and a pair waits in both places. L = 10 µs, 1000
// bytes at 1 ns/B, o = 1 µs: a send leaves max(o, g) + mG = 2 µs after its
// post, arrives 10 µs later, and is received o after the later of arrival
// and receive post. Rank 0 posts at 0, 2, 4, 6: arrivals 12, 14, 16 (to
// rank 1), 18. Rank 3's arrives at 12: rank 2 done at 13, then takes rank
// 0's at 14, 15 and 19 (had the second and the first swapped: 15, 16).
TEST(Engine, EagerMessagesMeetTheirReceivesInOrder) {
  plan::Plan pl;
  pl.header.collective = Collective::bcast, pl.header.p = 4;
  pl.steps = [](int64_t r) -> std::vector<plan::Step> {
    switch (r) {
      case 0: return {step_with(2, -1), step_with(2, -1), step_with(1, -1), step_with(2, -1)};
      case 1: return {step_with(-1, 0)};
      case 2: return {step_with(-1, 3), step_with(-1, 0), step_with(-1, 0), step_with(-1, 0)};
      default: return {step_with(2, -1)};
    }
  };
  engine::Machine net = test::alpha_beta(10e-6, 1e-9, 0);
  net.o = 1e-6;
  ReceivesByMessage sink;
  const engine::Result res = engine::evaluate(pl, engine::even_blocks(pl.header, 1000, 1), net, true, &sink);
  ASSERT_EQ(res.finish.size(), 4u);
  const double expected_finish[] = {8, 17, 19, 2};
  for (int r = 0; r < 4; ++r) EXPECT_NEAR(res.finish[r] * 1e6, expected_finish[r], 1e-9) << "rank " << r;
  // (from, sender's step) -> the receive's end
  const std::map<std::pair<int64_t, int64_t>, double> expected = {
      {{3, 0}, 13}, {{0, 0}, 14}, {{0, 1}, 15}, {{0, 2}, 17}, {{0, 3}, 19}};
  ASSERT_EQ(sink.messages.size(), expected.size());
  for (const engine::MessageEvent& m : sink.messages)
    EXPECT_NEAR(m.receiver_done * 1e6, expected.at({m.from, m.step}), 1e-9) << m.from << " step " << m.step;
}

// Holdings past 2^32 bits (p·B): an allgatherv whose receives are all
// stores costs the same whatever each rank holds, so the engine keeps
// none and runs it. p = 2, n = 2^31 blocks a segment (B = 2^32), 1000
// bytes a segment: blocks of one byte, each rank sends its first 1000 to
// the other at once: α + (1000 + 16)β = 6.016 µs on α = 5 µs, β = 1 ns/B.
// A plan that would read the holdings is refused with one line: an
// exscan before it starts, a bcast that combines at the combine.
TEST(Engine, HoldingsPastTwoToThe32AreKeptOnlyWhereRead) {
  const engine::Machine alphabeta = test::alpha_beta(5e-6, 1e-9, 1e-9);
  const int64_t n = int64_t{1} << 31;
  plan::Plan pl;
  pl.header.collective = Collective::allgatherv, pl.header.p = 2, pl.header.blocks = 2 * n;
  pl.steps = [n](int64_t r) -> std::vector<plan::Step> {
    plan::Step s = step_with(1 - r, 1 - r);
    s.send_blocks = plan::BlockList::range(r * n, 1000);
    s.recv_blocks = plan::BlockList::range((1 - r) * n, 1000);
    return {s};
  };
  const auto spans = engine::even_blocks(pl.header, 2000, 1);
  EXPECT_NEAR(engine::evaluate(pl, spans, alphabeta).time * 1e6, 6.016, 1e-9);

  const auto refusal = [&](const plan::Plan& refused) {
    try {
      engine::evaluate(refused, engine::even_blocks(refused.header, 2000, 1), alphabeta);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(ran)");
  };
  plan::Plan bcast = pl;
  bcast.header.collective = Collective::bcast;
  bcast.steps = [](int64_t r) {
    plan::Step s = step_with(r == 0 ? 1 : -1, r == 1 ? 0 : -1);
    s.combine = plan::Combine::left;
    return std::vector<plan::Step>{s};
  };
  EXPECT_NE(refusal(bcast).find("rank 1 combines or folds into blocks that start empty"), std::string::npos)
      << refusal(bcast);
  EXPECT_NE(refusal(bcast).find("p × blocks = 2 × 4294967296 bits, over the limit of 2^32"), std::string::npos)
      << refusal(bcast);
  plan::Plan exscan = bcast;
  exscan.header.collective = Collective::exscan;
  exscan.steps = [](int64_t) -> std::vector<plan::Step> { throw std::logic_error("a step was asked for"); };
  EXPECT_NE(refusal(exscan).find("p × blocks = 2 × 4294967296 bits"), std::string::npos) << refusal(exscan);
}

// Circulant allgatherv at p = 2^17 (B = p·n = 2^17, p·B = 2^34 holdings):
// the engine runs it, and its time is the closed form's (an exact model).
TEST(Engine, CirculantAllgathervPastTheHoldingsLimit) {
  const Row row = first_row(
      "--engine loggp --collective allgatherv --algo circulant --p 131072 --size 128KiB --platform alphabeta");
  ASSERT_TRUE(row.model_us.has_value());
  EXPECT_GT(row.time_us, 0);
  EXPECT_NEAR(row.time_us, *row.model_us, 1e-6 * *row.model_us);
}

}  // namespace
}  // namespace collsim::sim
