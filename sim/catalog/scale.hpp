// Constants of scale mode that the launcher and the harness share
// (workload.hpp explains the window buffers).
#pragma once

#include <cstdint>

namespace collsim::sim {

// Scale mode's window: the first 2·kWindowUnits units (bytes, or elements of
// a reduction) of every whole-vector buffer, of which the even ones are
// private and checked.
inline constexpr int64_t kWindowUnits = 256;
// The largest window: of 32-byte matmul elements.
inline constexpr int64_t kMaxWindowBytes = 2 * kWindowUnits * 32;
// `--scale auto` turns scale mode on from this many ranks.
inline constexpr int64_t kScaleAutoRanks = 2048;

}  // namespace collsim::sim
