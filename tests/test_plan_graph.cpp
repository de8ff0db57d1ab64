// Plans as dependency graphs (issue 34): overlapped()'s requirements worked
// out by hand, the collsim-plan 2 text, the engine's refusal to run one in
// step order, and the executor running every overlapped plan of the
// catalog under SMPI with a checked result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "errors.hpp"
#include "graph_links.hpp"
#include "loggp.hpp"
#include "machines.hpp"
#include "plan.hpp"
#include "plan_builders.hpp"
#include "protocol.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

using Afters = std::vector<std::vector<int64_t>>;

Afters afters(const plan::Plan& pl, int64_t rank) {
  Afters out;
  for (const plan::Step& s : pl.steps(rank)) out.push_back(s.after);
  return out;
}

// plan_graph.cpp's worked examples: the linear pipeline 0 → 1 → 2 of three
// blocks, and the root of a binomial tree.
TEST(PlanGraph, OverlappedWorkedExamples) {
  const plan::Plan chain = plan::overlapped(plan::build_plan(Collective::bcast, "linear-pipeline", 3, 0, 3));
  ASSERT_TRUE(chain.header.graph);
  // Rank 0 only sends block b: each send after the one before to rank 1.
  EXPECT_EQ(afters(chain, 0), (Afters{{}, {0}, {1}}));
  // Rank 1: recv 0, send 0 (after its receive), recv 1 (free), send 1
  // (after the send before and recv 1), recv 2, send 2.
  const std::vector<plan::Step> one = chain.steps(1);
  ASSERT_EQ(one.size(), 6u);
  for (size_t k = 0; k < 6; ++k) EXPECT_EQ(one[k].send_to >= 0, k % 2 == 1) << k;
  EXPECT_EQ(afters(chain, 1), (Afters{{}, {0}, {}, {1, 2}, {}, {3, 4}}));
  EXPECT_EQ(afters(chain, 2), (Afters{{}, {}, {}}));
  const plan::Plan tree = plan::overlapped(plan::build_plan(Collective::bcast, "binomial", 8, 0, 1));
  EXPECT_EQ(afters(tree, 0), (Afters{{}, {}, {}}));
}

// Two receives that combine into one block stay ordered (the verifier's
// unordered-combine rule never fires on an overlapped plan), and a send
// of a block waits for what was combined into it.
TEST(PlanGraph, CombinesIntoOneBlockStayOrdered) {
  // binary-tree allreduce at p = 3: a parent combines its children's
  // vectors one after the other, then receives the result into the same
  // vector.
  const plan::Plan pl = plan::overlapped(plan::build_plan(Collective::allreduce, "binary-tree", 3, 0, 1));
  for (int64_t r = 0; r < 3; ++r) {
    const std::vector<plan::Step> steps = pl.steps(r);
    int64_t last_write = -1;
    for (size_t k = 0; k < steps.size(); ++k) {
      const bool writes = steps[k].recv_from >= 0;
      if (writes && last_write >= 0) {
        const auto& a = steps[k].after;
        EXPECT_NE(std::find(a.begin(), a.end(), last_write), a.end()) << "rank " << r << " step " << k;
      }
      if (writes) last_write = static_cast<int64_t>(k);
    }
  }
}

TEST(PlanGraph, TextRoundTrip) {
  const plan::Plan pl = plan::overlapped(plan::build_plan(Collective::exscan, "two-tree", 5, 0, 3));
  std::stringstream text;
  plan::write_plan(text, pl);
  EXPECT_EQ(text.str().rfind("collsim-plan 2\n", 0), 0u);
  EXPECT_NE(text.str().find("\norder graph\n"), std::string::npos);
  const plan::Plan back = plan::read_plan(text);
  ASSERT_TRUE(back.header.graph);
  for (int64_t r = 0; r < 5; ++r) {
    const std::vector<plan::Step> want = pl.steps(r), got = back.steps(r);
    ASSERT_EQ(got.size(), want.size()) << r;
    for (size_t k = 0; k < want.size(); ++k) {
      EXPECT_EQ(got[k].after, want[k].after) << r << " " << k;
      EXPECT_EQ(got[k].send_to, want[k].send_to) << r << " " << k;
      EXPECT_EQ(got[k].recv_blocks, want[k].recv_blocks) << r << " " << k;
    }
  }
}

TEST(PlanGraph, ReaderRejectsMisplacedRequirements) {
  const std::string head = "collective bcast\np 2\nblocks 2\n";
  const struct {
    const char* what;
    std::string text;
  } cases[] = {
      {"'order' needs 'collsim-plan 2'", "collsim-plan 1\n" + head + "order graph\n"},
      {"'after' needs a graph plan", "collsim-plan 2\n" + head + "rank 0\nstep send 1 blocks 0\nstep send 1 blocks 1 after 0\n"},
      {"required step 1 is out of range [0, 0]",
       "collsim-plan 2\n" + head + "order graph\nrank 0\nstep send 1 blocks 0\nstep send 1 blocks 1 after 1\n"},
      {"the first step of a rank requires nothing", "collsim-plan 2\n" + head + "order graph\nrank 0\nstep send 1 blocks 0 after 0\n"},
      {"nothing may follow 'after'",
       "collsim-plan 2\n" + head + "order graph\nrank 0\nstep send 1 blocks 0\nstep after 0 send 1 blocks 1\n"},
      {"order must be lock-step or graph", "collsim-plan 2\n" + head + "order dag\n"},
  };
  for (const auto& c : cases) {
    std::istringstream in(c.text);
    try {
      plan::read_plan(in);
      ADD_FAILURE() << "accepted: " << c.what;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(c.what), std::string::npos) << e.what();
    }
  }
}

// The sweeps take a rank's steps in order: a graph plan is refused there,
// not timed as if it were lock-step.
TEST(PlanGraph, StepOrderEvaluatorsRefuseGraphs) {
  const plan::Plan pl = plan::overlapped(plan::build_plan(Collective::bcast, "two-tree", 9, 0, 4));
  const engine::Machine net = test::alpha_beta(5e-6, 1e-9, 1e-9);
  EXPECT_THROW(engine::evaluate(pl, engine::even_blocks(pl.header, 4096, 1), net), std::invalid_argument);
}

// The graph engine holds every rank's steps: a plan past its limit is
// refused, counted rank by rank, before any is kept.
TEST(PlanGraph, GraphEngineRefusesPlansPastItsLimit) {
  const plan::Plan pl = plan::overlapped(plan::build_plan(Collective::bcast, "two-tree", 64, 0, 8));
  engine::Machine net = test::alpha_beta(5e-6, 1e-9, 1e-9);
  net.nodes = 64;
  const engine::BlockBytes spans = engine::even_blocks(pl.header, 4096, 1);
  EXPECT_NO_THROW(engine::evaluate_graph(pl, spans, net, false, true, 100000));
  EXPECT_THROW(engine::evaluate_graph(pl, spans, net, false, true, 100), LimitError);
}

// --contention off times a graph's messages alone. The root of a binomial
// tree at p = 3 starts both of its 1 MiB rendezvous sends at once (their
// receives are posted up front, a rendezvous send costs no overhead): with
// its link shared each takes twice its time alone, so the two times differ
// by one message's (m + envelope)·β.
TEST(PlanGraphEngine, ContentionOffTimesEachMessageAlone) {
  const plan::Plan pl = plan::overlapped(plan::build_plan(Collective::bcast, "binomial", 3, 0, 1));
  engine::Machine net = test::alpha_beta(5e-6, 1e-9, 1e-9);
  net.nodes = 3;
  const int64_t m = 1 << 20;
  const engine::BlockBytes spans = engine::even_blocks(pl.header, m, 1);
  const double shared = engine::evaluate_graph(pl, spans, net, false, true).time;
  const double alone = engine::evaluate_graph(pl, spans, net, false, false).time;
  EXPECT_NEAR(shared - alone, static_cast<double>(m + net.envelope) * net.beta, 1e-12);
  EXPECT_GT(alone, static_cast<double>(m) * net.beta);
}

// collsim run's one CSV row.
sim::Row run_row(const std::string& args) {
  const test::CliResult r = test::run_collsim("run --format csv " + args);
  EXPECT_EQ(r.status, 0) << args << "\n" << r.out;
  std::stringstream lines(r.out);
  std::string line, last;
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  return sim::parse_row(last);
}

// The executor runs every plan of the catalog as its overlapped graph
// under SMPI (collsim plan --order graph, then run --plan), order-keeping
// plans with matmul, with the result checked on every rank.
TEST(PlanGraphSmpi, EveryOverlappedPlanRunsCorrectly) {
  size_t checked = 0;
  for (Collective c : kCollectives)
    for (const std::string& name : plan::plan_algorithms(c)) {
      const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
      const int64_t p = 7;
      const int64_t blocks = a.cut == plan::Cut::pipelined ? 4 : plan::cut_blocks(a.cut, p);
      const std::string file = test::fresh_path(std::string("graph-") + collective_name(c) + "-" + name + ".plan");
      const std::string common = std::string(" --collective ") + collective_name(c) + " --p 7 --size 3200";
      const test::CliResult made = test::run_collsim("plan" + common + " --algo " + name + " --blocks " +
                                                     std::to_string(blocks) + " --order graph --out " + file);
      ASSERT_EQ(made.status, 0) << name << "\n" << made.out;
      const bool commutative = plan::build_plan(c, name, p, 0, blocks).header.commutative;
      const std::string op = !reduces(c) ? "" : commutative ? " --op bxor" : " --op matmul";
      const sim::Row row = run_row(common.substr(1) + op + " --plan " + file);
      EXPECT_TRUE(row.correct) << collective_name(c) << " " << name;
      ++checked;
    }
  EXPECT_GE(checked, 40u);
}

// Issue 34's acceptance: seed 000's Table 1 case, 10,000 longs at 36 × 1
// on omnipath36x32, exscan two-tree with its phases and trees overlapped
// at most 55 µs (the lock-step plan: 87.56 µs), at the block count the
// policy picks from its model.
TEST(PlanGraphSmpi, OverlappedTwoTreeExscanMeetsTable1Bound) {
  const std::string common = "--collective exscan --p 36 --platform omnipath36x32 --cores-per-node 1 --size 80000";
  const sim::Row overlapped = run_row(common + " --algo two-tree-overlap");
  const sim::Row lock_step = run_row(common + " --algo two-tree");
  EXPECT_TRUE(overlapped.correct);
  EXPECT_LE(overlapped.time_us, 55.0);
  EXPECT_LT(overlapped.time_us, lock_step.time_us);
}

// The engine times a graph row as SMPI runs it (engine/graph_links.hpp):
// the two-tree-overlap rows on the default platform, eager and rendezvous
// sizes, within 3 % (measured: 1.9 % at most, allreduce at 1 MiB, p = 28).
TEST(PlanGraphEngine, GraphRowsTakeSmpisTime) {
  for (const char* c : {"bcast", "reduce --op matmul", "allreduce --op matmul", "scan --op matmul", "exscan --op matmul"})
    for (const char* size : {"4KiB", "64KiB", "1MiB"}) {
      const std::string common = std::string("--collective ") + c + " --algo two-tree-overlap --p 28 --size " + size;
      const sim::Row engine = run_row(common + " --engine loggp");
      const sim::Row smpi = run_row(common);
      EXPECT_EQ(engine.engine, "loggp") << c;
      EXPECT_NEAR(engine.time_us, smpi.time_us, 0.03 * smpi.time_us) << c << " " << size;
    }
}

// Two messages into rank 1 of a node finish at one instant on its
// loopback; MPI_Waitany returns the one SimGrid finishes first, and rank 1
// then starts its send to the other node either before or after its send
// within the node. SimGrid re-stamps such messages at each solve of the
// loopback, so the engine solves every message of a graph plan (none solo:
// fluid.hpp): with solo ones it took 32.760 us against SMPI's 33.372.
TEST(PlanGraphEngine, MessagesEndingAtOneInstantOnALoopbackComeInSimGridsOrder) {
  const std::string common =
      "--collective scan --op matmul --algo two-tree-overlap --p 4 --size 64KiB --blocks 1 --platform omnipath36x32 "
      "--nodes 2 --cores-per-node 3";
  const sim::Row engine = run_row(common + " --engine loggp"), smpi = run_row(common);
  EXPECT_NEAR(engine.time_us, smpi.time_us, 1e-4 * smpi.time_us);
}

// SMPI runs the events of one instant in its order (its CPU model's, its
// network's, and sub-rounds of one simcall a rank; the harness starts the
// ranks in rank order), which decides which of two messages ending
// together MPI_Waitany returns: on two omnipath36x32 nodes, where ranks of
// a node share its loopback and ⊕s end together, the engine takes SMPI's
// time for every overlapped two-tree collective at p = 4 to 8 and 1 to 4
// blocks (engine/graph_links.hpp; before these rules 13 of the 60 cases
// were past 0.1 %, the worst 15 %).
TEST(PlanGraphEngine, SmallNodeCasesTakeSmpisTimeExactly) {
  int cases = 0;
  for (const char* c : {"bcast", "reduce --op matmul", "allreduce --op matmul", "scan --op matmul", "exscan --op matmul"})
    for (int cores = 2; cores <= 4; ++cores)
      for (int blocks = 1; blocks <= 4; ++blocks) {
        const std::string args = std::string("--collective ") + c + " --algo two-tree-overlap --p " +
                                 std::to_string(2 * cores) + " --size 64KiB --blocks " + std::to_string(blocks) +
                                 " --platform omnipath36x32 --nodes 2 --cores-per-node " + std::to_string(cores);
        const double smpi = run_row(args).time_us, engine = run_row(args + " --engine loggp").time_us;
        EXPECT_NEAR(engine, smpi, 1e-4 * smpi) << args;
        ++cases;
      }
  EXPECT_EQ(cases, 60);
}

// Where the senders pay the bytes (oneported), a graph row is timed under
// the smpi rules as SMPI runs it, its row says so, and --rules loggopsim
// still times its GOAL export.
TEST(PlanGraphEngine, SendersPayingTheBytesAreTimedAsSmpiRunsThem) {
  const std::string common = "--collective bcast --algo two-tree-overlap --p 9 --size 4KiB --platform oneported";
  const sim::Row engine = run_row(common + " --engine loggp"), smpi = run_row(common);
  EXPECT_EQ(engine.engine, "loggp");
  EXPECT_NEAR(engine.time_us, smpi.time_us, 1e-4 * smpi.time_us);
  EXPECT_EQ(run_row(common + " --engine loggp --rules loggopsim").engine, "loggopsim");
}

// Engine over SMPI, less 1, for every catalog plan as its overlapped graph
// at p = 12, 4 KiB, 64 KiB and 1 MiB on `platform` (options for `run`);
// each cell within `worst`.
std::vector<double> overlapped_catalog_errors(const std::string& platform, double worst) {
  std::vector<double> errors;
  for (Collective c : kCollectives)
    for (const std::string& name : plan::plan_algorithms(c)) {
      const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
      if (plan::per_segment(c) || a.build_on_nodes) continue;  // circulant all-to-alls; node plans: flat here
      const int64_t blocks = a.cut == plan::Cut::pipelined ? 4 : plan::cut_blocks(a.cut, 12);
      // Named by platform too: ctest -j runs the platforms' tests at once.
      const std::string file = test::fresh_path(std::string("engine-graph-") + (platform.empty() ? "" : "senders-pay-") +
                                                collective_name(c) + "-" + name + ".plan");
      const std::string common = std::string(" --collective ") + collective_name(c) + " --p 12";
      EXPECT_EQ(test::run_collsim("plan" + common + " --size 64KiB --algo " + name + " --blocks " + std::to_string(blocks) +
                                  " --order graph --out " + file)
                    .status,
                0)
          << name;
      const std::string op = reduces(c) ? " --op bxor" : "";
      for (const char* size : {"4KiB", "64KiB", "1MiB"}) {
        const std::string args = common.substr(1) + op + " --size " + size + " --plan " + file + platform;
        const double smpi = run_row(args).time_us, engine = run_row(args + " --engine loggp").time_us;
        errors.push_back(std::abs(engine / smpi - 1));
        EXPECT_LE(errors.back(), worst) << collective_name(c) << " " << name << " " << size << platform;
      }
    }
  return errors;
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Every plan of the catalog as its overlapped graph, engine against SMPI
// on the default platform: the median cell within 0.5 %. The outliers are
// receives of one rank that finish at one instant, which SimGrid may hand
// to MPI_Waitany in another order than the engine's (circulant reduce at
// p = 12, 1 MiB: 5.9 %; docs/engine.md).
TEST(PlanGraphEngine, OverlappedCatalogPlansTakeAboutSmpisTime) {
  const std::vector<double> errors = overlapped_catalog_errors("", 0.10);
  ASSERT_GE(errors.size(), 60u);
  EXPECT_LE(median(errors), 0.005);
}

// The same where the senders pay the bytes (`oneported`: every message
// eager, the sender busy g + m·G, o = L = 0, links all but unbounded): the
// median cell within 0.5 %. Measured: every cell within 0.001 % but
// halving-doubling's reduce and allreduce, 11–15 % above the engine. Their
// exchanges are symmetric, so two messages into one rank finish at one
// instant; SimGrid hands MPI_Waitany the other one first, and the rank
// starts the other ready send first (p = 6, 4 KiB: rank 0 sends 1 KiB to
// 4 before 2 KiB to 2, SMPI's log shows, one send time of 6.024 µs later
// at the end). The engine cannot know SimGrid's order of simultaneous
// completions; every cell within 16 %.
TEST(PlanGraphEngine, OverlappedCatalogPlansTakeSmpisTimeWhereSendersPay) {
  const std::vector<double> errors = overlapped_catalog_errors(" --platform oneported", 0.16);
  ASSERT_GE(errors.size(), 60u);
  EXPECT_LE(median(errors), 0.005);
}

}  // namespace
}  // namespace collsim
