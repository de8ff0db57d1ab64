// Work estimated before it starts (issue 31, engine/work_estimate.hpp for
// the counts and rates): the command layer's checks on a SimRequest and
// progress lines while one long case runs (the --max-messages option is in
// commands/sim_options.hpp).
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "launch.hpp"
#include "plan_builders.hpp"
#include "values.hpp"
#include "work_estimate.hpp"

namespace collsim::sim {

// The plan's block count B for algorithm `a` at `bytes`: the harness's n
// (resolve_blocks on `net`, Net(platform) with the case's element) where
// pipelined, else the algorithm's own cut (plan_cut_blocks).
int64_t plan_blocks(const Algorithm& a, const plan::PlanAlgorithm& pa, const SimRequest& req, const Net& net,
                    int64_t bytes);

enum class Runner { smpi, engine };

// "bcast circulant at p = 1024": how a refusal or a stop names a case.
std::string case_name(Collective c, const std::string& algorithm, int64_t p);

// The defaults of engine/work_estimate.hpp for `runner`.
double default_max_messages(Runner runner);

// Algorithm a's cases in req (every size and root): messages of the largest
// case (SMPI: times its repetitions), seconds of them all. SimGrid's
// built-ins have no plan: they are counted as a log-depth algorithm,
// p(⌊log2 p⌋ + 1), which undercounts the linear ones. Plan files are not
// counted: their size limit (kMaxPlanFileBytes) bounds their messages.
engine::Work algorithm_work(const SimRequest& req, const Algorithm& a, Runner runner);

// The engine's expected seconds for one case of `a` (which has a plan) at
// n = `blocks` (engine_run.hpp's contention_blocks budgets its search so).
double engine_case_seconds(const SimRequest& req, const Algorithm& a, int64_t blocks);

// The expected seconds of all of req's algorithms (plan files not counted).
double expected_seconds(const SimRequest& req, Runner runner);

// run: LimitError (exit 4) where an algorithm of req is over `limit`.
void check_work(const SimRequest& req, Runner runner, double limit);

// compare, map, tune: req without its algorithms over `limit`, each dropped
// with one warning line on stderr.
SimRequest keep_within_limit(SimRequest req, Runner runner, double limit);

// Progress lines on stderr (cli::Progress: none in the first ten seconds,
// then one every ten) while one long computation runs that reports nothing
// itself: elapsed time against the expected.
class Heartbeat {
 public:
  Heartbeat(std::string label, double expected_seconds);
  ~Heartbeat();
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable stop_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace collsim::sim
