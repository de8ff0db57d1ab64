#include "sim_options.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

#include "bounded_read.hpp"
#include "bounded_stream.hpp"
#include "errors.hpp"
#include "plan.hpp"
#include "plan_builders.hpp"
#include "platform_check.hpp"
#include "work_limits.hpp"

namespace collsim::sim {

namespace fs = std::filesystem;
using cli::po::value;
using cli::UsageError;

void add_platform_options(cli::po::options_description& opts) {
  opts.add_options()("platform", value<std::string>()->default_value("loggp"),
                     ("loggp (the default: a flat LogGP cluster), alphabeta (latency that any number of messages "
                      "overlap), a preset, FILE.xml (SimGrid's), or FILE.platform "
                      "(`collsim calibrate`'s); "
                      "presets: " +
                      [] {
                        std::string s;
                        for (auto& n : platforms::preset_names()) s += (s.empty() ? "" : ", ") + n;
                        return s;
                      }())
                         .c_str())("alpha", value<double>(),
                                   "seconds per message between nodes (loggp: L = 2.5e-6; alphabeta: 5e-6)")(
      "beta", value<double>(), "seconds per byte between nodes (loggp: G = 1e-10; alphabeta: 1e-9)")(
      "bw", value<double>(), "bytes per second between nodes, instead of --beta")(
      "duplex", value<std::string>(), "full (SPLITDUPLEX links) or half (SHARED)")(
      "gamma", value<double>(), "seconds per byte of a reduction operator")(
      "nodes", value<int64_t>(), "nodes of the cluster (flat presets: enough for p)")(
      "cores-per-node", value<int64_t>(), "ranks per node (flat presets: 1)")(
      "intra-alpha", value<double>(), "seconds per message within a node")("intra-beta", value<double>(),
                                                                           "seconds per byte within a node")(
      "o", value<double>(),
      "LogGP overhead: seconds of a rank's CPU per send and per receive (loggp: 1.5e-6; on a flat platform SMPI "
      "then sends messages under 64 KiB eagerly)")(
      "g", value<double>(), "LogGP gap: seconds between a rank's sends (loggp: 1e-6, oneported: 5e-6)")(
      "topology", value<std::string>(), platforms::topology_help().c_str())(
      "placement", value<std::string>(), "block (default: consecutive ranks share a node) or round-robin");
}

namespace {

// Nodes and cores for p ranks, with messages in the options' terms: a flat
// platform (the flat presets and files) grows to ceil(p / cores-per-node)
// nodes unless --nodes is given; a cluster preset (`fixed`) keeps its own.
void size_platform(const cli::po::variables_map& vm, platforms::Platform& pf, int64_t p, bool fixed) {
  const int64_t cores = pf.cores_per_node;
  if (cores < 1 || cores > platforms::kMaxCoresPerNode)
    throw UsageError("--cores-per-node must be in [1, " + std::to_string(platforms::kMaxCoresPerNode) + "]");
  if (cores > 1 && pf.intra_beta == 0)
    throw UsageError("--cores-per-node " + std::to_string(cores) + ": platform '" + pf.name +
                     "' has no network within a node; add --intra-beta SECONDS_PER_BYTE (and --intra-alpha SECONDS)");
  if (vm.count("nodes")) {
    pf.nodes = vm["nodes"].as<int64_t>();
    if (pf.nodes < 1 || pf.nodes > platforms::kMaxNodes)
      throw UsageError("--nodes must be in [1, 2^24 = " + std::to_string(platforms::kMaxNodes) + "]");
    return;
  }
  if (fixed) return;
  pf.nodes = (p + cores - 1) / cores;
  if (pf.nodes > platforms::kMaxNodes) {
    const int64_t least = (p + platforms::kMaxNodes - 1) / platforms::kMaxNodes;
    throw UsageError("--p " + std::to_string(p) + " at " + std::to_string(cores) +
                     " rank(s) per node needs " + std::to_string(pf.nodes) +
                     " nodes, more than a platform's 2^24; lower --p or give --cores-per-node " +
                     std::to_string(least) + " or more (with --intra-beta)");
  }
}

}  // namespace

platforms::Platform platform_from(const cli::po::variables_map& vm, int64_t p) {
  const std::string name = vm["platform"].as<std::string>();
  const platforms::Platform* preset = platforms::find_preset(name);
  auto ends_with = [&name](const std::string& tail) {
    return name.size() > tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  const bool file = ends_with(".xml"), measured = ends_with(".platform");
  if (!preset && !file && !measured) {
    std::string known;
    for (auto& n : platforms::preset_names()) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("unknown platform '" + name + "'; known: " + known + ", FILE.xml or FILE.platform");
  }
  platforms::Platform pf = preset ? *preset : *platforms::find_preset("alphabeta");
  if (measured) {
    // Bounded, and a directory or device is refused (read_bounded_file's own line).
    std::istringstream in(read_bounded_file(name, kMaxSmallFileBytes, "platform file"));
    try {
      pf = platforms::read_platform_file(in, name);
    } catch (const std::invalid_argument& e) {
      throw UsageError("platform file '" + name + "', " + e.what());
    }
  }
  pf.name = name;
  auto set = [&](const char* key, auto& field) {
    if (vm.count(key)) field = vm[key].as<std::remove_reference_t<decltype(field)>>();
  };
  set("alpha", pf.alpha);
  set("beta", pf.beta);
  set("gamma", pf.gamma);
  set("intra-alpha", pf.intra_alpha);
  set("intra-beta", pf.intra_beta);
  set("o", pf.o);
  set("g", pf.g);
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
  if (vm.count("placement")) {
    const std::string placement = vm["placement"].as<std::string>();
    cli::require_one_of(placement, "placement", {"block", "round-robin"});
    pf.round_robin = placement == "round-robin";
  }
  if (vm.count("topology")) {
    if (file) throw UsageError("--topology: a platform file has its own network");
    try {
      pf.topology = platforms::parse_topology(vm["topology"].as<std::string>());
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--topology: ") + e.what());
    }
  }
  size_platform(vm, pf, p, preset && preset->cores_per_node > 1);
  try {
    platforms::validate(pf);
    platforms::check_fits(pf, p);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  // SimGrid aborts on a platform it cannot use: it gets none we have not checked.
  if (file) platforms::check_platform_xml_file(name, platforms::hosts_used(pf, p));
  return pf;
}

void add_max_messages_option(cli::po::options_description& opts) {
  opts.add_options()("max-messages", value<std::string>(),
                     "refuse (exit 4; compare, map, tune: skip with a warning) a case whose estimated messages, "
                     "summed over the ranks, exceed N, before it runs (default: 2000000000 for --engine loggp, "
                     "100000000 under SMPI, 1000000000 for `collsim plan`: each about an hour or 50 GB); the "
                     "circulant all-to-all plans' block runs (engine) and listed block numbers (plan text) count "
                     "as a fraction of a message each; --engine loggp on shared links also stops (exit 4; compare, "
                     "map: skip) once its bandwidth solves pass N microseconds of work (a plan whose messages fall "
                     "out of step re-solves all those in flight at every event)");
}

double max_messages(const cli::po::variables_map& vm, double default_limit) {
  if (!vm.count("max-messages")) return default_limit;
  return static_cast<double>(cli::parse_int(vm["max-messages"].as<std::string>(), "--max-messages", 1,
                                            std::numeric_limits<int64_t>::max()));
}

void add_common_options(cli::po::options_description& opts) {
  std::string collectives;
  for (Collective c : kCollectives) collectives += (collectives.empty() ? "" : ", ") + std::string(collective_name(c));
  opts.add_options()("collective", value<std::string>()->default_value("bcast"), collectives.c_str())(
      "op", value<std::string>()->default_value("bxor"),
      "reductions: bxor (MPI_LONG, commutative) or matmul (2x2 uint64 matrices, 32 B, not commutative)")(
      "layout", value<std::string>()->default_value("even"),
      "reduce_scatter, allgatherv: how the vector is split: even, ramp (rank r gets ~ r+1 shares), single (all at --root), "
      "mod3 (~ r mod 3 shares: seed 003's irregular problem)")(
      "p", value<std::string>()->required(), "number of ranks, >= 1")(
      "root", value<std::string>()->default_value("0"), "root rank, 0 <= root < p")(
      "reps", value<std::string>(),
      "timed repetitions, minimum reported (default 1: SMPI's simulated times are deterministic, so more "
      "repetitions give the same answer)")(
      "warmup", value<std::string>(),
      "untimed calls of the same algorithm, size and root before the timed ones (default 1: SimGrid's built-ins do "
      "one-time setup on their first call; 0 times first calls, and says so)")(
      "scale", value<std::string>()->default_value("auto"),
      ("on, off or auto (on from p = " + std::to_string(kScaleAutoRanks) +
       "): lean SimGrid settings (64 KiB stacks, no guard pages, tree barrier) and buffers of which only " +
       std::to_string(kWindowUnits) + " units (bytes or elements) at the start are private and checked on every rank, " +
       "the rest shared by all ranks")
          .c_str());
  add_platform_options(opts);
}

namespace {

bool wants_engine(const cli::po::variables_map& vm) {
  return vm.count("engine") && vm["engine"].as<std::string>() == "loggp";
}

// --p: one number, or with `list` a comma-separated list of them.
std::vector<int64_t> read_ps(const cli::po::variables_map& vm, bool list) {
  // SMPI holds every rank in one process; the engine's state is O(p).
  const int64_t most = wants_engine(vm) ? (int64_t{1} << 31) - 1 : int64_t{1} << 20;
  const std::string text = vm["p"].as<std::string>();
  std::vector<int64_t> ps;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) ps.push_back(cli::parse_int(item, "--p", 1, most));
  if (ps.empty() || text.back() == ',') throw UsageError("--p: empty entry in '" + text + "'");
  if (ps.size() > 1 && !list) throw UsageError("--p takes one number here (a list: compare --engine loggp)");
  return ps;
}

}  // namespace

Collective read_common_options(const cli::po::variables_map& vm, SimRequest& req, std::vector<int64_t>* p_list) {
  Collective c;
  try {
    c = parse_collective(vm["collective"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(e.what());
  }
  try {
    req.op = parse_operator(vm["op"].as<std::string>());
    req.layout = parse_layout(vm["layout"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(e.what());
  }
  const std::vector<int64_t> ps = read_ps(vm, p_list != nullptr);
  if (p_list) *p_list = ps;
  req.p = ps.front();
  req.roots = {cli::parse_int(vm["root"].as<std::string>(), "--root", 0, req.p - 1)};
  const std::string scale = vm["scale"].as<std::string>();
  cli::require_one_of(scale, "scale", {"on", "off", "auto"});
  req.scale = scale == "on" || (scale == "auto" && req.p >= kScaleAutoRanks);
  if (vm.count("reps")) req.reps = static_cast<int>(cli::parse_int(vm["reps"].as<std::string>(), "--reps", 1, 1000));
  if (vm.count("warmup"))
    req.warmup = static_cast<int>(cli::parse_int(vm["warmup"].as<std::string>(), "--warmup", 0, 1000));
  // A list of p (compare --engine loggp) runs on one machine, sized for the largest.
  req.platform = platform_from(vm, *std::max_element(ps.begin(), ps.end()));
  return c;
}

void keep_plans(SimRequest& req) {
  std::vector<const Algorithm*> planned;
  for (const Algorithm* a : req.algos)
    if (plan::has_plan(a->collective, a->name)) planned.push_back(a);
  req.algos = planned;
}

void read_blocks(const cli::po::variables_map& vm, SimRequest& req) {
  if (!vm.count("blocks")) return;
  if (!req.algos.at(0)->has(kBlocks))
    throw cli::UsageError(std::string("algorithm '") + req.algos[0]->name + "' takes no --blocks");
  int64_t max_blocks = 1;
  for (int64_t s : req.sizes) max_blocks = std::max(max_blocks, s);
  for (int64_t s : req.sizes)
    if (s > 0) max_blocks = std::min(max_blocks, s);
  const std::string& text = vm["blocks"].as<std::string>();
  if (text == "model") {
    req.model_blocks = true;
    return;
  }
  req.blocks = cli::parse_int(text, "--blocks", 1, max_blocks);
}

void skip_unrunnable(SimRequest& req) {
  std::vector<const Algorithm*> runnable;
  for (const Algorithm* a : req.algos) {
    const std::string unmet = unmet_restriction(*a, req.op);
    if (unmet.empty())
      runnable.push_back(a);
    else
      std::fprintf(stderr, "collsim: warning: skipped: %s\n", unmet.c_str());
  }
  if (runnable.empty() && req.plans.empty()) throw cli::UsageError("no algorithm left to run: every one named needs what this case lacks");
  req.algos = runnable;
}

std::vector<const Algorithm*> read_algorithms(Collective c, const std::string& list, const std::string& what,
                                              std::vector<std::string>* plan_paths) {
  if (list == "all") return algorithms_of(c);
  std::vector<const Algorithm*> algos;
  for (const std::string& name : cli::parse_names(list, what)) {  // an empty or repeated name: an error
    if (name.compare(0, 5, "plan:") == 0) {
      if (!plan_paths) throw cli::UsageError("'" + name + "': plan files are for run (--plan) and compare");
      plan_paths->push_back(name.substr(5));
      continue;
    }
    try {
      algos.push_back(&find_algorithm(c, name));
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError(e.what());
    }
  }
  return algos;
}

void read_plan_files(const std::vector<std::string>& paths, Collective c, SimRequest& req) {
  for (const auto& path : paths) {
    // Any name works: smpirun sees a copy under a fixed name (launch.cpp),
    // and the rows name it by plan_row_name, CSV-safe.
    BoundedFileStream in(path, kMaxPlanFileBytes, "plan file");  // one line for none, a directory, too big
    std::shared_ptr<const plan::Plan> pl;
    try {
      pl = std::make_shared<const plan::Plan>(plan::read_plan(in));
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError("plan file '" + path + "', " + e.what());
    }
    const plan::Header& h = pl->header;
    if (h.p > plan::kMaxHoldings / h.blocks)
      throw LimitError("plan file '" + path + "': p·blocks = " + std::to_string(h.p) + "·" + std::to_string(h.blocks) +
                       " is over the limit of 2^32 that a run keeps per rank and block; a plan with fewer blocks");
    try {
      check_plan_for_case(h, path, c, req.p, req.roots);
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError(e.what());
    }
    req.plans.push_back({fs::absolute(path).string(), c, std::move(pl)});
  }
}

std::string algorithm_help() {
  // The list itself is `collsim algorithms`: ~190 rows of every collective
  // would bury the options.
  return "algorithms: `collsim algorithms [--collective C]` lists the names, per collective: ours first, then\n"
         "SimGrid's built-ins (smpi:NAME), with their restrictions and source files\n";
}

namespace {

// --rules and its parameters --L --G (seconds, seconds per byte); o and g
// are the platform's (--o, --g).
EngineRules read_rules(const cli::po::variables_map& vm) {
  EngineRules rules;
  const std::string set = vm["rules"].as<std::string>();
  cli::require_one_of(set, "rules", {"smpi", "loggopsim"});
  if (set == "loggopsim") rules.set = EngineRules::Set::loggopsim;
  const std::string contention = vm["contention"].as<std::string>();
  cli::require_one_of(contention, "contention", {"on", "off"});
  rules.contention = contention == "on";
  rules.max_messages = max_messages(vm, engine::kDefaultMaxEngineMessages);
  if (!rules.contention && rules.set != EngineRules::Set::smpi)
    throw UsageError("--contention is for --rules smpi (the loggopsim rules share no link)");
  struct Param {
    const char* name;
    std::optional<double>* field;
    const char* unit;
  };
  for (const Param& p : {Param{"L", &rules.L, "seconds"}, Param{"G", &rules.G, "seconds per byte"}}) {
    if (!vm.count(p.name)) continue;
    const double v = vm[p.name].as<double>();
    // Below one second (per byte): 64-bit picoseconds cannot overflow.
    if (!(v >= 0 && v < 1)) throw cli::UsageError(std::string("--") + p.name + " must be >= 0 and < 1 (" + p.unit + ")");
    *p.field = v;
  }
  return rules;
}

}  // namespace

void add_engine_options(cli::po::options_description& opts) {
  opts.add_options()(
      "engine", value<std::string>()->default_value("smpi"),
      "smpi (SimGrid's SMPI runs the MPI code) or loggp (the plan engine evaluates the algorithm's plan "
      "without SimGrid, under --rules; memory grows with the ranks, about 450-1300 bytes each at 1 MiB on loggp: "
      "491 MB for a binomial bcast at p = 2^20, 742 MB for a circulant one)")(
      "rules", value<std::string>()->default_value("smpi"),
      "--engine loggp's rule set: smpi (SMPI's rules on the platform: rendezvous, L = alpha, G = beta; "
      "with --o/--g on a flat platform eager sends under 64 KiB, the sender busy max(o,g); where messages meet "
      "(eager sends, ranks sharing nodes, a --topology, half duplex) they share links as SimGrid shares them: "
      "docs/engine.md) "
      "or loggopsim (LogGOPSim's LogGOPS rules for the plan's GOAL export, `collsim plan --format goal`: o, g, "
      "eager messages up to 65535 bytes, rendezvous above; calc = gamma per byte; times in whole picoseconds; the "
      "only rules for a GOAL file, run --plan F.goal)")(
      "contention", value<std::string>()->default_value("on"),
      "--engine loggp --rules smpi: on (messages that meet share links as SimGrid shares them) or off (the same "
      "rules, every message as if alone on its route: to see what sharing costs)")(
      "L", value<double>(), "--engine loggp: latency L in seconds (default: the platform's alpha)")(
      "G", value<double>(), "--engine loggp: seconds per byte G (default: the platform's beta)");
  add_max_messages_option(opts);
}

std::optional<EngineRules> read_engine_options(const cli::po::variables_map& vm) {
  const std::string engine = vm["engine"].as<std::string>();
  cli::require_one_of(engine, "engine", {"smpi", "loggp"});
  if (engine == "loggp") return read_rules(vm);
  for (const char* name : {"rules", "contention", "L", "G"})
    if (vm.count(name) && !vm[name].defaulted()) throw UsageError(std::string("--") + name + " is for --engine loggp");
  return std::nullopt;
}

}  // namespace collsim::sim
