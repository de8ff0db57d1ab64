#include "engine_run.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <set>
#include <stdexcept>

#include "block_policy.hpp"
#include "bounded_stream.hpp"
#include "errors.hpp"
#include "goal_read.hpp"
#include "goal_sim.hpp"
#include "graph_links.hpp"
#include "loggopsim.hpp"
#include "output.hpp"
#include "plan_builders.hpp"
#include "plan_goal.hpp"
#include "shared_links.hpp"
#include "work_limits.hpp"

namespace collsim::sim {

namespace {

double peak_mib() {
  rusage use{};
  getrusage(RUSAGE_SELF, &use);
  return static_cast<double>(use.ru_maxrss) / 1024;
}

// The machine the engine runs: the platform's, with --L and --G in place of
// L (α) and G (β). Without them it is the harness's exactly, so both
// engines' rows carry the same blocks (the block policy reads it too).
Net engine_net(const SimRequest& req, const EngineRules& rules, int64_t element) {
  Net net(req.platform, element);
  net.alpha = rules.L.value_or(net.alpha), net.beta = rules.G.value_or(net.beta);
  return net;
}

// The solver's budget under a limit of `max_messages` (engine::SolveBudget).
engine::SolveBudget solve_budget(double max_messages) { return {engine::solved_hops_allowed(max_messages)}; }

// The plan's time under SMPI's rules on `net`: on shared links where its
// messages share them (engine/shared_links.hpp), else by the sweep
// (engine/loggp.hpp), which is exact there and faster.
engine::Result evaluate_smpi(const plan::Plan& pl, const engine::BlockBytes& spans, const Net& net, bool per_rank,
                             engine::EventSink* sink, bool contention, const engine::SolveBudget& budget) {
  if (engine::shares_links(net)) return engine::evaluate_shared(pl, spans, net, per_rank, sink, contention, budget);
  return engine::evaluate(pl, spans, net, per_rank, sink);
}

// A graph plan's GOAL export under the loggopsim rules (engine/goal_sim.hpp).
engine::Result evaluate_goal_export(const plan::Plan& pl, int64_t bytes, const Net& net, bool per_rank) {
  return engine::evaluate(plan::goal_schedule(pl, bytes), engine::LogGOPS::of(net), per_rank);
}

// A graph plan (plan.hpp "Order"): the step-order sweeps refuse one.
engine::Result evaluate_graph(const plan::Plan& pl, int64_t bytes, const Net& net, const EngineRules& rules,
                              bool per_rank, engine::EventSink* sink) {
  if (sink) throw std::invalid_argument("a graph plan tells no tracer its events");
  if (rules.set != EngineRules::Set::smpi) return evaluate_goal_export(pl, bytes, net, per_rank);
  return engine::evaluate_graph(pl, engine::even_blocks(pl.header, bytes, net.element), net, per_rank,
                                rules.contention);
}

// plan_evaluations' count.
std::atomic<int64_t> evaluations{0};

// The plan's time under `rules`: the smpi rules on the harness's blocks,
// the loggopsim rules on the GOAL export's.
engine::Result evaluate(const plan::Plan& pl, int64_t bytes, const Net& net, const EngineRules& rules, bool per_rank,
                        engine::EventSink* sink) {
  ++evaluations;
  if (pl.header.graph) return evaluate_graph(pl, bytes, net, rules, per_rank, sink);
  if (rules.set == EngineRules::Set::smpi)
    return evaluate_smpi(pl, engine::even_blocks(pl.header, bytes, net.element), net, per_rank, sink, rules.contention,
                         solve_budget(rules.max_messages));
  if (sink) throw std::invalid_argument("the loggopsim rules tell no tracer their events; use --rules smpi");
  return engine::evaluate(pl, engine::goal_blocks(pl.header, bytes), engine::LogGOPS::of(net), per_rank);
}

// The model of a row whose model is its plan on the engine, `time_us`:
// none where the plan is commutative and the ⊕ is not (ring's plan is
// not what runs for matmul).
std::optional<double> model_of_plan(const plan::Plan& pl, Operator op, double time_us) {
  if (pl.header.commutative && op == Operator::matmul) return std::nullopt;
  return time_us;
}

// Is a row's model the engine's own time? On a machine with o or g the
// model is the plan under the smpi rules on the platform's own numbers:
// what the row has just evaluated, unless --L or --G changed them; a graph
// plan's model is its closed form (kGraph).
bool model_is_time(const SimRequest& req, const EngineRules& rules, const plan::Plan& pl) {
  return rules.set == EngineRules::Set::smpi && req.platform.has_overheads() && !rules.L && !rules.G &&
         rules.contention && !pl.header.graph;
}

// Algorithm a's plan for a case at n = `blocks` on `net`.
plan::Plan case_plan(const SimRequest& req, const Algorithm& a, const Net& net, int64_t bytes, int64_t root,
                     int64_t blocks) {
  return plan::build_plan(a.collective, a.name, req.p, rooted(a.collective) ? root : 0,
                          plan_cut_blocks(plan::find_plan_algorithm(a.collective, a.name), blocks, req.p),
                          plan_params(net, a.collective, bytes, blocks));
}

// This process's wall and CPU seconds since the stopwatch was made.
struct Stopwatch {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double cpu = process_cpu_seconds();
  double wall_s() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
  double cpu_s() const { return process_cpu_seconds() - cpu; }
};

// Fills a row's wall_s, cpu_s and mem_mib: this process since `watch` was made.
void measure(Row& row, const Stopwatch& watch) {
  row.wall_s = watch.wall_s();
  row.cpu_s = watch.cpu_s();
  row.mem_mib = peak_mib();
}

const char* const kPerRankHeader = "collective,algorithm,p,bytes,root,rank,finish_us\n";

struct Candidate {
  std::string name;
  const Algorithm* row;                         // null for a plan file
  std::shared_ptr<const plan::Plan> file_plan;  // the driver's parse (PlanFile)
};

// The block search's evaluation of the n it chose (search_blocks): its
// time, with what it took, and the solver's budget it ran under.
struct SearchedTime {
  engine::Result result;
  double wall_s = 0, cpu_s = 0, max_messages = 0;
};

// Is the search's evaluation the row's own? The same plan (the search
// builds root 0's), SMPI's rules on shared links, no per-rank finish or
// events wanted, and a solver's budget at least the search's (a smaller
// one might stop the row).
bool searched_is_row(const SearchedTime* searched, const EngineRules& rules, Collective c, int64_t root, bool per_rank,
                     const engine::EventSink* sink) {
  return searched && (!rooted(c) || root == 0) && !per_rank && !sink && rules.set == EngineRules::Set::smpi &&
         rules.contention && rules.max_messages >= searched->max_messages;
}

// The row of one case (candidate, size, root) at n = `blocks` (the file's
// for a plan file), its ranks' finish in `res`; the plan evaluated once,
// in the block search where that evaluation is the row's (`searched`:
// the search's of n = `blocks`, or null).
Row evaluate_case(const SimRequest& req, const EngineRules& rules, const Net& net, const Candidate& cand, int64_t bytes,
                  int64_t root, int64_t blocks, const SearchedTime* searched, engine::Result& res, bool per_rank,
                  engine::EventSink* sink) {
  const Collective c = req.algos.empty() ? req.plans.front().collective : req.algos.front()->collective;
  const bool smpi_rules = rules.set == EngineRules::Set::smpi;
  const Stopwatch watch;
  const plan::Plan pl = cand.row ? case_plan(req, *cand.row, net, bytes, root, blocks) : *cand.file_plan;
  const bool reused = searched_is_row(searched, rules, c, root, per_rank, sink);
  if (reused)
    res = searched->result;
  else
    res = evaluate(pl, bytes, net, rules, per_rank, sink);
  Row row{collective_name(c),
          cand.name,
          req.p,
          bytes,
          blocks,
          res.time * 1e6,
          std::nullopt,
          root,
          1,
          reduces(c) ? operator_name(req.op) : "",
          plan::per_segment(c) ? "even" : "",
          true,
          0,
          {},
          {},
          {},
          smpi_rules ? "loggp" : "loggopsim"};
  if (cand.row && smpi_rules)
    row.model_us = model_is_time(req, rules, pl) ? model_of_plan(pl, req.op, row.time_us)
                                                 : model_us(req, *cand.row, bytes, root, blocks, rules.max_messages);
  measure(row, watch);
  if (reused) row.wall_s = *row.wall_s + searched->wall_s, row.cpu_s = *row.cpu_s + searched->cpu_s;
  return row;
}

}  // namespace

// The per-rank lines of one row.
std::string finish_lines(const Row& row, const std::vector<double>& finish) {
  std::string text;
  const std::string prefix = row.collective + "," + row.algorithm + "," + std::to_string(row.p) + "," +
                             std::to_string(row.bytes) + "," + std::to_string(row.root) + ",";
  char us[32];
  for (size_t r = 0; r < finish.size(); ++r) {
    std::snprintf(us, sizeof us, "%.3f", finish[r] * 1e6);
    text += prefix + std::to_string(r) + "," + us + "\n";
  }
  return text;
}

std::optional<double> model_us(const SimRequest& req, const Algorithm& a, int64_t bytes, int64_t root, int64_t blocks,
                               double max_messages) {
  const Net net(req.platform, element_bytes(a.collective, req.op));
  if (!net.has_overheads() || a.has(kGraph)) {
    if (!a.model) return std::nullopt;
    return a.model(net, req.p, bytes, blocks) * 1e6;
  }
  const plan::Plan pl = case_plan(req, a, net, bytes, root, blocks);
  ++evaluations;
  const engine::Result res = evaluate_smpi(pl, engine::even_blocks(pl.header, bytes, net.element), net, false, nullptr,
                                           true, solve_budget(max_messages));
  return model_of_plan(pl, req.op, res.time * 1e6);
}

namespace {

// Does the engine choose n for this case (contention_blocks)? A pipeline
// whose n the policy would pick (no --blocks N or model), with a lock-step or graph plan the engine
// times, on a machine whose ranks share links: nodes of several cores, or
// a topology (issue 33, item 5). Segmented collectives only with even
// counts (the engine's cut).
bool engine_chooses(const SimRequest& req, const Algorithm& a, const Net& net, int64_t bytes) {
  const bool shared = net.cores_per_node > 1 || net.topology.kind != platforms::Topology::Kind::flat;
  return bytes > 0 && shared && !req.model_blocks && engine::shares_links(net) &&
         policy_decides(a, {req.p, bytes, req.blocks, {}}) && plan::has_plan(a.collective, a.name) &&
         (!plan::per_segment(a.collective) || req.layout == Layout::even);
}

// The search's budget: the engine's expected seconds (engine_case_seconds)
// of all the evaluations of one case's search, kBlockSearchTimes those of
// the model's n, within [kBlockSearchSeconds, kBlockSearchMaxSeconds].
constexpr double kBlockSearchTimes = 8, kBlockSearchSeconds = 5, kBlockSearchMaxSeconds = 30;

// The search's largest n. The policy stops at most_blocks, a segment's
// elements for a segmented pipeline (kSegments: circulant allreduce,
// allgatherv, reduce_scatter), since its models count more blocks as cost
// only. On shared links more blocks of a segment, most of them empty,
// spread a round's messages over more rounds that the node's NIC serves
// one after another: circulant allreduce on 4 nodes of 128 cores at
// 4 KiB (1 element a segment) takes 149.7 µs at n = 1 and 90.5 µs at
// n = 16, and on 64 nodes of a fat tree at 64 KiB 753.6 µs at n = 8
// against 2,677.9 at n = 1. So there the search goes on up to the
// vector's elements (and B = p·n within plan::kMaxBlocks), as far as its
// budget allows.
int64_t most_searched_blocks(const Algorithm& a, const Net& net, int64_t p, int64_t bytes) {
  const int64_t most = most_blocks(a, net, p, bytes);
  return a.has(kSegments) ? std::max(most, std::min(bytes / net.element, plan::kMaxBlocks / p)) : most;
}

// What the search chose: n and its evaluation (none where no evaluation
// finished and n is the policy's).
struct SearchedBlocks {
  int64_t blocks;
  std::optional<SearchedTime> evaluation;
};

// contention_blocks, with the chosen n's evaluation.
std::optional<SearchedBlocks> search_blocks(const SimRequest& req, const Algorithm& a, const Net& net, int64_t bytes) {
  if (!engine_chooses(req, a, net, bytes)) return std::nullopt;
  const int64_t closed_form = resolve_blocks(a, net, {req.p, bytes, 0, {}}),
                most = most_searched_blocks(a, net, req.p, bytes);
  const double model_seconds = engine_case_seconds(req, a, closed_form);
  const double budget_seconds =
      std::clamp(kBlockSearchTimes * model_seconds, kBlockSearchSeconds, kBlockSearchMaxSeconds);
  double budget = budget_seconds;
  // Whether an evaluation at n fits what is left of the budget (and takes it).
  const auto affordable = [&](int64_t n) {
    const double seconds = engine_case_seconds(req, a, n);
    if (seconds > budget) return false;
    budget -= seconds;
    return true;
  };
  if (model_seconds > budget) {
    std::fprintf(stderr,
                 "collsim: note: %s, %s: n = %lld from the closed-form model (a search on the engine would take "
                 "more than %s)\n",
                 case_name(a.collective, a.name, req.p).c_str(), format_bytes(bytes).c_str(),
                 static_cast<long long>(closed_form), engine::duration_text(budget_seconds).c_str());
    return std::nullopt;
  }
  // SMPI's rules on shared links; the solver stops an evaluation past the
  // search's seconds (engine::SolveBudget), which the estimate does not see
  // where messages fall out of step (WorkLimits.SolverStopsWhere..).
  EngineRules shared;
  shared.max_messages = budget_seconds * engine::kEngineMessagesPerSecond;
  std::set<int64_t> tried;
  SearchedBlocks best{closed_form, std::nullopt};  // n = closed_form also where no evaluation finishes
  // n's time where it is new, in range and affordable; the best so far kept
  // (on a tie the one tried first: the model's pick, the grid upwards,
  // then the grid best's neighbours, then the model's pick's).
  const auto consider = [&](int64_t n) {
    if (n < 1 || n > most || !tried.insert(n).second || !affordable(n)) return;
    try {
      const Stopwatch watch;
      SearchedTime t{evaluate(case_plan(req, a, net, bytes, 0, n), bytes, net, shared, false, nullptr)};
      t.wall_s = watch.wall_s(), t.cpu_s = watch.cpu_s(), t.max_messages = shared.max_messages;
      if (!best.evaluation || t.result.time < best.evaluation->result.time) best = {n, std::move(t)};
    } catch (const LimitError&) {  // past the solver's budget or a graph's steps: not this n
    }
  };
  consider(closed_form);
  for (int64_t n = 1; n <= most; n *= 2) consider(n);
  // Times are far from unimodal in n (how n blocks split a segment's
  // elements matters: circulant allreduce at 64 KiB on 4 nodes of 128
  // cores takes 535.5 µs at n = 10, 647.5 at 12, 592.6 at 64), so both the
  // grid's best and the model's n get their neighbours.
  for (const double centre : {static_cast<double>(best.blocks), static_cast<double>(closed_form)}) {
    consider(std::llround(centre * M_SQRT2));
    consider(std::llround(centre / M_SQRT2));
  }
  return best;
}

}  // namespace

int64_t plan_evaluations() { return evaluations; }

std::optional<int64_t> contention_blocks(const SimRequest& req, const Algorithm& a, const Net& net, int64_t bytes) {
  if (const auto searched = search_blocks(req, a, net, bytes)) return searched->blocks;
  return std::nullopt;
}

std::vector<Row> evaluate_plans(const SimRequest& req, const EngineRules& rules, const std::string& per_rank_csv) {
  return evaluate_plans(req, rules, per_rank_csv, nullptr);
}

std::vector<Row> evaluate_plans(const SimRequest& req, const EngineRules& rules, const std::string& per_rank_csv,
                                engine::EventSink* sink) {
  const Collective c = req.algos.empty() ? req.plans.front().collective : req.algos.front()->collective;
  std::vector<Candidate> candidates;
  for (const Algorithm* a : req.algos) {
    plan::find_plan_algorithm(c, a->name);  // "no plan for ...", listing those with one
    candidates.push_back({a->name, a, {}});
  }
  for (const PlanFile& f : req.plans) candidates.push_back({plan_row_name(f.path), nullptr, f.plan});
  const Net net = engine_net(req, rules, element_bytes(c, req.op));
  const bool segmented = plan::per_segment(c);
  if (segmented && req.layout != Layout::even)
    throw std::invalid_argument(
        "the engine cuts reduce_scatter and allgatherv "
        "data evenly; --layout even, or --engine smpi");
  std::vector<Row> rows;
  std::string per_rank = kPerRankHeader;
  const Heartbeat beat("engine", expected_seconds(req, Runner::engine));
  for (const Candidate& cand : candidates) {
    for (int64_t bytes : req.sizes) {
      // The harness's n (the search's, else the policy's; the policy's
      // alone under the loggopsim rules), the same at every root.
      const auto searched =
          cand.row && rules.set == EngineRules::Set::smpi ? search_blocks(req, *cand.row, net, bytes) : std::nullopt;
      const int64_t blocks = !cand.row  ? resolve_blocks(cand.file_plan->header)
                             : searched ? searched->blocks
                                        : resolve_blocks(*cand.row, net, {req.p, bytes, req.blocks, {}});
      const SearchedTime* evaluation = searched && searched->evaluation ? &*searched->evaluation : nullptr;
      for (int64_t root : req.roots) {
        engine::Result res;
        Row row;
        try {
          row = evaluate_case(req, rules, net, cand, bytes, root, blocks, evaluation, res, !per_rank_csv.empty(), sink);
        } catch (const LimitError& e) {  // the solver's budget, or a graph's steps: which case passed it
          throw LimitError(case_name(c, cand.name, req.p) + ", " + format_bytes(bytes) + ": " + e.what());
        }
        if (!per_rank_csv.empty()) per_rank += finish_lines(row, res.finish);
        rows.push_back(row);
      }
    }
  }
  if (!per_rank_csv.empty()) write_file(per_rank_csv, per_rank);
  return rows;
}

std::vector<Row> evaluate_goal(const SimRequest& req, const EngineRules& rules, const std::string& path,
                               const std::string& per_rank_csv) {
  if (rules.set != EngineRules::Set::loggopsim)
    throw std::invalid_argument("a GOAL schedule runs under --rules loggopsim only");
  const Stopwatch watch;
  BoundedFileStream in(path, kMaxPlanFileBytes, "GOAL file");
  engine::Result res;
  try {
    const goal::Schedule schedule = goal::read_goal(in);
    goal::require_ranks(schedule, req.p, "--p says");
    res = engine::evaluate(schedule, engine::LogGOPS::of(engine_net(req, rules, 1)), !per_rank_csv.empty());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("GOAL file '" + path + "', " + e.what());
  }
  Row row{"goal", plan_row_name(path), req.p, 0, 0, res.time * 1e6, std::nullopt, 0, 1, "", "", true, 0, {}, {},
          {},     "loggopsim"};
  measure(row, watch);
  if (!per_rank_csv.empty()) write_file(per_rank_csv, kPerRankHeader + finish_lines(row, res.finish));
  return {row};
}

}  // namespace collsim::sim
