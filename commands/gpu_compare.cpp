#include "gpu_compare.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "args.hpp"
#include "gpu_launch.hpp"
#include "launch.hpp"
#include "output.hpp"
#include "sim_options.hpp"

namespace collsim::sim::gpu {

namespace {

namespace fs = std::filesystem;
using cli::po::value;
using cli::UsageError;

constexpr int64_t kMiB = int64_t{1} << 20;
// The range checks are the platform's and the request's own (finite only here).
constexpr double kAnyReal = std::numeric_limits<double>::max();

struct Settings {
  GpuRequest req;  // platform (nodes set per run), algorithms, sizes, work, repetitions
  std::vector<int64_t> nodes;
  int64_t timeline_bytes = 0, timeline_nodes = 0;
  fs::path out;
};

platforms::GpuPlatform platform_from(const cli::po::variables_map& vm) {
  const std::string name = vm["platform"].as<std::string>();
  const platforms::GpuPlatform* preset = platforms::find_gpu_preset(name);
  if (!preset) {
    std::string known;
    for (const auto& n : platforms::gpu_preset_names()) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("unknown GPU platform '" + name + "'; known: " + known);
  }
  platforms::GpuPlatform pf = *preset;
  auto set = [&](const char* key, int64_t& field) {
    if (vm.count(key)) field = cli::parse_int(vm[key].as<std::string>(), std::string("--") + key, 1, 4096);
  };
  set("procs-per-node", pf.procs_per_node);
  set("procs-per-socket", pf.procs_per_socket);
  set("gpus-per-node", pf.gpus_per_node);
  auto set_real = [&](const char* key, double& field) {
    if (vm.count(key)) field = cli::parse_real(vm[key].as<std::string>(), std::string("--") + key, -kAnyReal, kAnyReal);
  };
  set_real("link-latency", pf.link_latency);
  set_real("callback-latency", pf.callback_latency);
  set_real("link-bw", pf.link_bw);
  try {
    platforms::validate(pf);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return pf;
}

Settings read_settings(const cli::po::variables_map& vm) {
  Settings s;
  if (vm["collective"].as<std::string>() != "gpu-allreduce")
    throw UsageError("this command compares --collective gpu-allreduce");
  s.req.platform = platform_from(vm);
  s.nodes = cli::parse_list(vm["nodes"].as<std::string>(), "--nodes", 1, 1024);
  std::sort(s.nodes.begin(), s.nodes.end());
  s.nodes.erase(std::unique(s.nodes.begin(), s.nodes.end()), s.nodes.end());
  const std::string algos = vm["algos"].as<std::string>();
  try {
    if (algos == "all")
      for (const auto& a : gpu_algorithms()) s.req.algos.push_back(&a);
    else
      for (const std::string& name : cli::parse_names(algos, "--algos"))  // a name given twice: an error
        s.req.algos.push_back(&find_gpu_algorithm(name));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  s.req.sizes = parse_sizes(vm["sizes"].as<std::string>(), "--sizes");
  std::sort(s.req.sizes.begin(), s.req.sizes.end());
  s.req.sizes.erase(std::unique(s.req.sizes.begin(), s.req.sizes.end()), s.req.sizes.end());
  for (int64_t b : s.req.sizes)
    if (b % 8 != 0 || b == 0) throw UsageError("--sizes: " + format_bytes(b) + " is not a whole number of doubles (8 B)");
  const int64_t largest = *std::max_element(s.nodes.begin(), s.nodes.end());
  const int64_t ranks = largest * s.req.platform.procs_per_node;
  const int64_t biggest = *std::max_element(s.req.sizes.begin(), s.req.sizes.end());
  if (gpu_memory(ranks, biggest) > kGpuMemoryLimit)
    throw UsageError(std::to_string(ranks) + " ranks x " + format_bytes(biggest) + " need more than the " +
                     format_bytes(kGpuMemoryLimit) + " of buffers a simulation may hold");
  s.req.flops_per_element = cli::parse_real(vm["flops-per-element"].as<std::string>(), "--flops-per-element", -kAnyReal, kAnyReal);
  if (!(s.req.flops_per_element >= 0) || s.req.flops_per_element > 1e9)
    throw UsageError("--flops-per-element must be in [0, 1e9]");
  s.req.reps = static_cast<int>(cli::parse_int(vm["reps"].as<std::string>(), "--reps", 1, 100));
  s.req.warmup = static_cast<int>(cli::parse_int(vm["warmup"].as<std::string>(), "--warmup", 0, 100));
  s.timeline_bytes = parse_bytes(vm["timeline-size"].as<std::string>(), "--timeline-size");
  if (std::find(s.req.sizes.begin(), s.req.sizes.end(), s.timeline_bytes) == s.req.sizes.end())
    throw UsageError("--timeline-size " + format_bytes(s.timeline_bytes) + " is not one of --sizes");
  s.timeline_nodes = vm.count("timeline-nodes")
                         ? cli::parse_int(vm["timeline-nodes"].as<std::string>(), "--timeline-nodes", 1, 1024)
                         : largest;
  if (std::find(s.nodes.begin(), s.nodes.end(), s.timeline_nodes) == s.nodes.end())
    throw UsageError("--timeline-nodes " + std::to_string(s.timeline_nodes) + " is not one of --nodes");
  s.out = vm["out"].as<std::string>();
  make_directories(s.out);
  return s;
}

std::string title(const Settings& s) {
  const auto& pf = s.req.platform;
  char t[512];
  std::snprintf(t, sizeof t,
                "gpu-allreduce on %s: %lld processes per node in sockets of %lld, %lld GPUs per node, copy %g us + "
                "bytes / %g GB/s, callback %g us, %g flops per element",
                pf.name.c_str(), (long long)pf.procs_per_node, (long long)pf.procs_per_socket,
                (long long)pf.gpus_per_node, pf.link_latency * 1e6, pf.link_bw / 1e9, pf.callback_latency * 1e6,
                s.req.flops_per_element);
  return t;
}

// Tick labels at the sizes in [a, b], at most 8 of them.
std::string size_tics(const std::vector<int64_t>& sizes, int64_t a, int64_t b) {
  std::vector<int64_t> in;
  std::copy_if(sizes.begin(), sizes.end(), std::back_inserter(in), [&](int64_t x) { return x >= a && x <= b; });
  const size_t step = (in.size() + 7) / 8;
  std::string tics;
  for (size_t i = 0; i < in.size(); i += step)
    tics += (tics.empty() ? "" : ", ") + gnuplot_quote(format_bytes(in[i])) + " " + std::to_string(in[i]);
  return tics;
}

// Seed 001 Figs. 6-7: per node count, time against size up to 1 MiB and
// from 1 MiB on (a range without sizes gets no panel; sizes are sorted).
std::string results_script(const Settings& s, const std::string& csv, const std::string& png) {
  const int64_t lo = s.req.sizes.front(), hi = s.req.sizes.back();
  std::vector<std::pair<int64_t, int64_t>> ranges;
  if (lo < kMiB) ranges.push_back({lo, std::min(hi, kMiB)});
  if (hi > kMiB) ranges.push_back({std::max(lo, kMiB), hi});
  if (ranges.empty()) ranges.push_back({lo, hi});  // every size is 1 MiB
  std::vector<std::string> algos;
  for (const auto* a : s.req.algos) algos.push_back(a->name);
  std::string g = "set terminal pngcairo size " + std::to_string(800 * ranges.size()) + "," +
                  std::to_string(450 * s.nodes.size()) + " font ',10' noenhanced\nset output " + gnuplot_quote(png) +
                  "\nset datafile separator ','\n" + gnuplot_array("algos", algos) + "set multiplot layout " +
                  std::to_string(s.nodes.size()) + "," + std::to_string(ranges.size()) + " title " +
                  gnuplot_quote(title(s)) + "\nset logscale x\nset grid\nset key left top\n"
                  "set xlabel 'vector size per process'\nset ylabel 'time of the slowest rank (us)'\n";
  for (int64_t n : s.nodes)
    for (const auto& [a, b] : ranges) {
      g += "set title " +
           gnuplot_quote(std::to_string(n) + " node" + (n > 1 ? "s" : "") + ", " + format_bytes(a) + " to " +
                         format_bytes(b)) +
           "\nset xrange [" + std::to_string(a == b ? a / 2 : a) + ":" +
           std::to_string(a == b ? 2 * b : b) + "]\nset xtics (" + size_tics(s.req.sizes, a, b) + ")\n";
      g += "plot for [i=1:|algos|] " + gnuplot_quote(csv) + " using ((strcol(1) eq algos[i] && $2 == " +
           std::to_string(n) + " && $5 >= " + std::to_string(a) + " && $5 <= " + std::to_string(b) +
           ") ? $5 : 1/0):7 with linespoints lw 2 pt 7 ps 0.7 title algos[i]\n";
    }
  return g + "unset multiplot\n";
}

// One panel per algorithm, one row per rank of node 0 (the other nodes do
// the same): GPU compute above the rank's line, copies on it, MPI phases
// below, so phases that overlap in time stay visible.
std::string timeline_script(const Settings& s, const std::string& csv, const std::string& png, double tmax_us) {
  const int64_t ppn = s.req.platform.procs_per_node;
  std::string g = "set terminal pngcairo size 1600," + std::to_string(300 + 20 * ppn * s.req.algos.size()) +
                  " font ',10' noenhanced\nset output " + gnuplot_quote(png) +
                  "\nset datafile separator ','\n"
                  "phases = 'compute h2d d2h reduce allreduce allgather'\n"
                  "offsets = '-0.3 0 0 0.3 0.3 0.3'\n"
                  "colors = '#2ca02c #9467bd #1f77b4 #ff7f0e #d62728 #8c564b'\n"
                  "set multiplot layout " + std::to_string(s.req.algos.size()) + ",1 title " +
                  gnuplot_quote(title(s) + "\n" + format_bytes(s.timeline_bytes) + " per process on " +
                                std::to_string(s.timeline_nodes) +
                                " nodes: the ranks of node 0 (the other nodes are alike)") +
                  "\n"
                  "set xrange [0:" + std::to_string(tmax_us) + "]\nset yrange [" + std::to_string(ppn) +
                  "-0.5:-0.5]\nset ylabel 'rank'\nset xlabel 'time since the common start (us)'\n"
                  "set key outside right top\nset grid x\n";
  for (const auto* a : s.req.algos)
    g += "set title " + gnuplot_quote(a->name) + "\nplot for [i=1:words(phases)] " + gnuplot_quote(csv) +
         " using ((strcol(1) eq " + gnuplot_quote(a->name) + " && strcol(3) eq word(phases,i) && $2 < " +
         std::to_string(ppn) +
         ") ? ($5+$6)/2 : 1/0):($2 + real(word(offsets,i))):(($6-$5)/2):(0.14) with boxxyerror fs solid 1.0 "
         "noborder lc rgb word(colors,i) title word(phases,i)\n";
  return g + "unset multiplot\n";
}



// The latest end of any span in the timeline CSV (its last column).
double latest_end_us(const fs::path& csv) {
  std::ifstream in(csv);
  double latest = 0;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) latest = std::max(latest, std::stod(line.substr(line.rfind(',') + 1)));
  return latest;
}

// Per node count and size: each algorithm's time and pr's margin over
// multilane, (multilane − pr) / multilane (positive: pr is faster, the
// sense of seed 001's "improvement of up to 21 % over Multilane").
void print_table(const Settings& s, const std::vector<GpuRow>& rows) {
  std::map<std::pair<int64_t, int64_t>, std::map<std::string, double>> t;
  for (const auto& r : rows) t[{r.nodes, r.bytes}][r.algorithm] = r.time_us;
  std::printf("%-6s %-8s", "nodes", "size");
  for (const auto* a : s.req.algos) std::printf(" %14s", (std::string(a->name) + "_us").c_str());
  std::printf(" %16s\n", "pr_vs_multilane");
  for (const auto& [key, times] : t) {
    std::printf("%-6lld %-8s", (long long)key.first, format_bytes(key.second).c_str());
    for (const auto* a : s.req.algos) std::printf(" %14.2f", times.at(a->name));
    if (times.count("pr") && times.count("multilane"))
      std::printf(" %+15.1f%%", 100 * (times.at("multilane") - times.at("pr")) / times.at("multilane"));
    std::printf("\n");
  }
}

}  // namespace

bool wants_gpu_compare(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--collective=gpu-allreduce") == 0) return true;
    if (std::strcmp(argv[i], "--collective") == 0 && i + 1 < argc && std::strcmp(argv[i + 1], "gpu-allreduce") == 0)
      return true;
  }
  return false;
}

int compare_command(int argc, char** argv) {
  cli::po::options_description opts("compare --collective gpu-allreduce options");
  std::string presets;
  for (const auto& n : platforms::gpu_preset_names()) presets += (presets.empty() ? "" : ", ") + n;
  opts.add_options()("collective", value<std::string>()->required(), "gpu-allreduce")(
      "platform", value<std::string>()->default_value("power9-v100"), ("GPU cluster preset: " + presets).c_str())(
      "nodes", value<std::string>()->default_value("1,2,4"), "node counts, a,b,c")(
      "sizes", value<std::string>()->default_value("32B:32MiB"),
      "vector sizes per process: range A:B (doubling) or list a,b; units B, KiB, MiB; whole doubles")(
      "algos", value<std::string>()->default_value("all"), ("comma-separated, or all: " + gpu_algorithm_names()).c_str())(
      "out", value<std::string>()->required(), "output directory")(
      "flops-per-element", value<std::string>()->default_value("140"),
      "GPU work per element of the produced vector (flops); 140: a kernel that reads and writes every "
      "element once (16 B at a V100's 900 GB/s take as long as 140 flops at 7.8 TFLOP/s)")(
      "reps", value<std::string>()->default_value("1"), "timed repetitions (minimum reported; simulation is deterministic)")(
      "warmup", value<std::string>()->default_value("1"), "untimed calls before the timed ones, per case")(
      "timeline-size", value<std::string>()->default_value("4MiB"), "size of the timeline picture (one of --sizes)")(
      "timeline-nodes", value<std::string>(), "node count of the timeline picture (default: the largest)")(
      "procs-per-node", value<std::string>(), "override the preset's processes per node")(
      "procs-per-socket", value<std::string>(), "override the preset's processes per socket")(
      "gpus-per-node", value<std::string>(), "override the preset's GPUs per node")(
      "link-latency", value<std::string>(), "override the preset's host-device copy latency (s)")(
      "callback-latency", value<std::string>(), "override the preset's host-callback dispatch latency (s)")(
      "link-bw", value<std::string>(), "override the preset's host-device bandwidth (B/s)");
  cli::po::variables_map vm;
  std::string algo_help = "algorithms:\n";
  for (const auto& a : gpu_algorithms()) algo_help += "  " + std::string(a.name) + ": " + a.description + "\n";
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim compare --collective gpu-allreduce --out DIR [--platform P] [--nodes LIST] "
                          "[--sizes A:B] [options]\n\n" + algo_help))
    return 0;
  Settings s = read_settings(vm);
  const fs::path csv = s.out / "results.csv", timeline = s.out / "timeline.csv";
  fs::remove(timeline);

  cli::Progress progress("compare gpu-allreduce");
  std::vector<GpuRow> rows;
  const size_t total = s.nodes.size() * s.req.algos.size() * s.req.sizes.size();
  for (int64_t n : s.nodes) {
    GpuRequest req = s.req;
    req.platform.nodes = n;
    if (n == s.timeline_nodes) {
      req.trace_bytes = s.timeline_bytes;
      req.trace_file = fs::absolute(timeline).string();
    }
    const size_t before = rows.size();
    auto more = simulate_gpu(req, [&](size_t done, size_t) {
      progress.update(double(before + done) / double(total),
                      std::to_string(before + done) + "/" + std::to_string(total) + " cases (" + std::to_string(n) +
                          " nodes)");
    });
    rows.insert(rows.end(), more.begin(), more.end());
  }

  std::string table = std::string(kGpuCsvHeader) + "\n";
  for (const auto& r : rows) table += gpu_csv_line(r) + "\n";
  write_file(csv, table);
  // Scripts name their files relative to s.out, where gnuplot runs.
  write_file(s.out / "plot.gp", results_script(s, "results.csv", "gpu-allreduce.png"));
  write_file(s.out / "timeline.gp", timeline_script(s, "timeline.csv", "timeline.png", latest_end_us(timeline)));
  run_gnuplot(s.out, "plot.gp");
  run_gnuplot(s.out, "timeline.gp");
  print_table(s, rows);
  std::printf("results:  %s\nplot:     %s\ntimeline: %s (%s)\n", csv.string().c_str(),
              (s.out / "gpu-allreduce.png").string().c_str(), (s.out / "timeline.png").string().c_str(),
              timeline.string().c_str());
  return 0;
}

}  // namespace collsim::sim::gpu
