// The driver side of a simulation: `simulate` writes the platform, host file
// and copies of the plan files to a scratch folder under fixed names, starts
// smpirun there on libcollsim-smpi.so (an argument vector of fixed words,
// catalog/protocol.hpp's to_argv; scratch_dir.hpp says why) and reads the
// harness's rows back (parse_row).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform.hpp"
#include "catalog.hpp"
#include "plan.hpp"
#include "protocol.hpp"
#include "scale.hpp"

namespace collsim::sim {

std::string format_bytes(int64_t bytes);  // "4MiB", "1000B"

// A plan file to simulate beside the catalog's algorithms, read and
// checked against the request once by the command layer
// (sim_options.cpp); the engine runs `plan`, smpirun a copy written from it.
struct PlanFile {
  std::string path;
  Collective collective;
  std::shared_ptr<const plan::Plan> plan;
};

struct SimRequest {
  platforms::Platform platform;
  int64_t p = 1;
  std::vector<const Algorithm*> algos;
  std::vector<PlanFile> plans;  // run in the batch of our algorithms
  std::vector<int64_t> sizes;
  std::vector<int64_t> roots{0};
  int64_t blocks = 0;  // 0: the block policy
  // `--blocks model`: the closed-form model's n (block_policy.hpp) also
  // where links are shared, instead of the engine's search
  // (engine_run.hpp, contention_blocks).
  bool model_blocks = false;
  // One timed call (SMPI's times are deterministic: once is enough) after
  // one untimed call of the same case: SimGrid's built-ins do one-time
  // setup (communicators, decision caches) on their first call.
  int reps = 1, warmup = 1;
  Operator op = Operator::bxor;  // reductions
  Layout layout = Layout::even;  // reduce_scatter, allgatherv
  // Scale mode: lean SimGrid settings (64 KiB stacks, no guard pages, a tree
  // barrier) and window buffers (workload.hpp): only the first 4 KiB of each
  // rank's copy of the vector are real and checked.
  bool scale = false;
  // Run algorithms whose restrictions this case breaks, to see them fail
  // (`run --ignore-restrictions`); otherwise simulate refuses them.
  bool ignore_restrictions = false;
};


// SMPI's pure α-β network settings (CM02 without TCP effects, computation not
// simulated, sends never detached), shared by both launchers.
const std::vector<std::string>& smpi_network_flags();

// CPU seconds this process has used so far.
double process_cpu_seconds();

// Throws std::invalid_argument where a size does not fit req: p copies of
// it above the 12 GiB a simulation may allocate (LimitError), or no whole number of the
// operator's elements. simulate() checks it first; a sweep of many p can
// check every p before the first starts.
void check_sizes(const SimRequest& req);

// Runs every case: one smpirun for all of our algorithms, one per plan file,
// one per SimGrid built-in (each needs its own --cfg=smpi/<collective>:<name>).
// `on_batch` is told after each smpirun how many of `total` cases are done.
// An algorithm whose restrictions the request breaks (unmet_restriction) is
// std::invalid_argument before anything starts. Wrong results come back as
// rows with correct = false. A failed smpirun (a crash, missing rows) throws
// std::runtime_error in one line, naming the scratch folder it keeps for a
// rerun; a deadlock throws DeadlockError (common/errors.hpp). Given
// `failures`, the line is recorded there instead and the other batches go
// on; `deadlocked` then gets the names (as in the rows) of what deadlocked.
// The scratch folder is removed unless a failure named it.
std::vector<Row> simulate(const SimRequest& req, const std::function<void(size_t done, size_t total)>& on_batch = {},
                          std::vector<std::string>* failures = nullptr,
                          std::vector<std::string>* deadlocked = nullptr);

// The trace's fixed name in the scratch folder (smpirun sees no other).
inline constexpr const char* kPajeTraceName = "trace.paje";
// Runs the one case of `req` (one algorithm or plan file, one size, one
// root) as simulate does, with SimGrid's Paje tracing on, and hands the
// trace file to `read_trace` before the scratch folder is removed.
Row simulate_traced(const SimRequest& req, const std::function<void(const std::filesystem::path&)>& read_trace);

// Runs the GOAL schedule at `path` (num_ranks = req.p) under SMPI on
// req.platform through the harness's GOAL executor (rank/goal_executor.hpp):
// one row, collective "goal", algorithm "plan:" and the file's name, no
// bytes, blocks or model, nothing checked. Throws std::invalid_argument on a
// malformed schedule or a wrong p.
Row simulate_goal(const SimRequest& req, const std::string& path);

}  // namespace collsim::sim
