// The simulation request the end-to-end tests start from: p ranks on the
// alpha-beta platform (one rank per node; preset_request: on another flat preset), one warm-up and one timed
// repetition (the warm-up makes every check run twice on refilled buffers).
#pragma once

#include <cstdint>

#include "launch.hpp"
#include "platform.hpp"

namespace collsim::test {

inline sim::SimRequest preset_request(const char* preset, int64_t p, bool scale = false) {
  sim::SimRequest req;
  req.platform = *platforms::find_preset(preset);
  req.platform.nodes = p;
  req.p = p;
  req.reps = 1;
  req.warmup = 1;
  req.scale = scale;
  return req;
}

inline sim::SimRequest alphabeta_request(int64_t p, bool scale = false) {
  return preset_request("alphabeta", p, scale);
}

}  // namespace collsim::test
