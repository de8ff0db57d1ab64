// Simulation end to end: every registered algorithm of ours delivers the
// right result (the harness checks every rank's buffer; rows say correct),
// simulated times match closed forms computed here, runs repeat exactly,
// SimGrid's scans are wrong for non-commutative operators, and bad input
// gives one error line.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "block_policy.hpp"
#include "launch.hpp"
#include "platform.hpp"
#include "registry.hpp"
#include "run_cli.hpp"

namespace collsim::sim {
namespace {

using test::run_collsim;

std::vector<const Algorithm*> ours(Collective c = Collective::bcast) {
  std::vector<const Algorithm*> list;
  for (const Algorithm* a : algorithms_of(c))
    if (!a->has(kSmpiBuiltin)) list.push_back(a);
  return list;
}

SimRequest request(int64_t p) {
  SimRequest req;
  req.platform = *platforms::find_preset("alphabeta");
  req.platform.nodes = p;
  req.p = p;
  req.reps = 1;
  req.warmup = 1;  // the buffers are refilled and rechecked per repetition
  return req;
}

// Every one of our broadcasts, roots 0 and p-1, sizes 0, 1, and sizes that
// no block count here divides; block counts from the policy and n = 7.
TEST(SimBcast, EveryAlgorithmDeliversCorrectData) {
  ASSERT_GE(ours().size(), 5u);
  for (int64_t p : {1, 2, 3, 5, 8, 17, 33, 64}) {
    for (int64_t blocks : {0, 7}) {
      SimRequest req = request(p);
      req.algos = ours();
      req.sizes = {0, 1, 1000, 4099};
      req.roots = {0, p - 1};
      req.blocks = blocks;
      std::vector<Row> rows;
      ASSERT_NO_THROW(rows = simulate(req)) << "p=" << p << " blocks=" << blocks;
      ASSERT_EQ(rows.size(), req.algos.size() * 4 * 2);
      for (const Row& r : rows) {
        EXPECT_TRUE(r.correct) << r.algorithm << " p=" << p << " bytes=" << r.bytes << " root=" << r.root;
        if (p > 1 && r.bytes > 0) {
          EXPECT_GT(r.time_us, 0) << r.algorithm << " p=" << p;
        }
        if (blocks == 7 && r.bytes > 0 && find_algorithm(Collective::bcast, r.algorithm).has(kBlocks)) {
          EXPECT_EQ(r.blocks, 7);
        }
      }
    }
  }
}

// Closed forms with SMPI's 16-byte envelope, written out independently of
// the registry's model functions.
double closed_form(const std::string& algo, int64_t p, int64_t m, int64_t n, double alpha, double beta) {
  const int q = static_cast<int>(std::ceil(std::log2(static_cast<double>(p))));
  const double block = static_cast<double>((m + n - 1) / n + 16);
  if (algo == "circulant") return static_cast<double>(n - 1 + q) * (alpha + block * beta);
  if (algo == "binomial") return q * (alpha + static_cast<double>(m + 16) * beta);
  if (algo == "linear-pipeline") return static_cast<double>(p - 2 + n) * (alpha + block * beta);
  ADD_FAILURE() << algo;
  return 0;
}

// Every reduction, scan and gather of ours (and SimGrid's default as a check
// of the harness itself), with matmul where the algorithm claims to keep the
// order and bxor where it needs commutativity. Sizes: empty, fewer elements
// than ranks, and counts no p here divides; roots 0 and p - 1; for
// reduce_scatter and allgatherv every layout, including all data on one rank.
void expect_all_correct(Collective c, Operator op, Layout layout) {
  std::vector<const Algorithm*> algos = {&find_algorithm(c, "smpi:default")};
  for (const Algorithm* a : ours(c))
    if (op == Operator::bxor || !a->has(kCommutative)) algos.push_back(a);
  const int64_t elem = element_bytes(c, op);
  for (int64_t p : {1, 2, 3, 5, 7, 8, 13, 16, 17, 33}) {
    SimRequest req = request(p);
    req.algos = algos;
    req.op = op;
    req.layout = layout;
    req.sizes = {0, 3 * elem, 211 * elem};
    req.roots = {0, p - 1};
    std::vector<Row> rows;
    ASSERT_NO_THROW(rows = simulate(req)) << collective_name(c) << " p=" << p;
    ASSERT_EQ(rows.size(), algos.size() * 3 * 2);
    for (const Row& r : rows)
      EXPECT_TRUE(r.correct) << collective_name(c) << " " << r.algorithm << " " << operator_name(op) << " "
                             << layout_name(layout) << " p=" << p << " bytes=" << r.bytes << " root=" << r.root;
  }
}

TEST(SimReductions, NonCommutativeMatmul) {
  for (Collective c : {Collective::reduce, Collective::allreduce, Collective::reduce_scatter})
    expect_all_correct(c, Operator::matmul, Layout::even);
}

TEST(SimReductions, CommutativeBxor) {
  for (Collective c : {Collective::reduce, Collective::allreduce, Collective::reduce_scatter})
    expect_all_correct(c, Operator::bxor, Layout::even);
}

TEST(SimReductions, IrregularReduceScatter) {
  for (Layout l : {Layout::ramp, Layout::single}) expect_all_correct(Collective::reduce_scatter, Operator::matmul, l);
}

TEST(SimGathers, AllgathervEveryLayout) {
  for (Layout l : {Layout::even, Layout::ramp, Layout::single})
    expect_all_correct(Collective::allgatherv, Operator::bxor, l);
}

// Scans of ours keep the order; SimGrid's (below) does not.
TEST(SimScans, OursAreCorrectWithMatmul) {
  for (Collective c : {Collective::scan, Collective::exscan}) {
    SimRequest req = request(7);
    req.algos = ours(c);
    if (req.algos.empty()) continue;
    req.op = Operator::matmul;
    req.sizes = {0, 32, 211 * 32};
    for (int64_t p : {1, 2, 3, 5, 7, 8, 13, 16, 17, 33}) {
      req.p = req.platform.nodes = p;
      for (const Row& r : simulate(req))
        EXPECT_TRUE(r.correct) << collective_name(c) << " " << r.algorithm << " p=" << p << " bytes=" << r.bytes;
    }
  }
}

// SimGrid 3.32's MPI_Scan and MPI_Exscan are right for bxor and wrong for
// matmul: they combine in the wrong order. The registry marks them so.
TEST(SimScans, SimGridBuiltinIsWrongForNonCommutativeOperators) {
  for (Collective c : {Collective::scan, Collective::exscan}) {
    const Algorithm& builtin = find_algorithm(c, "smpi:default");
    EXPECT_TRUE(builtin.has(kCommutative));
    SimRequest req = request(5);
    req.algos = {&builtin};
    req.sizes = {32 * 4};
    req.op = Operator::bxor;
    EXPECT_TRUE(simulate(req).at(0).correct) << collective_name(c);
    req.op = Operator::matmul;
    EXPECT_FALSE(simulate(req).at(0).correct) << collective_name(c);
  }
}

TEST(SimBcast, FullDuplexTimesMatchTheModelWithinOnePercent) {
  const double alpha = 5e-6, beta = 1e-9;
  for (int64_t p : {17, 64}) {
    for (const char* name : {"circulant", "binomial", "linear-pipeline"}) {
      SimRequest req = request(p);
      req.algos = {&find_algorithm(Collective::bcast, name)};
      req.sizes = {4096, 100000, 1 << 20};
      req.roots = {0, p - 1};
      req.blocks = 0;
      for (const Row& r : simulate(req)) {
        const double expect = closed_form(name, p, r.bytes, r.blocks, alpha, beta) * 1e6;
        EXPECT_NEAR(r.time_us, expect, 0.01 * expect) << name << " p=" << p << " m=" << r.bytes << " n=" << r.blocks;
        ASSERT_TRUE(r.model_us.has_value());
        EXPECT_NEAR(*r.model_us, expect, 1e-3) << name;  // the printed model is the same closed form
      }
    }
  }
}

// The acceptance case: p = 64, m = 4 MiB, n = 64: 69 rounds of α + (65536 + 16)β.
TEST(SimBcast, CirculantAcceptanceCase) {
  SimRequest req = request(64);
  req.algos = {&find_algorithm(Collective::bcast, "circulant")};
  req.sizes = {4 << 20};
  req.blocks = 64;
  const Row r = simulate(req).at(0);
  EXPECT_NEAR(r.time_us, 69 * (5.0 + 65552e-3), 0.01 * 69 * (5.0 + 65552e-3));
}

TEST(SimBcast, BlockPolicyMinimisesTheModel) {
  const Algorithm& c = find_algorithm(Collective::bcast, "circulant");
  const Net net{5e-6, 1e-9, 1e-9};
  const int64_t m = 4 << 20, n = choose_blocks(c, net, 64, m);
  // sqrt((q-1) beta m / alpha) = sqrt(5 * 4194304e-9 / 5e-6) = 64.8
  EXPECT_GE(n, 60);
  EXPECT_LE(n, 70);
  EXPECT_LE(c.model(net, 64, m, n), c.model(net, 64, m, n - 1));
  EXPECT_LE(c.model(net, 64, m, n), c.model(net, 64, m, n + 1));
  EXPECT_EQ(choose_blocks(find_algorithm(Collective::bcast, "binomial"), net, 64, m), 1);
}

TEST(SimCli, TwoRunsGiveIdenticalOutput) {
  const std::string args = "run --algo circulant --p 33 --size 1000,70000 --root 5 --format csv";
  const auto a = run_collsim(args), b = run_collsim(args);
  ASSERT_EQ(a.status, 0);
  // Without the last three columns (wall_s, cpu_s, mem_mib: measured, not simulated).
  auto simulated = [](const std::string& out) {
    std::stringstream lines(out);
    std::string kept;
    for (std::string line; std::getline(lines, line);) {
      for (int i = 0; i < 3; ++i) line.erase(line.rfind(','));
      kept += line + "\n";
    }
    return kept;
  };
  EXPECT_EQ(simulated(a.out), simulated(b.out));
  EXPECT_EQ(a.out.rfind("collective,algorithm,p,bytes,blocks,time_us,model_us", 0), 0u) << a.out;
  EXPECT_EQ(std::count(a.out.begin(), a.out.end(), '\n'), 3);
}

TEST(SimCli, PresetsAndHalfDuplexLoad) {
  // 64 ranks on the Omni-Path preset: two nodes of 32, intra-node loopback.
  auto r = run_collsim("run --algo circulant --p 64 --size 64KiB --platform omnipath36x32 --reps 1 --format csv");
  EXPECT_EQ(r.status, 0) << r.out;
  r = run_collsim("run --algo smpi:ompi --p 10 --size 64KiB --platform rome200x128 --reps 1 --format csv");
  EXPECT_EQ(r.status, 0) << r.out;
  // Half duplex: a rank cannot send and receive at full speed at once, so the
  // circulant broadcast (send || receive every round) is slower than the model.
  r = run_collsim("run --algo circulant --p 16 --size 1MiB --blocks 16 --duplex half --format csv");
  ASSERT_EQ(r.status, 0) << r.out;
  std::stringstream lines(r.out);
  std::string header, row, field;
  std::getline(lines, header);
  std::getline(lines, row);
  std::stringstream fields(row);
  std::vector<std::string> f;
  while (std::getline(fields, field, ',')) f.push_back(field);
  ASSERT_GE(f.size(), 7u);
  EXPECT_GT(std::stod(f[5]), 1.2 * std::stod(f[6])) << row;
}

// Exactly one line on stderr, exit status 2.
void expect_usage_error(const std::string& args, const std::string& needle) {
  const auto r = run_collsim(args, true);  // these fail before printing anything on stdout
  EXPECT_EQ(r.status, 2) << args;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find(needle), std::string::npos) << r.out;
}

TEST(SimCli, BadInputIsOneErrorLine) {
  expect_usage_error("run --algo nope --p 4 --size 1", "known: circulant, binomial");
  expect_usage_error("run --algo circulant --p 0 --size 1", "--p");
  expect_usage_error("run --algo circulant --p 4 --size 3GiB", "exceeds");
  expect_usage_error("run --algo circulant --p 4 --size 99999999999999999999", "out of range");
  expect_usage_error("run --algo circulant --p 4 --size 9007199254740991KiB", "exceeds");
  expect_usage_error("run --algo circulant --p 4 --size 1 --platform mars", "known: alphabeta, omnipath36x32");
  expect_usage_error("run --algo binomial --p 4 --size 100 --blocks 3", "takes no --blocks");
  expect_usage_error("run --algo circulant --p 4 --size 100 --blocks 101", "--blocks");
  expect_usage_error("run --algo circulant --p 4 --size 100 --root 4", "--root");
  expect_usage_error("run --algo circulant --p 4000 --size 4MiB --scale off", "exceeds");
  expect_usage_error("run --algo circulant --p 4 --size 1 --duplex quarter", "known: full, half");
  expect_usage_error("run --algo circulant --p 40 --size 1 --platform alphabeta --nodes 8", "does not fit");
  expect_usage_error("compare --p 4 --algos circulant,zzz --out /tmp/x", "unknown bcast algorithm 'zzz'");
}

TEST(Platforms, XmlCarriesHalfAlphaAndInverseBeta) {
  platforms::Platform pf = *platforms::find_preset("alphabeta");
  pf.nodes = 3;
  const std::string xml = platforms::platform_xml(pf);
  EXPECT_NE(xml.find("lat=\"2.5e-06s\""), std::string::npos) << xml;  // alpha / 2
  EXPECT_NE(xml.find("bw=\"1000000000Bps\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("SPLITDUPLEX"), std::string::npos);
  EXPECT_NE(xml.find("radical=\"0-2\""), std::string::npos);
  pf.full_duplex = false;
  EXPECT_NE(platforms::platform_xml(pf).find("SHARED"), std::string::npos);
  pf.cores_per_node = 2;
  pf.intra_beta = 0.5e-9;
  EXPECT_EQ(platforms::hostfile(pf, 3), "node-0\nnode-0\nnode-1\n");
  EXPECT_THROW(platforms::hostfile(pf, 7), std::invalid_argument);
  pf.beta = 0;
  EXPECT_THROW(platforms::platform_xml(pf), std::invalid_argument);
}

TEST(Sizes, UnitsAndRanges) {
  EXPECT_EQ(parse_bytes("4096", "s"), 4096);
  EXPECT_EQ(parse_bytes("4KiB", "s"), 4096);
  EXPECT_EQ(parse_bytes("16MiB", "s"), 16 << 20);
  EXPECT_EQ(parse_bytes("1GiB", "s"), 1 << 30);
  EXPECT_EQ(parse_bytes("7B", "s"), 7);
  EXPECT_THROW(parse_bytes("2GiB", "s"), cli::UsageError);
  EXPECT_THROW(parse_bytes("4kb", "s"), cli::UsageError);
  EXPECT_THROW(parse_bytes("-1", "s"), cli::UsageError);
  EXPECT_EQ(parse_sizes("1KiB:4KiB", "s"), (std::vector<int64_t>{1024, 2048, 4096}));
  EXPECT_EQ(parse_sizes("3:10", "s"), (std::vector<int64_t>{3, 6, 10}));
  EXPECT_EQ(parse_sizes("0,5", "s"), (std::vector<int64_t>{0, 5}));
  EXPECT_THROW(parse_sizes("8:4", "s"), cli::UsageError);
}

}  // namespace
}  // namespace collsim::sim
