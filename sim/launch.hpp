// The CLI side of a simulation: platform options shared by `collsim run`,
// `compare` and `platform`, size parsing with units, and `simulate`, which
// writes the platform and host file to a temporary directory, starts smpirun
// on libcollsim-smpi.so and reads the harness's CSV back.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "platform.hpp"
#include "registry.hpp"
#include "scale.hpp"

namespace collsim::sim {

// --platform, --alpha, --beta, --bw, --duplex, --gamma, --nodes,
// --cores-per-node, --intra-alpha, --intra-beta.
void add_platform_options(cli::po::options_description& opts);
// The platform the options describe for p ranks. `alphabeta` without --nodes
// gets ⌈p / cores⌉ nodes; a FILE.xml is used as it is (hosts node-0, node-1,
// ... as the generator names them) with --alpha/--beta for the model.
// Throws cli::UsageError for unknown names and bad values.
platforms::Platform platform_from(const cli::po::variables_map& vm, int64_t p);

// "4096", "4KiB", "16MiB", "1GiB", "100B": bytes, checked for overflow and
// against [0, INT_MAX] (one MPI count).
int64_t parse_bytes(const std::string& text, const std::string& what);
// "A:B" (A, 2A, 4A, ... up to B, and B itself) or "a,b,c".
std::vector<int64_t> parse_sizes(const std::string& text, const std::string& what);
std::string format_bytes(int64_t bytes);  // "4MiB", "1000B"

struct SimRequest {
  platforms::Platform platform;
  int64_t p = 1;
  std::vector<const Algorithm*> algos;
  std::vector<int64_t> sizes;
  std::vector<int64_t> roots{0};
  int64_t blocks = 0;  // 0: the block policy
  int reps = 3, warmup = 1;
  Operator op = Operator::bxor;  // reductions
  Layout layout = Layout::even;  // reduce_scatter, allgatherv
  // Scale mode: lean SimGrid settings (64 KiB stacks, no guard pages, a tree
  // barrier) and window buffers (workload.hpp): only the first 4 KiB of each
  // rank's copy of the vector are real and checked.
  bool scale = false;
};


// One harness CSV row.
struct Row {
  std::string collective, algorithm;
  int64_t p = 0, bytes = 0, blocks = 0;
  double time_us = 0;
  std::optional<double> model_us;
  int64_t root = 0;
  int reps = 0;
  std::string op, layout;  // empty where the collective has none
  bool correct = true;     // every checked rank's result checked out
  int64_t checked_ranks = 0;  // ranks that checked (part of) their result
  // The smpirun that simulated this row (and the others of its batch): wall
  // seconds, CPU seconds (user + system; under load the wall time is
  // longer) and peak proportional set size of its process tree in MiB.
  double wall_s = 0, cpu_s = 0, mem_mib = 0;
};
inline constexpr const char* kCsvHeader =
    "collective,algorithm,p,bytes,blocks,time_us,model_us,root,reps,op,layout,correct,checked_ranks,wall_s,cpu_s,mem_mib";
std::string csv_line(const Row& r);
// One line of the harness's CSV; throws std::runtime_error when malformed.
Row parse_row(const std::string& line);

// Runs every case; one smpirun for all of our algorithms, one per SimGrid
// built-in (each needs its own --cfg=smpi/<collective>:<name>). `on_batch`
// is told after each smpirun how many of `total` cases are done. Wrong
// results come back as rows with correct = false. A failed smpirun (a crash,
// a deadlock, missing rows) throws std::runtime_error with its error lines,
// or, given `failures`, is recorded there and the other batches go on.
std::vector<Row> simulate(const SimRequest& req, const std::function<void(size_t done, size_t total)>& on_batch = {},
                          std::vector<std::string>* failures = nullptr);

}  // namespace collsim::sim
