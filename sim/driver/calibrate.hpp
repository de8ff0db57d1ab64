// `collsim calibrate`'s fit: LogGP's L, o, g, G (and γ) from the
// measurements of collsim-calibrate-mpi (sim/rank/calibrate_mpi.cpp), in
// the form a platform with o and g gives them to SMPI (platforms/
// platform.hpp): a message of m bytes costs max(o, g) + m·G + L + o.
//   o   the mean of the sender's time in MPI_Isend and the receiver's in
//       MPI_Recv of 8 bytes (LogGP has one o; both are reported)
//   g   the time per message of a burst of 8-byte Isends
//   G   the slope of a line through the half round trips, least squares
//       of the relative errors (small and large messages weigh alike)
//   L   its intercept less max(o, g) + o: the half round trip of a message
//       with no bytes, less the overheads; where the overheads exceed it
//       (shared memory: the copy is the latency), L = 0 and the fit says so
//   γ   MPI_Reduce_local's time per byte (MPI_LONG, BXOR)
// Residuals: each half round trip against max(o, g) + m·G + L + o
// (Machine::per_message, the one place that rule is written).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machine.hpp"

namespace collsim::sim {

struct Calibration {
  std::vector<std::pair<int64_t, double>> pingpong;  // bytes, half round trip (s)
  double isend = 0, recv = 0, rate = 0;              // seconds, 8-byte messages
  int64_t reduce_bytes = 0;
  double reduce = 0;  // seconds for reduce_bytes
};

struct LogGPFit {
  platforms::Machine machine;     // the fitted L (alpha), o, g, G (beta), gamma on `base`
  double intercept = 0;           // the half round trip line's, s
  bool latency_clamped = false;   // intercept < max(o, g) + o: L set to 0
  std::vector<double> residuals;  // per ping-pong size: (measured − fitted) / measured
  double worst() const;           // the largest |residual|
};

// Reads collsim-calibrate-mpi's CSV lines (kind,bytes,seconds); throws
// std::invalid_argument naming the first bad line or what is missing.
Calibration parse_calibration(const std::string& csv);

// The fit on `base` (its nodes, duplex and the rest kept). Throws
// std::invalid_argument with fewer than two ping-pong sizes.
LogGPFit fit_loggp(const Calibration& c, const platforms::Machine& base = {});

}  // namespace collsim::sim
