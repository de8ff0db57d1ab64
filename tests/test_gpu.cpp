// GPU-produced vectors (seed 001): the cluster presets and their text form,
// the partitioned point-to-point layer on its own, correct results of
// native, multilane and pr on 1, 2 and 4 nodes, copy and compute phases
// equal to their model, and `collsim compare --collective gpu-allreduce`
// end to end with its one-line errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gpu_launch.hpp"
#include "gpu_platform.hpp"
#include "gpu_catalog.hpp"
#include "vector_data.hpp"
#include "run_cli.hpp"

namespace collsim::sim::gpu {
namespace {

namespace fs = std::filesystem;
using platforms::GpuPlatform;
using test::run_collsim;

GpuPlatform seed001(int64_t nodes) {
  GpuPlatform pf = *platforms::find_gpu_preset("power9-v100");
  pf.nodes = nodes;
  return pf;
}

// A small layout: nodes × 4 processes in sockets of 2, 2 GPUs per node.
GpuPlatform small(int64_t nodes) {
  GpuPlatform pf = seed001(nodes);
  pf.procs_per_node = 4;
  pf.procs_per_socket = 2;
  pf.gpus_per_node = 2;
  return pf;
}

TEST(GpuPlatform, PresetsValidateAndSurviveTheirTextForm) {
  ASSERT_GE(platforms::gpu_presets().size(), 2u);
  for (const GpuPlatform& pf : platforms::gpu_presets()) {
    EXPECT_NO_THROW(platforms::validate(pf)) << pf.name;
    const std::string text = platforms::gpu_platform_text(pf);
    const std::string back = platforms::gpu_platform_text(platforms::gpu_platform_from_text(text));
    // The first line is a comment naming the source, which the text form does not carry.
    EXPECT_EQ(back.substr(back.find('\n')), text.substr(text.find('\n'))) << pf.name;
  }
}

TEST(GpuPlatform, Seed001MachineLayout) {
  const GpuPlatform pf = seed001(4);
  EXPECT_EQ(pf.procs_per_node, 40);
  EXPECT_EQ(pf.procs_per_socket, 20);
  EXPECT_EQ(pf.gpus_per_node, 4);
  EXPECT_EQ(pf.procs_per_gpu(), 10);
  EXPECT_EQ(pf.ranks(), 160);
  const std::string hosts = platforms::gpu_hostfile(pf);
  EXPECT_EQ(std::count(hosts.begin(), hosts.end(), '\n'), 160);
  EXPECT_EQ(hosts.rfind("node-3\n"), hosts.size() - 7);
}

TEST(GpuPlatform, BadTextAndLayoutsAreRejected) {
  const std::string good = platforms::gpu_platform_text(seed001(2));
  EXPECT_THROW(platforms::gpu_platform_from_text(good + "colour = blue\n"), std::invalid_argument);
  EXPECT_THROW(platforms::gpu_platform_from_text(good + "nodes = 3\n"), std::invalid_argument);  // twice
  std::string missing = good;
  missing.erase(missing.find("gamma"), missing.find('\n', missing.find("gamma")) - missing.find("gamma") + 1);
  EXPECT_THROW(platforms::gpu_platform_from_text(missing), std::invalid_argument);
  std::string bad = good;
  bad.replace(bad.find("link_bw = "), 10, "link_bw = x");
  EXPECT_THROW(platforms::gpu_platform_from_text(bad), std::invalid_argument);
  GpuPlatform pf = seed001(1);
  pf.procs_per_socket = 7;
  EXPECT_THROW(platforms::validate(pf), std::invalid_argument);
  pf = seed001(1);
  pf.link_bw = 0;
  EXPECT_THROW(platforms::validate(pf), std::invalid_argument);
}

// The layer's own check program (sim/gpu/partitioned_check.cpp) under smpirun.
TEST(Partitioned, LayerChecksPassWithTwoAndThreeRanks) {
  for (int64_t ranks : {2, 3}) {
    GpuPlatform pf = seed001(1);
    pf.procs_per_node = ranks;
    pf.procs_per_socket = ranks;
    pf.gpus_per_node = 1;
    const SmpiResult r = run_smpirun(pf, PARTITIONED_CHECK_LIB, {});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
    for (const char* check : {"tags", "out-of-order", "helper-thread", "two-channels", "errors", "size-mismatch"})
      EXPECT_NE(r.out.find(std::string("ok ") + check + "\n"), std::string::npos) << check << "\n" << r.out;
  }
}

GpuRequest request(const GpuPlatform& pf, std::vector<int64_t> sizes) {
  GpuRequest req;
  req.platform = pf;
  for (const auto& a : gpu_algorithms()) req.algos.push_back(&a);
  req.sizes = std::move(sizes);
  req.flops_per_element = 1000;
  return req;
}

// simulate_gpu throws when any rank's vector is not the SUM; sizes with one
// element, fewer elements than partitions, and counts no layout divides.
TEST(GpuAllreduce, EveryAlgorithmIsCorrectOnOneTwoAndFourNodes) {
  for (int64_t nodes : {1, 2, 4}) {
    std::vector<GpuRow> rows;
    ASSERT_NO_THROW(rows = simulate_gpu(request(seed001(nodes), {8, 64, 8 * 1003, 65536}))) << nodes << " nodes";
    ASSERT_EQ(rows.size(), 3u * 4u);
    for (const GpuRow& r : rows) {
      EXPECT_EQ(r.p, 40 * nodes);
      EXPECT_EQ(r.check, "full");
      EXPECT_GT(r.time_us, 0);
    }
  }
  ASSERT_NO_THROW(simulate_gpu(request(small(3), {8, 40, 8 * 77})));
}

// Sampled vectors (host_buffer.hpp) change what is checked, not the times.
TEST(GpuAllreduce, SampledVectorsGiveTheSameTimes) {
  GpuRequest req = request(seed001(2), {8 * 100003});
  req.sample_above = int64_t{1} << 40;
  const auto full = simulate_gpu(req);
  req.sample_above = 0;
  const auto sampled = simulate_gpu(req);
  ASSERT_EQ(full.size(), sampled.size());
  for (size_t i = 0; i < full.size(); ++i) {
    EXPECT_EQ(full[i].check, "full");
    EXPECT_EQ(sampled[i].check, "sampled");
    EXPECT_EQ(full[i].time_us, sampled[i].time_us) << full[i].algorithm;
  }
}

struct TraceSpan {
  std::string algorithm, phase;
  int rank, partition;
  double start, end;
};

std::vector<TraceSpan> read_trace(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "algorithm,rank,phase,partition,start_us,end_us");
  std::vector<TraceSpan> spans;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::vector<std::string> f;
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (f.size() == 6) spans.push_back({f[0], f[2], std::stoi(f[1]), std::stoi(f[3]), std::stod(f[4]), std::stod(f[5])});
  }
  return spans;
}

// Every GPU's c = 10 processes run their kernels and copies at the same
// time, so a kernel of f flops lasts c·f / speed and a copy of b bytes
// latency + c·b / bandwidth, in both directions. pr's copy of partition k
// starts a callback latency after kernel k ends, and kernel k + 1 waits for
// that copy (the host callback blocks the stream).
TEST(GpuAllreduce, CopyAndComputePhasesEqualTheirModel) {
  const GpuPlatform pf = seed001(1);
  const int64_t n = 131072 + 13, bytes = 8 * n;  // pr: 19 partitions of 6555 doubles, one of 6540
  const std::string trace = test::fresh_path("gpu_phases.csv");
  fs::remove(trace);
  GpuRequest req = request(pf, {bytes});
  req.trace_bytes = bytes;
  req.trace_file = trace;
  ASSERT_NO_THROW(simulate_gpu(req));
  const double c = static_cast<double>(pf.procs_per_gpu());
  auto copy_us = [&](double b) { return 1e6 * (pf.link_latency + c * b / pf.link_bw); };
  auto kernel_us = [&](double elements) { return 1e6 * c * 1000 * elements / pf.gpu_flops; };
  auto near = [](double got, double want) { return std::abs(got - want) <= 1e-6 * want + 2e-3; };
  std::map<std::string, int> counted;
  const double callback_us = 1e6 * pf.callback_latency;
  std::map<std::pair<int, int>, double> kernel_end, copy_start, copy_end, kernel_start;  // pr: (rank, partition)
  for (const TraceSpan& s : read_trace(trace)) {
    const double d = s.end - s.start;
    const double elements = static_cast<double>(s.partition < 0 ? n : partition(n, 20, s.partition).count());
    if (s.phase == "h2d") {
      EXPECT_TRUE(near(d, copy_us(8.0 * n))) << s.algorithm << " rank " << s.rank << ": " << d;
    } else if (s.phase == "d2h") {
      EXPECT_TRUE(near(d, copy_us(8 * elements))) << s.algorithm << " rank " << s.rank << " part " << s.partition << ": " << d;
      if (s.algorithm == "pr") std::tie(copy_start[{s.rank, s.partition}], copy_end[{s.rank, s.partition}]) = std::pair(s.start, s.end);
    } else if (s.phase == "compute") {
      EXPECT_TRUE(near(d, kernel_us(elements))) << s.algorithm << " rank " << s.rank << ": " << d;
      if (s.algorithm == "pr") std::tie(kernel_start[{s.rank, s.partition}], kernel_end[{s.rank, s.partition}]) = std::pair(s.start, s.end);
    } else {
      continue;
    }
    ++counted[s.algorithm + " " + s.phase];
  }
  EXPECT_EQ(counted["native h2d"], 40);
  EXPECT_EQ(counted["multilane d2h"], 40);
  EXPECT_EQ(counted["pr compute"], 40 * 20);
  EXPECT_EQ(counted["pr d2h"], 40 * 20);
  for (const auto& [key, end] : kernel_end) {
    const auto [rank, k] = key;
    EXPECT_TRUE(near(copy_start[key] - end, callback_us)) << "pr rank " << rank << " part " << k << ": callback after " << copy_start[key] - end;
    const double previous_copy_end = k > 0 ? copy_end[std::pair(rank, k - 1)] : 0.0;
    EXPECT_GE(kernel_start[key], previous_copy_end - 1e-3) << "pr rank " << rank << ": kernel " << k << " before callback " << k - 1;
  }
}

// Seed 001's shape on its machine, 4 nodes: pr loses to multilane below
// 1 MB (K callbacks and copies, each paying a latency) and wins above it.
TEST(GpuAllreduce, PrLosesBelowOneMegabyteAndWinsAboveOnFourNodes) {
  GpuRequest req = request(seed001(4), {512 << 10, 1 << 20});
  req.algos = {&find_gpu_algorithm("multilane"), &find_gpu_algorithm("pr")};
  req.flops_per_element = 140;
  std::map<std::string, double> t;  // "algorithm bytes"
  for (const GpuRow& r : simulate_gpu(req)) t[r.algorithm + " " + std::to_string(r.bytes)] = r.time_us;
  EXPECT_GT(t["pr 524288"], 1.05 * t["multilane 524288"]);
  EXPECT_LT(t["pr 1048576"], 0.95 * t["multilane 1048576"]);
}

TEST(GpuCli, CompareWritesResultsPlotAndTimeline) {
  const std::string out = test::fresh_path("gpu_compare");
  const auto r = run_collsim("compare --collective gpu-allreduce --nodes 1,2 --procs-per-node 4 --procs-per-socket 2 "
                             "--gpus-per-node 2 --sizes 64B,4KiB --timeline-size 4KiB --out " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("pr_vs_multilane"), std::string::npos) << r.out;
  for (const char* f : {"results.csv", "gpu-allreduce.png", "plot.gp", "timeline.csv", "timeline.png", "timeline.gp"})
    EXPECT_TRUE(fs::exists(out + "/" + f)) << f;
  std::ifstream csv(out + "/results.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, kGpuCsvHeader);
  int rows = 0;
  for (std::string line; std::getline(csv, line);) ++rows;
  EXPECT_EQ(rows, 2 * 3 * 2);
}

// Exactly one line on stderr, exit status 2.
void expect_usage_error(const std::string& args, const std::string& needle) {
  const auto r = run_collsim("compare --collective gpu-allreduce --out " + test::fresh_path("gpu_err") + " " + args, true);
  EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(needle), std::string::npos) << args << "\n" << r.out;
}

TEST(GpuCli, BadInputIsAOneLineError) {
  expect_usage_error("--platform dgx-b300", "unknown GPU platform 'dgx-b300'");
  expect_usage_error("--nodes 0", "--nodes");
  expect_usage_error("--sizes 12B", "whole number of doubles");
  expect_usage_error("--sizes 8B,16B --timeline-size 4KiB", "--timeline-size");
  expect_usage_error("--algos native,ring", "unknown gpu-allreduce algorithm 'ring'");
  expect_usage_error("--procs-per-socket 7", "procs_per_socket");
  expect_usage_error("--nodes 64 --sizes 1GiB --timeline-size 1GiB", "need more than");
}

}  // namespace
}  // namespace collsim::sim::gpu
