// Machines the unit tests build by hand: α, β, γ on Machine's defaults
// (one rank a node, full duplex, no overheads, 16-byte envelope).
#pragma once

#include "machine.hpp"

namespace collsim::test {

inline platforms::Machine alpha_beta(double alpha, double beta, double gamma) {
  platforms::Machine m;
  m.alpha = alpha, m.beta = beta, m.gamma = gamma;
  return m;
}

} // namespace collsim::test
