// The one protocol between the driver (collsim) and the harness
// (libcollsim-smpi.so under smpirun, collsim-mpi under mpirun): what to run
// goes down as an argument vector made by to_argv and read by from_argv;
// results come back as CSV rows with one header, one writer and one parser.
// Both sides compile this file, so neither can add a field the other lacks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "block_policy.hpp"
#include "catalog.hpp"
#include "plan.hpp"

namespace collsim::sim {

// A block count the driver chose for one algorithm and size (engine_run.hpp's
// contention_blocks: on shared links, from the engine), which the harness
// takes instead of the policy's.
struct ChosenBlocks {
  std::string algo;
  int64_t bytes = 0, blocks = 0;
};

// One harness run: algorithms × sizes × roots of one collective.
struct HarnessArgs {
  Collective collective = Collective::bcast;
  std::vector<std::string> algos;  // catalog names of `collective`
  std::vector<std::string> plan_files;  // plans to run too (schedules/plan.hpp), one --plan each
  std::vector<int64_t> sizes;      // bytes
  std::vector<int64_t> roots{0};
  int64_t blocks = 0;  // 0: chosen_blocks where it names the case, else the block policy
  std::vector<ChosenBlocks> chosen_blocks;
  Net net;  // alphabeta's numbers (Machine's defaults)
  // Timed repetitions and warm-ups. The driver always sends its own (one
  // and none: SMPI's times are deterministic); these defaults are for
  // collsim-mpi on a real machine, where times vary.
  int reps = 3, warmup = 1;
  Operator op = Operator::bxor;    // reductions
  Layout layout = Layout::even;    // reduce_scatter, allgatherv
  bool scale = false;              // window buffers (rank/workload.hpp)
  // Run algorithms whose catalog restrictions this case breaks (to show
  // that they fail); off, the harness refuses them.
  bool ignore_restrictions = false;
};

// The n that args.chosen_blocks gives `algo` at `bytes`, if any.
std::optional<int64_t> chosen_blocks(const HarnessArgs& args, const std::string& algo, int64_t bytes);

// "--collective bcast --algos a,b --sizes ..." (every field but an empty
// chosen_blocks, always).
std::vector<std::string> to_argv(const HarnessArgs& args);
// The inverse, for argv[first..argc); unknown options, missing values and
// malformed numbers throw std::invalid_argument. Checks that need p (roots,
// sizes against the operator) are the harness's.
HarnessArgs from_argv(int argc, const char* const* argv, int first = 1);

// The algorithm column of a plan file's rows: "plan:" and the file's name,
// with '_' for each comma, double quote, blank and control character, so
// that the CSV needs no quoting (pandas, gnuplot and a split at commas all
// read it) and a list of names split at blanks keeps it one word.
std::string plan_row_name(const std::string& path);

// Whether a plan file fits a case: made for collective c at p ranks and,
// for a rooted collective, every root of `roots`. Else std::invalid_argument,
// one line naming `path`. The driver checks the user's file with this when
// it reads it; the harness checks its copy again (collsim-mpi is also run
// by hand).
void check_plan_for_case(const plan::Header& h, const std::string& path, Collective c, int64_t p,
                         const std::vector<int64_t>& roots);

// One result row: one case of one algorithm.
struct Row {
  std::string collective, algorithm;
  // blocks: what resolve_blocks chose (block_policy.hpp), the same under
  // every engine: n for a pipelined algorithm (kBlocks), 1 for any other
  // (ring's p pieces are its own cut, not a parameter), the file's B for a
  // plan file.
  int64_t p = 0, bytes = 0, blocks = 0;
  double time_us = 0;
  std::optional<double> model_us;  // none for SimGrid's built-ins
  int64_t root = 0;
  int reps = 0;
  std::string op, layout;  // empty where the collective has none
  bool correct = true;     // every checked rank's result checked out
  int64_t checked_ranks = 0;  // ranks that checked (part of) their result
  // The process that ran the case (and the others of its batch), filled in
  // by the driver that started it: wall seconds, CPU seconds (user +
  // system; under load the wall time is longer) and peak proportional set
  // size of its process tree in MiB. Empty in the harness's own output.
  std::optional<double> wall_s, cpu_s, mem_mib;
  // What produced the time: smpi (SimGrid), loggp (the plan engine,
  // engine/loggp.hpp; it moves no data, so checked_ranks is 0), loggopsim
  // (the plan engine's LogGOPSim rules, engine/loggopsim.hpp) or openmpi
  // (collsim-mpi on a real machine).
  std::string engine;
};
inline constexpr const char* kCsvHeader =
    "collective,algorithm,p,bytes,blocks,time_us,model_us,root,reps,op,layout,correct,checked_ranks,wall_s,cpu_s,mem_mib,engine";
std::string csv_line(const Row& r);
// One line in kCsvHeader's columns; throws std::runtime_error when malformed.
Row parse_row(const std::string& line);

}  // namespace collsim::sim
