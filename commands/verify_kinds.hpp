// One `collsim verify KIND` implementation per schedule kind, each in its
// own KIND_cmd.cpp. Exit status: 0 all checks hold, 1 a counterexample, 2 bad
// input (usage errors are thrown as cli::UsageError).
#pragma once

#include <functional>
#include <vector>

#include "circulant_sweep.hpp"

namespace collsim {

int verify_circulant(int argc, char** argv);
using CirculantSweeper = std::function<CirculantSweep(cli::Range, const std::vector<int64_t>& blocks, int threads)>;
// `verify circulant` (collsim-verify-mpi too) with the range swept by `sweeper`.
int verify_circulant(int argc, char** argv, const CirculantSweeper& sweeper);
int verify_exscan(int argc, char** argv);
int verify_plan(int argc, char** argv);
int verify_scan(int argc, char** argv);
int verify_two_tree(int argc, char** argv);

}  // namespace collsim
