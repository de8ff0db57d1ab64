// `collsim verify circulant --p A:B` in parts, so that the MPI build
// (commands/under_mpirun/verify_mpi.cpp: collsim-verify-mpi) can split the
// range of p over ranks, merge what they found and share the rest (options,
// summary, exit status: commands/verify_circulant_cmd.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "circulant_check.hpp"
#include "values.hpp"

namespace collsim {

// Everything one sweep over a range of p found.
struct CirculantSweep {
  int64_t processors = 0;
  CirculantBatchStats worst;  // maxima over all p, histogram summed
  int64_t p_of_max_recursion = 0, p_of_max_violations = 0;
  std::optional<Counterexample> failure;  // the one of the smallest p

  // Adds the stats of one p; on ties the maximum seen first stays.
  void merge(const CirculantBatchStats& s, int64_t p) { merge(s, p, p); }
  // Adds another sweep's findings (merge in increasing p for the same ties).
  void merge(const CirculantSweep& other);

 private:
  void merge(const CirculantBatchStats& s, int64_t p_recursion, int64_t p_violations);
};

// A sweep as text and back, every field kept: how collsim-verify-mpi's
// ranks hand their slices' findings to each other
// (commands/under_mpirun/verify_mpi.cpp), which merge them in rank order,
// i.e. increasing p.
std::string pack_sweep(const CirculantSweep& s);
CirculantSweep unpack_sweep(const std::string& text);

// The sweep on this machine, on `threads` threads.
CirculantSweep sweep_circulant(cli::Range range, const std::vector<int64_t>& blocks, int threads);

}  // namespace collsim
