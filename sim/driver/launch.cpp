#include "launch.hpp"

#include <signal.h>
#include <sys/resource.h>
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
#include <sstream>
#include <stdexcept>

#include "bounded_read.hpp"
#include "engine_run.hpp"
#include "goal_read.hpp"
#include "errors.hpp"
#include "output.hpp"
#include "plan_builders.hpp"
#include "platform_check.hpp"
#include "process.hpp"
#include "scale.hpp"
#include "scratch_dir.hpp"

namespace collsim::sim {

namespace fs = std::filesystem;

std::string format_bytes(int64_t b) {
  for (auto [suffix, shift] : {std::pair{"GiB", 30}, std::pair{"MiB", 20}, std::pair{"KiB", 10}})
    if (b >= (int64_t{1} << shift) && b % (int64_t{1} << shift) == 0) return std::to_string(b >> shift) + suffix;
  return std::to_string(b) + "B";
}

namespace {

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

struct Measured {
  ExitStatus status;
  double wall_s = 0, cpu_s = 0, mem_mib = 0;
  double limit_s = 0;      // COLLSIM_TIME_LIMIT, 0: none
  bool timed_out = false;  // killed at the limit
};

// COLLSIM_TIME_LIMIT: the seconds one smpirun may take before it and its
// children are killed (unset or 0: no limit). The test suite sets it, so a
// hung simulation fails its test instead of holding CI.
double time_limit_s() {
  const char* text = std::getenv("COLLSIM_TIME_LIMIT");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const double limit = std::strtod(text, &end);
  if (*end != '\0' || !std::isfinite(limit) || limit < 0)
    throw std::invalid_argument(std::string("COLLSIM_TIME_LIMIT='") + text + "' is not a number of seconds >= 0");
  return limit;
}

double children_cpu_s() {
  rusage use{};
  getrusage(RUSAGE_CHILDREN, &use);
  return static_cast<double>(use.ru_utime.tv_sec + use.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(use.ru_utime.tv_usec + use.ru_stime.tv_usec);
}


// Runs `cmd`, sampling the peak PSS of its process tree. Reading
// smaps_rollup of 16,384 ranks' mappings costs tenths of a second, so samples
// are at least 50 ms and 20 reading times apart (the sampler takes at most 5%
// of a core; wall_s is late by up to one interval).
Measured run_measured(const Command& cmd) {
  Measured m;
  const double limit = m.limit_s = time_limit_s();
  const auto start = std::chrono::steady_clock::now();
  const double cpu_before = children_cpu_s();
  const pid_t pid = start_process(cmd);
  double peak_kib = 0;
  m.status = wait_process(pid, [&] {
    const double reading = process_cpu_seconds();
    double kib = 0;
    const std::vector<pid_t> tree = process_tree(pid);
    for (pid_t p : tree) kib += pss_kib(p);
    peak_kib = std::max(peak_kib, kib);
    if (limit > 0 && !m.timed_out &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limit) {
      m.timed_out = true;
      for (pid_t p : tree) kill(p, SIGKILL);
    }
    usleep(static_cast<useconds_t>(std::max(0.05, 20 * (process_cpu_seconds() - reading)) * 1e6));
  });
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
const std::vector<std::string> kScaleFlags = {"--cfg=contexts/stack-size:64", "--cfg=contexts/guard-size:0",
                                              "--cfg=smpi/barrier:ompi_tree", "--cfg=smpi/shared-malloc:global"};

// SimGrid's report of simulated ranks that wait for each other forever.
bool reports_deadlock(const std::string& err) { return err.find("Deadlock") != std::string::npos; }

// Why a batch failed, in one line: SimGrid's own error lines (at most
// three), or the exit status.
std::string failure_reason(const ExitStatus& status, const std::string& err) {
  if (reports_deadlock(err)) return "deadlock: the simulated ranks wait for each other forever";
  std::string why;
  int kept = 0;
  std::stringstream errs(err);
  for (std::string l; std::getline(errs, l) && kept < 3;)
    if (l.find("rror") != std::string::npos || l.find("CRITICAL") != std::string::npos)
      why += (kept++ ? "; " : ": ") + l;
  return status.describe() + (why.empty() ? ", printed no result rows" : why);
}

// One smpirun over `algos` (all ours, or one built-in).
Collective collective_of(const SimRequest& req) {
  return req.algos.empty() ? req.plans.front().collective : req.algos.front()->collective;
}

// The model of a row on a platform with o or g (engine_run.hpp: model_us):
// none for an algorithm of MPI code without a plan builder, which the
// engine cannot evaluate (docs/adding-an-algorithm.md).
std::optional<double> loggp_model(const SimRequest& req, const Row& r) {
  const Collective c = collective_of(req);
  const Algorithm* a = nullptr;
  for (const Algorithm* x : req.algos)
    if (x->name == r.algorithm) a = x;
  if (a == nullptr || a->has(kSmpiBuiltin)) return std::nullopt;
  if (!plan::has_plan(c, a->name)) return std::nullopt;
  return model_us(req, *a, r.bytes, r.root, r.blocks);
}

// The scratch directory's fixed names: smpirun's shell sees no other
// (scratch_dir.hpp). Plan files are copied, so their names are gone.
constexpr const char* kPlatformName = "platform.xml";
constexpr const char* kHarnessName = "libcollsim-smpi.so";
std::string staged_plan(size_t i) { return "plan-" + std::to_string(i) + ".plan"; }
// A GOAL schedule's staged copy (simulate_goal).
constexpr const char* kStagedGoal = "schedule.goal";

// Writes the platform (ours, or a copy of the user's XML), the host file and
// copies of the plan files into `dir`, and links the harness library there.
void stage(const SimRequest& req, const ScratchDir& dir) {
  const std::string& name = req.platform.name;
  const bool file = name.size() > 4 && name.compare(name.size() - 4, 4, ".xml") == 0;
  // A user's XML is checked again as copied: SimGrid reads only the text
  // that was accepted, even if the file changed since the options were read.
  const std::string xml =
      file ? read_bounded_file(name, kMaxPlatformFileBytes, "platform file") : platforms::platform_xml(req.platform);
  if (file) platforms::check_platform_xml(xml, name, platforms::hosts_used(req.platform, req.p));
  write_file(dir.path() / kPlatformName, xml);
  write_file(dir.path() / "hosts.txt", platforms::hostfile(req.platform, req.p));
  // The plans as the driver read and checked them (PlanFile::plan), not
  // the files again: what runs is what was checked.
  for (size_t i = 0; i < req.plans.size(); ++i) {
    std::ostringstream text;
    plan::write_plan(text, *req.plans[i].plan);
    write_file(dir.path() / staged_plan(i), text.str());
  }
  const char* lib_env = std::getenv("COLLSIM_SMPI_LIB");
  fs::create_symlink(fs::absolute(lib_env != nullptr ? lib_env : COLLSIM_SMPI_LIB), dir.path() / kHarnessName);
}

// What one smpirun runs: all of our catalog algorithms, or one plan file
// (so that one that deadlocks takes nothing else with it), or one SimGrid
// built-in (each needs its own --cfg=smpi/<collective>:<name>).
struct Batch {
  std::vector<const Algorithm*> algos;
  std::optional<size_t> plan;  // an index into SimRequest::plans
};

std::vector<Batch> batches_of(const SimRequest& req) {
  Batch ours;
  for (const Algorithm* a : req.algos)
    if (!a->has(kSmpiBuiltin)) ours.algos.push_back(a);
  std::vector<Batch> batches;
  if (!ours.algos.empty()) batches.push_back(ours);
  for (size_t i = 0; i < req.plans.size(); ++i) batches.push_back({{}, i});
  for (const Algorithm* a : req.algos)
    if (a->has(kSmpiBuiltin)) batches.push_back({{a}, std::nullopt});
  return batches;
}

// The harness's arguments for `batch` (a plan file: its staged copy).
HarnessArgs harness_args(const SimRequest& req, const Batch& batch) {
  HarnessArgs args{
      collective_of(req), {},       {},         req.sizes, req.roots,  req.blocks, {},
      Net(req.platform),  req.reps, req.warmup, req.op,    req.layout, req.scale,  req.ignore_restrictions};
  for (const Algorithm* a : batch.algos) {
    args.algos.push_back(a->name);
    const Net net(req.platform, element_bytes(a->collective, req.op));
    for (int64_t bytes : req.sizes)
      if (const auto n = contention_blocks(req, *a, net, bytes)) args.chosen_blocks.push_back({a->name, bytes, *n});
  }
  if (batch.plan) args.plan_files.push_back(staged_plan(*batch.plan));
  return args;
}

// One smpirun of the harness with `args`, `options` after the platform's:
// the rows of the lines that start with `prefix`, with what the run took.
// Throws, naming `names`, when the run failed or gave other than `expected`
// rows; DeadlockError where that was a deadlock.
std::vector<Row> run_harness(const SimRequest& req, const HarnessArgs& args, const std::vector<std::string>& options,
                             ScratchDir& dir, size_t number, const std::string& prefix, size_t expected,
                             const std::string& names) {
  SmpirunCall call{req.p, kPlatformName, smpi_network_flags(), std::string("./") + kHarnessName, to_argv(args),
                   "batch-" + std::to_string(number)};
  for (auto& flag : platforms::overhead_flags(req.platform)) call.options.push_back(std::move(flag));
  if (req.scale) call.options.insert(call.options.end(), kScaleFlags.begin(), kScaleFlags.end());
  call.options.insert(call.options.end(), options.begin(), options.end());
  const Command cmd = smpirun_command(dir, call);

  const Measured run = run_measured(cmd);
  std::vector<Row> rows;
  std::stringstream lines(read_text_file(cmd.stdout_to));
  std::string line;
  const bool header = static_cast<bool>(std::getline(lines, line)) && line == kCsvHeader;
  // smpirun appends its own lines (the command, "Execution failed") when the program fails.
  while (header && std::getline(lines, line))
    if (line.compare(0, prefix.size(), prefix) == 0) rows.push_back(parse_row(line));
  // Exit status 1 with every row present: some result was wrong, which the rows say.
  if (!header || rows.size() != expected ||
      (!run.status.ok() && std::none_of(rows.begin(), rows.end(), [](const Row& r) { return !r.correct; }))) {
    dir.keep();
    const std::string err = read_text_file(cmd.stderr_to);
    std::ostringstream why;
    if (run.timed_out)
      why << "killed at COLLSIM_TIME_LIMIT = " << run.limit_s << " s";
    else
      why << failure_reason(run.status, err);
    const std::string message = "smpirun failed for " + names + " (" + why.str() + "); files kept in " +
                                dir.path().string() + "; rerun: " + display_command(cmd);
    if (!run.timed_out && reports_deadlock(err)) throw DeadlockError(message);
    throw std::runtime_error(message);
  }
  for (Row& r : rows) {
    r.wall_s = run.wall_s;
    r.cpu_s = run.cpu_s;
    r.mem_mib = run.mem_mib;
  }
  return rows;
}

// Batch number `number` of simulate: one smpirun. A failure that is a
// deadlock is DeadlockError.
std::vector<Row> run_batch(const SimRequest& req, const Batch& batch, ScratchDir& dir, size_t number,
                           const std::vector<std::string>& more_options = {}) {
  const std::vector<const Algorithm*>& algos = batch.algos;
  const HarnessArgs args = harness_args(req, batch);
  std::vector<std::string> options;
  // "default" needs no selection (and scan and exscan have no selector).
  if (!algos.empty() && algos.front()->has(kSmpiBuiltin) && algos.front()->builtin_name() != "default")
    options.push_back(std::string("--cfg=smpi/") + collective_name(args.collective) + ":" +
                      algos.front()->builtin_name());
  options.insert(options.end(), more_options.begin(), more_options.end());
  // The harness names a plan by its staged copy (plan:plan-0.plan); the user
  // knows it by the file's own name.
  const std::string plan_name = batch.plan ? plan_row_name(req.plans[*batch.plan].path) : "";
  std::string names;
  for (const auto& name : args.algos) names += (names.empty() ? "" : ",") + name;
  if (batch.plan) names += (names.empty() ? "" : ",") + plan_name;
  std::vector<Row> rows =
      run_harness(req, args, options, dir, number, std::string(collective_name(args.collective)) + ",",
                  (args.algos.size() + args.plan_files.size()) * req.sizes.size() * req.roots.size(), names);
  for (Row& r : rows) {
    if (batch.plan && r.algorithm == plan_row_name(args.plan_files.front())) r.algorithm = plan_name;
    // The catalog's models are α-β ones (rendezvous, no o or g); with o or
    // g the model is the plan under the eager rules.
    if (req.platform.has_overheads()) r.model_us = loggp_model(req, r);
  }
  return rows;
}

}  // namespace

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

const std::vector<std::string>& smpi_network_flags() {
  static const std::vector<std::string> flags = {
      "--cfg=network/model:CM02",      "--cfg=network/crosstraffic:0",       "--cfg=network/TCP-gamma:1e30",
      "--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0", "--cfg=smpi/send-is-detached-thresh:0",
      "--log=root.thres:warning",      "--log=xbt_cfg.thres:warning"};
  return flags;
}

void check_sizes(const SimRequest& req) {
  // The copies of the m-byte vector a rank holds at once, the most over our
  // algorithms (PSS of `run --p 32 --size 16MiB --platform alphabeta`,
  // 512 MiB a copy): bcast 1.04; allgatherv 1.3; scans, exscans and
  // reductions up to 5.06 (circulant allreduce at its policy's block
  // count, reduce ring with matmul 4.97). In scale mode only the windows'
  // pages are private, plus one rank's share each (2m in all). 12 GiB of
  // buffers leaves half of this 24 GB machine to SimGrid and the rest.
  constexpr int64_t kMemoryLimit = int64_t{12} << 30;
  const Collective c = collective_of(req);
  const int64_t copies = c == Collective::bcast ? 1 : c == Collective::allgatherv ? 2 : 5;
  const int64_t elem = element_bytes(c, req.op);
  for (int64_t bytes : req.sizes) {
    const int64_t per_rank = req.scale ? std::min(bytes, kMaxWindowBytes) : bytes;
    if (per_rank > (kMemoryLimit - (req.scale ? 2 * bytes : 0)) / copies / req.p)
      throw LimitError("p x size = " + std::to_string(req.p) + " x " + format_bytes(bytes) + " needs " +
                       std::to_string(copies) + " copies a rank, over the 12 GiB of buffers a simulation may allocate" +
                       (req.scale ? "" : " (--scale on keeps 4 KiB a rank real)"));
    if (bytes % elem != 0)
      throw std::invalid_argument("size " + format_bytes(bytes) + " is no whole number of " + std::to_string(elem) +
                                  "-byte " + operator_name(req.op) + " elements");
  }
}

// SimGrid's Paje trace of the MPI calls (states), the messages inside
// them (links, with sizes: tracing/smpi/internals shows those of SimGrid's
// own collectives), the ⊕ (computing: the harness charges it with
// smpi_execute_flops) and the sleep before each timed call (sleeping),
// with times to the picosecond.
const std::vector<std::string>& paje_flags() {
  static const std::vector<std::string> flags = {
      "--cfg=tracing:yes",
      "--cfg=tracing/smpi:yes",
      "--cfg=tracing/smpi/internals:yes",
      "--cfg=tracing/smpi/computing:yes",
      "--cfg=tracing/smpi/sleeping:yes",
      "--cfg=tracing/smpi/display-sizes:yes",
      "--cfg=tracing/precision:12",
      std::string("--cfg=tracing/filename:") + kPajeTraceName};
  return flags;
}

namespace {

// Once per process (map and tune simulate many times): times of first
// calls are not what compare's tables mean.
void say_if_cold(const SimRequest& req) {
  static bool said = false;
  if (req.warmup > 0 || said) return;
  said = true;
  std::fprintf(stderr, "collsim: note: --warmup 0: the times are of first (cold) calls, SimGrid's built-ins' "
                       "one-time setup included\n");
}

// What simulate and simulate_traced check before starting smpirun: the
// buffers fit, no algorithm breaks its restrictions unasked; and the note
// on cold calls.
void check_runnable(const SimRequest& req) {
  check_sizes(req);
  for (const Algorithm* a : req.algos)
    if (const std::string unmet = unmet_restriction(*a, req.op); !unmet.empty() && !req.ignore_restrictions)
      throw std::invalid_argument(unmet + " (run --ignore-restrictions runs it anyway, to see it fail)");
  say_if_cold(req);
}

}  // namespace

Row simulate_traced(const SimRequest& req, const std::function<void(const std::filesystem::path&)>& read_trace) {
  const std::vector<Batch> batches = batches_of(req);
  if (batches.size() != 1 || req.sizes.size() != 1 || req.roots.size() != 1 || batches[0].algos.size() > 1)
    throw std::logic_error("simulate_traced: one algorithm or plan, one size, one root");
  check_runnable(req);
  ScratchDir dir("collsim");
  stage(req, dir);
  const std::vector<Row> rows = run_batch(req, batches[0], dir, 0, paje_flags());
  read_trace(dir.path() / kPajeTraceName);
  return rows.at(0);
}

Row simulate_goal(const SimRequest& req, const std::string& path) {
  // The text the driver read and checked is what runs, under a fixed name.
  const std::string text = read_bounded_file(path, kMaxPlanFileBytes, "GOAL file");
  std::istringstream in(text);
  const goal::Schedule schedule = goal::read_goal(in);
  goal::require_ranks(schedule, req.p, "--p says");
  ScratchDir dir("collsim");
  stage(req, dir);
  write_file(dir.path() / kStagedGoal, text);
  HarnessArgs args;
  args.plan_files = {kStagedGoal};
  args.sizes = {0};
  args.net = Net(req.platform);
  args.reps = req.reps, args.warmup = req.warmup;
  std::vector<Row> rows = run_harness(req, args, {}, dir, 0, "goal,", 1, plan_row_name(path));
  rows.front().algorithm = plan_row_name(path);
  return rows.front();
}

std::vector<Row> simulate(const SimRequest& req, const std::function<void(size_t, size_t)>& on_batch,
                          std::vector<std::string>* failures, std::vector<std::string>* deadlocked) {
  check_runnable(req);
  ScratchDir dir("collsim");
  stage(req, dir);
  const std::vector<Batch> batches = batches_of(req);
  const size_t per_algo = req.sizes.size() * req.roots.size();
  size_t done = 0;
  std::vector<Row> rows;
  for (size_t i = 0; i < batches.size(); ++i) {
    try {
      auto more = run_batch(req, batches[i], dir, i);
      rows.insert(rows.end(), more.begin(), more.end());
    } catch (const std::runtime_error& e) {
      if (!failures) throw;
      failures->push_back(e.what());
      if (deadlocked && dynamic_cast<const DeadlockError*>(&e)) {
        for (const Algorithm* a : batches[i].algos) deadlocked->push_back(a->name);
        if (batches[i].plan) deadlocked->push_back(plan_row_name(req.plans[*batches[i].plan].path));
      }
    }
    done += (batches[i].algos.size() + (batches[i].plan ? 1 : 0)) * per_algo;
    if (on_batch) on_batch(done, (req.algos.size() + req.plans.size()) * per_algo);
  }
  return rows;
}

}  // namespace collsim::sim
