#include "work_limits.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "block_policy.hpp"
#include "errors.hpp"
#include "shared_links.hpp"

namespace collsim::sim {

int64_t plan_blocks(const Algorithm& a, const plan::PlanAlgorithm& pa, const SimRequest& req, const Net& net,
                    int64_t bytes) {
  return plan_cut_blocks(pa, resolve_blocks(a, net, {req.p, bytes, req.blocks, {}}), req.p);
}

double default_max_messages(Runner runner) {
  return runner == Runner::engine ? engine::kDefaultMaxEngineMessages : engine::kDefaultMaxSmpiMessages;
}

namespace {

// One case's messages: the plan's, or a built-in's log-depth guess; and,
// for the engine, which takes the plan's steps, the block runs of the
// circulant all-to-all plans (engine::block_runs). SMPI runs those
// algorithms' own MPI code instead (circulant_all.hpp).
struct CaseWork {
  double messages = 0, block_runs = 0;
};
// The same for a plan of B = `blocks` blocks.
CaseWork plan_work(const SimRequest& req, const Algorithm& a, const Net& net, int64_t blocks, Runner runner) {
  const double messages = engine::plan_messages(a.collective, a.name, req.p, blocks, net.node_size()).value_or(0);
  if (runner != Runner::engine) return {messages};
  return {messages, engine::block_runs(a.collective, a.name, req.p, blocks)};
}

CaseWork case_work(const SimRequest& req, const Algorithm& a, const Net& net, int64_t bytes, Runner runner) {
  if (!plan::has_plan(a.collective, a.name))
    return {static_cast<double>(req.p) * (std::floor(std::log2(static_cast<double>(req.p))) + 1)};
  Net policy = net;
  policy.element = element_bytes(a.collective, req.op);
  const plan::PlanAlgorithm& pa = plan::find_plan_algorithm(a.collective, a.name);
  return plan_work(req, a, net, plan_blocks(a, pa, req, policy, bytes), runner);
}

// The shared evaluator's or the sweep's seconds a message on `net`.
double engine_seconds_per_message(const Net& net, const Algorithm& a) {
  return engine::engine_seconds_per_message(engine::shares_links(net), net.topology.kind,
                                            engine::all_to_all_plan(a.collective, a.name));
}

}  // namespace

std::string case_name(Collective c, const std::string& algorithm, int64_t p) {
  return std::string(collective_name(c)) + " " + algorithm + " at p = " + std::to_string(p);
}

engine::Work algorithm_work(const SimRequest& req, const Algorithm& a, Runner runner) {
  const Net net(req.platform);
  const double runs = runner == Runner::smpi ? req.reps + req.warmup : 1;
  // On shared links (engine_run.cpp's evaluate_smpi) a message costs more.
  const double engine_seconds = engine_seconds_per_message(net, a);
  engine::Work work;
  if (runner == Runner::engine) work.weight = std::max(1.0, engine_seconds * engine::kEngineMessagesPerSecond);
  // Block runs cost the engine the same on any links: each weighs its
  // time in messages of the flat engine.
  work.blocks_name = "block runs";
  work.block_weight = engine::kSecondsPerBlockRun * engine::kEngineMessagesPerSecond;
  for (int64_t bytes : req.sizes) {
    const CaseWork one = case_work(req, a, net, bytes, runner);
    const double cases = runs * static_cast<double>(req.roots.size());
    engine::Work size = work;
    size.messages = cases * one.messages, size.blocks = cases * one.block_runs;
    // The case that weighs most against the limit stands for the run.
    if (engine::weighed_messages(size) > engine::weighed_messages(work)) work.messages = size.messages, work.blocks = size.blocks;
    work.seconds += runner == Runner::engine
                        ? size.messages * engine_seconds + size.blocks * engine::kSecondsPerBlockRun
                        : static_cast<double>(req.p) * engine::kSmpiSecondsPerRank +
                              size.messages * engine::kSmpiSecondsPerMessage;
  }
  return work;
}

double engine_case_seconds(const SimRequest& req, const Algorithm& a, int64_t n) {
  const Net net(req.platform);
  const CaseWork one = plan_work(
      req, a, net, plan_cut_blocks(plan::find_plan_algorithm(a.collective, a.name), n, req.p), Runner::engine);
  return one.messages * engine_seconds_per_message(net, a) + one.block_runs * engine::kSecondsPerBlockRun;
}

double expected_seconds(const SimRequest& req, Runner runner) {
  double seconds = 0;
  for (const Algorithm* a : req.algos) seconds += algorithm_work(req, *a, runner).seconds;
  return seconds;
}

void check_work(const SimRequest& req, Runner runner, double limit) {
  for (const Algorithm* a : req.algos)
    engine::check_work(algorithm_work(req, *a, runner), limit, case_name(a->collective, a->name, req.p));
}

SimRequest keep_within_limit(SimRequest req, Runner runner, double limit) {
  std::vector<const Algorithm*> kept;
  for (const Algorithm* a : req.algos) {
    const engine::Work work = algorithm_work(req, *a, runner);
    if (engine::within(work, limit)) {
      kept.push_back(a);
      continue;
    }
    std::fprintf(stderr,
                 "collsim: warning: skipped %s: %s, over the limit of %s messages (--max-messages N raises it)\n",
                 case_name(a->collective, a->name, req.p).c_str(), engine::describe(work).c_str(),
                 engine::count_text(limit).c_str());
  }
  req.algos = kept;
  return req;
}

Heartbeat::Heartbeat(std::string label, double expected_seconds) {
  thread_ = std::thread([this, label = std::move(label), expected_seconds] {
    // Time against the estimate, not measured progress: a line every 10 s
    // (the first after 10 s), so that a log of a long run stays readable.
    cli::Progress progress(label, 10);
    const std::string expected = engine::duration_text(expected_seconds);
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; })) {
      const double fraction = progress.elapsed_seconds() / std::max(expected_seconds, 1.0);
      progress.update(std::min(fraction, 0.99), fraction < 1 ? "of about " + expected + " expected"
                                                             : "(past the estimate of about " + expected + ")");
    }
  });
}

Heartbeat::~Heartbeat() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  stop_.notify_one();
  thread_.join();
}

}  // namespace collsim::sim
