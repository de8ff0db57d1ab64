#include "engine_run.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <fstream>
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

// The plan's time under `rules`: the smpi rules on the harness's blocks,
// the loggopsim rules on the GOAL export's.
engine::Result evaluate(const plan::Plan& pl, int64_t bytes, const Net& net, const EngineRules& rules, bool per_rank,
                        engine::EventSink* sink) {
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

// Fills a row's wall_s, cpu_s and mem_mib: this process since `start`, `cpu`.
void measure(Row& row, std::chrono::steady_clock::time_point start, double cpu) {
  row.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  row.cpu_s = process_cpu_seconds() - cpu;
  row.mem_mib = peak_mib();
}

const char* const kPerRankHeader = "collective,algorithm,p,bytes,root,rank,finish_us\n";

struct Candidate {
  std::string name;
  const Algorithm* row;                         // null for a plan file
  std::shared_ptr<const plan::Plan> file_plan;  // the driver's parse (PlanFile)
};

// The row of one case (candidate, size, root), its ranks' finish in `res`;
// blocks as resolve_blocks decides them on `net`.
Row evaluate_case(const SimRequest& req, const EngineRules& rules, const Net& net, const Candidate& cand, int64_t bytes,
                  int64_t root, engine::Result& res, bool per_rank, engine::EventSink* sink) {
  const Collective c = req.algos.empty() ? req.plans.front().collective : req.algos.front()->collective;
  const bool smpi_rules = rules.set == EngineRules::Set::smpi;
  const auto start = std::chrono::steady_clock::now();
  const double cpu = process_cpu_seconds();
  const plan::PlanAlgorithm* pa = cand.row ? &plan::find_plan_algorithm(c, cand.name) : nullptr;
  const int64_t blocks =
      pa ? resolve_blocks(*cand.row, net, {req.p, bytes, req.blocks, {}}) : resolve_blocks(cand.file_plan->header);
  const plan::Plan pl =
      pa ? plan::build_plan(c, cand.name, req.p, root, plan_cut_blocks(*pa, blocks, req.p), plan_params(net, c, bytes, blocks))
         : *cand.file_plan;
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
  measure(row, start, cpu);
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
  const plan::Plan pl = plan::build_plan(
      a.collective, a.name, req.p, rooted(a.collective) ? root : 0,
      plan_cut_blocks(plan::find_plan_algorithm(a.collective, a.name), blocks, req.p),
      plan_params(net, a.collective, bytes, blocks));
  const engine::Result res = evaluate_smpi(pl, engine::even_blocks(pl.header, bytes, net.element), net, false, nullptr,
                                           true, solve_budget(max_messages));
  return model_of_plan(pl, req.op, res.time * 1e6);
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
      for (int64_t root : req.roots) {
        engine::Result res;
        Row row;
        try {
          row = evaluate_case(req, rules, net, cand, bytes, root, res, !per_rank_csv.empty(), sink);
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
  const auto start = std::chrono::steady_clock::now();
  const double cpu = process_cpu_seconds();
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
  measure(row, start, cpu);
  if (!per_rank_csv.empty()) write_file(per_rank_csv, kPerRankHeader + finish_lines(row, res.finish));
  return {row};
}

}  // namespace collsim::sim
