#include "launch.hpp"
#include "scratch_dir.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "scale.hpp"

namespace collsim::sim {

namespace fs = std::filesystem;
using cli::po::value;
using cli::UsageError;

void add_platform_options(cli::po::options_description& opts) {
  opts.add_options()("platform", value<std::string>()->default_value("alphabeta"),
                     ("alphabeta (a flat alpha-beta cluster), a preset, or FILE.xml; presets: " +
                      [] {
                        std::string s;
                        for (auto& n : platforms::preset_names()) s += (s.empty() ? "" : ", ") + n;
                        return s;
                      }())
                         .c_str())(
      "alpha", value<double>(), "seconds per message between nodes (alphabeta: 5e-6)")(
      "beta", value<double>(), "seconds per byte between nodes (alphabeta: 1e-9)")(
      "bw", value<double>(), "bytes per second between nodes, instead of --beta")(
      "duplex", value<std::string>(), "full (SPLITDUPLEX links) or half (SHARED)")(
      "gamma", value<double>(), "seconds per byte of a reduction operator")(
      "nodes", value<int64_t>(), "nodes of the cluster (alphabeta: enough for p)")(
      "cores-per-node", value<int64_t>(), "ranks per node (alphabeta: 1)")(
      "intra-alpha", value<double>(), "seconds per message within a node")(
      "intra-beta", value<double>(), "seconds per byte within a node");
}

platforms::Platform platform_from(const cli::po::variables_map& vm, int64_t p) {
  const std::string name = vm["platform"].as<std::string>();
  const platforms::Platform* preset = platforms::find_preset(name);
  const bool file = name.size() > 4 && name.compare(name.size() - 4, 4, ".xml") == 0;
  if (!preset && !file) {
    std::string known;
    for (auto& n : platforms::preset_names()) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("unknown platform '" + name + "'; known: " + known + ", or FILE.xml");
  }
  if (file && !fs::is_regular_file(name)) throw UsageError("platform file '" + name + "' does not exist");
  platforms::Platform pf = preset ? *preset : *platforms::find_preset("alphabeta");
  pf.name = name;
  auto set = [&](const char* key, auto& field) {
    if (vm.count(key)) field = vm[key].as<std::remove_reference_t<decltype(field)>>();
  };
  set("alpha", pf.alpha);
  set("beta", pf.beta);
  set("gamma", pf.gamma);
  set("intra-alpha", pf.intra_alpha);
  set("intra-beta", pf.intra_beta);
  set("cores-per-node", pf.cores_per_node);
  if (vm.count("bw")) {
    if (vm.count("beta")) throw UsageError("give --beta or --bw, not both");
    const double bw = vm["bw"].as<double>();
    if (!(bw > 0) || !std::isfinite(bw)) throw UsageError("--bw must be > 0");
    pf.beta = 1.0 / bw;
  }
  if (vm.count("duplex")) {
    const std::string d = vm["duplex"].as<std::string>();
    cli::require_one_of(d, "duplex", {"full", "half"});
    pf.full_duplex = d == "full";
  }
  if (vm.count("nodes"))
    pf.nodes = vm["nodes"].as<int64_t>();
  else if (name == "alphabeta" || file)
    pf.nodes = (p + pf.cores_per_node - 1) / std::max<int64_t>(pf.cores_per_node, 1);
  try {
    platforms::validate(pf);
    platforms::hostfile(pf, p);  // p must fit
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return pf;
}

int64_t parse_bytes(const std::string& text, const std::string& what) {
  static const std::pair<const char*, int64_t> units[] = {{"GiB", int64_t{1} << 30}, {"MiB", int64_t{1} << 20},
                                                          {"KiB", int64_t{1} << 10}, {"B", 1}};
  std::string digits = text;
  int64_t unit = 1;
  for (const auto& [suffix, factor] : units) {
    const size_t len = std::char_traits<char>::length(suffix);
    if (text.size() > len && text.compare(text.size() - len, len, suffix) == 0) {
      digits = text.substr(0, text.size() - len);
      unit = factor;
      break;
    }
  }
  const int64_t v = cli::parse_int(digits, what, 0, INT64_MAX / unit);
  if (v * unit > INT_MAX)
    throw UsageError(what + ": " + text + " exceeds " + std::to_string(INT_MAX) + " bytes (one MPI count)");
  return v * unit;
}

std::vector<int64_t> parse_sizes(const std::string& text, const std::string& what) {
  std::vector<int64_t> sizes;
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    size_t start = 0;
    for (size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
      sizes.push_back(parse_bytes(text.substr(start, comma - start), what));
    sizes.push_back(parse_bytes(text.substr(start), what));
    return sizes;
  }
  const int64_t lo = parse_bytes(text.substr(0, colon), what), hi = parse_bytes(text.substr(colon + 1), what);
  if (lo < 1 || lo > hi) throw UsageError(what + ": range '" + text + "' needs 1 <= A <= B");
  for (int64_t s = lo; s <= hi; s *= 2) sizes.push_back(s);  // s <= INT_MAX, so 2s cannot overflow
  if (sizes.back() != hi) sizes.push_back(hi);
  return sizes;
}

std::string format_bytes(int64_t b) {
  for (auto [suffix, shift] : {std::pair{"GiB", 30}, std::pair{"MiB", 20}, std::pair{"KiB", 10}})
    if (b >= (int64_t{1} << shift) && b % (int64_t{1} << shift) == 0) return std::to_string(b >> shift) + suffix;
  return std::to_string(b) + "B";
}

namespace {
std::string fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}
}  // namespace

std::string csv_line(const Row& r) {
  char time[64], model[64] = "";
  std::snprintf(time, sizeof time, "%.3f", r.time_us);
  if (r.model_us) std::snprintf(model, sizeof model, "%.3f", *r.model_us);
  return r.collective + "," + r.algorithm + "," + std::to_string(r.p) + "," + std::to_string(r.bytes) + "," +
         std::to_string(r.blocks) + "," + time + "," + model + "," + std::to_string(r.root) + "," +
         std::to_string(r.reps) + "," + r.op + "," + r.layout + "," + (r.correct ? "1" : "0") + "," +
         std::to_string(r.checked_ranks) + "," + fixed(r.wall_s, 2) + "," + fixed(r.cpu_s, 2) + "," +
         fixed(r.mem_mib, 1);
}

namespace {

std::string join(const std::vector<int64_t>& v) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

}  // namespace

Row parse_row(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string field; std::getline(ss, field, ',');) f.push_back(field);
  if (line.back() == ',') f.emplace_back();
  if (f.size() != 13) throw std::runtime_error("malformed harness line: " + line);
  Row r{f[0],           f[1], std::stoll(f[2]), std::stoll(f[3]), std::stoll(f[4]), std::stod(f[5]), std::nullopt,
        std::stoll(f[7]), std::stoi(f[8]), f[9], f[10], f[11] == "1", std::stoll(f[12])};
  if (!f[6].empty()) r.model_us = std::stod(f[6]);
  return r;
}

namespace {

// What the harness prints: kCsvHeader without the columns the launcher adds.
const std::string kHarnessHeader = std::string(kCsvHeader).substr(0, std::string(kCsvHeader).find(",wall_s"));

// Proportional set size of process `pid` in KiB (0 once it is gone). PSS
// divides each page among its mappings, so SimGrid's shared pages, mapped
// once per rank, count once; RSS would count them p times.
double pss_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/smaps_rollup");
  for (std::string key; in >> key; in.ignore(std::numeric_limits<std::streamsize>::max(), '\n'))
    if (key == "Pss:") {
      double kib = 0;
      in >> kib;
      return kib;
    }
  return 0;
}

// `root` and all its descendants, from the parent ids in /proc/PID/stat.
std::vector<pid_t> process_tree(pid_t root) {
  std::multimap<pid_t, pid_t> children;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat;
    std::getline(std::ifstream(entry.path() / "stat"), stat);
    const size_t paren = stat.rfind(')');  // the command name may hold spaces
    if (paren == std::string::npos) continue;
    std::istringstream rest(stat.substr(paren + 1));
    char state = 0;
    pid_t parent = 0;
    if (rest >> state >> parent) children.emplace(parent, std::stoi(name));
  }
  std::vector<pid_t> tree{root};
  for (size_t i = 0; i < tree.size(); ++i)
    for (auto [it, end] = children.equal_range(tree[i]); it != end; ++it) tree.push_back(it->second);
  return tree;
}

struct Measured {
  int status = 0;  // as std::system gives it
  double wall_s = 0, cpu_s = 0, mem_mib = 0;
};

double children_cpu_s() {
  rusage use{};
  getrusage(RUSAGE_CHILDREN, &use);
  return static_cast<double>(use.ru_utime.tv_sec + use.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(use.ru_utime.tv_usec + use.ru_stime.tv_usec);
}

double own_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Runs `cmd` under /bin/sh like std::system, sampling the peak PSS of its
// process tree. Reading smaps_rollup of 16,384 ranks' mappings costs tenths
// of a second, so samples are at least 50 ms and 20 reading times apart (the
// sampler takes at most 5% of a core; wall_s is late by up to one interval).
Measured run_measured(const std::string& cmd) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu_before = children_cpu_s();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot start smpirun: fork failed");
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  Measured m;
  double peak_kib = 0;
  while (waitpid(pid, &m.status, WNOHANG) == 0) {
    const double reading = own_cpu_s();
    double kib = 0;
    for (pid_t p : process_tree(pid)) kib += pss_kib(p);
    peak_kib = std::max(peak_kib, kib);
    usleep(static_cast<useconds_t>(std::max(0.05, 20 * (own_cpu_s() - reading)) * 1e6));
  }
  m.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m.cpu_s = children_cpu_s() - cpu_before;
  m.mem_mib = peak_kib / 1024;
  return m;
}

// The α-β network of SMPI (measured with SimGrid 3.32): CM02 without TCP
// effects gives exactly α + (m + 16)β per message; SMPI's piecewise model,
// cross traffic and the benchmarking of host code would blur it. Sends are
// never detached, so a send occupies its sender for the whole message as in
// the one-ported model (by default SMPI returns from sends under 64 KiB at
// once and lets them share the link afterwards).
const char* const kNetworkFlags =
    "--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:1e30 "
    "--cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 --cfg=smpi/send-is-detached-thresh:0 "
    "--log=root.thres:warning --log=xbt_cfg.thres:warning";

// Scale mode (measured with SimGrid 3.32): 64 KiB stacks instead of 8 MiB;
// no guard pages, which cost a mapping each and exhaust vm.max_map_count
// (65530) near 16,384 ranks; a tree barrier instead of SimGrid's linear one
// (14.7 s of wall time at 16,384 ranks); shared pages across all ranks.
const char* const kScaleFlags =
    "--cfg=contexts/stack-size:64 --cfg=contexts/guard-size:0 --cfg=smpi/barrier:ompi_tree "
    "--cfg=smpi/shared-malloc:global";

// One smpirun over `algos` (all ours, or one built-in).
std::vector<Row> run_batch(const SimRequest& req, const std::vector<const Algorithm*>& algos, const ScratchDir& dir,
                           const fs::path& platform) {
  std::string names, extra;
  for (const Algorithm* a : algos) names += (names.empty() ? "" : ",") + std::string(a->name);
  // "default" needs no selection (and scan and exscan have no selector).
  if (algos.front()->has(kSmpiBuiltin) && algos.front()->builtin_name() != "default")
    extra = std::string("--cfg=smpi/") + collective_name(algos.front()->collective) + ":" + algos.front()->builtin_name();
  const char* lib_env = std::getenv("COLLSIM_SMPI_LIB");
  const std::string lib = lib_env ? lib_env : COLLSIM_SMPI_LIB;
  char net[200];
  std::snprintf(net, sizeof net, "--alpha %.17g --beta %.17g --gamma %.17g --duplex %s", req.platform.alpha,
                req.platform.beta, req.platform.gamma, req.platform.full_duplex ? "full" : "half");
  const fs::path out = dir.path() / "out.csv", err = dir.path() / "err.txt";
  const std::string cmd = "cd " + shell_quote(dir.path().string()) + " && smpirun -no-privatize -np " + std::to_string(req.p) +
                          " -platform " + shell_quote(platform.string()) + " -hostfile hosts.txt " + kNetworkFlags + " " +
                          (req.scale ? kScaleFlags : "") + " " + extra + " " + shell_quote(lib) +
                          " --scale " + (req.scale ? "1" : "0") + " --collective " + collective_name(algos.front()->collective) +
                          " --algos " + names + " --sizes " + join(req.sizes) + " --roots " + join(req.roots) +
                          " --blocks " + std::to_string(req.blocks) + " " + net + " --reps " +
                          std::to_string(req.reps) + " --warmup " + std::to_string(req.warmup) + " --op " +
                          operator_name(req.op) + " --layout " + layout_name(req.layout) + " > " +
                          shell_quote(out.string()) + " 2> " + shell_quote(err.string());
  const Measured run = run_measured(cmd);
  const int status = run.status;
  const std::string text = read_text_file(out);
  std::vector<Row> rows;
  std::stringstream lines(text);
  std::string line;
  const bool header = static_cast<bool>(std::getline(lines, line)) && line == kHarnessHeader;
  // smpirun appends its own lines (the command, "Execution failed") when the program fails.
  const std::string prefix = std::string(collective_name(algos.front()->collective)) + ",";
  while (header && std::getline(lines, line))
    if (line.compare(0, prefix.size(), prefix) == 0) rows.push_back(parse_row(line));
  // Status 1 with every row present: some result was wrong, which the rows say.
  if (!header || rows.size() != algos.size() * req.sizes.size() * req.roots.size() ||
      (status != 0 && std::none_of(rows.begin(), rows.end(), [](const Row& r) { return !r.correct; }))) {
    std::string why;
    std::stringstream errs(read_text_file(err));
    for (std::string l; std::getline(errs, l);)
      if (l.find("rror") != std::string::npos || l.find("CRITICAL") != std::string::npos) why += "\n  " + l;
    throw std::runtime_error("smpirun failed for " + names + " (status " + std::to_string(status) + ")" +
                             (why.empty() ? "; run it by hand: " + cmd : why));
  }
  for (Row& r : rows) {
    r.wall_s = run.wall_s;
    r.cpu_s = run.cpu_s;
    r.mem_mib = run.mem_mib;
  }
  return rows;
}

}  // namespace

std::vector<Row> simulate(const SimRequest& req, const std::function<void(size_t, size_t)>& on_batch,
                          std::vector<std::string>* failures) {
  // Every rank holds the whole message (reductions: input and result):
  // p·m or 2p·m bytes of real memory; in scale mode only the windows' pages
  // are private, plus one rank's share each (2m in all).
  constexpr int64_t kMemoryLimit = int64_t{8} << 30;
  const Collective c = req.algos.front()->collective;
  const int64_t copies = c == Collective::bcast ? 1 : 2, elem = element_bytes(c, req.op);
  for (int64_t bytes : req.sizes) {
    const int64_t per_rank = req.scale ? std::min(bytes, kMaxWindowBytes) : bytes;
    if (per_rank > (kMemoryLimit - (req.scale ? 2 * bytes : 0)) / copies / req.p)
      throw UsageError("p x size = " + std::to_string(req.p) + " x " + format_bytes(bytes) +
                       " exceeds the 8 GiB of buffers a simulation may allocate");
    if (bytes % elem != 0)
      throw UsageError("size " + format_bytes(bytes) + " is no whole number of " + std::to_string(elem) + "-byte " +
                       operator_name(req.op) + " elements");
  }
  const ScratchDir dir("collsim");
  const bool file = req.platform.name.size() > 4 &&
                    req.platform.name.compare(req.platform.name.size() - 4, 4, ".xml") == 0;
  const fs::path platform = file ? fs::absolute(req.platform.name) : dir.path() / "platform.xml";
  if (!file) std::ofstream(platform) << platforms::platform_xml(req.platform);
  std::ofstream(dir.path() / "hosts.txt") << platforms::hostfile(req.platform, req.p);
  // Ours in one batch, each built-in in its own.
  std::vector<std::vector<const Algorithm*>> batches(1);
  for (const Algorithm* a : req.algos) {
    if (a->has(kSmpiBuiltin))
      batches.push_back({a});
    else
      batches.front().push_back(a);
  }
  if (batches.front().empty()) batches.erase(batches.begin());
  const size_t per_algo = req.sizes.size() * req.roots.size();
  size_t done = 0;
  std::vector<Row> rows;
  for (const auto& batch : batches) {
    try {
      auto more = run_batch(req, batch, dir, platform);
      rows.insert(rows.end(), more.begin(), more.end());
    } catch (const std::runtime_error& e) {
      if (!failures) throw;
      failures->push_back(e.what());
    }
    done += batch.size() * per_algo;
    if (on_batch) on_batch(done, req.algos.size() * per_algo);
  }
  return rows;
}

}  // namespace collsim::sim
