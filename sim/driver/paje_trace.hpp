// Reads the Paje trace SimGrid 3.32 writes of one harness run
// (launch.hpp's simulate_traced: --cfg=tracing/smpi with internals,
// computing, sleeping and sizes) into a Timeline of the timed call.
//
// What the trace holds and how it is read:
//   - one container per rank ("rank-N"); states are MPI calls (PMPI_Send,
//     PMPI_Sendrecv, PMPI_Bcast, ...), "computing" (smpi_execute_flops: the
//     harness's ⊕, its Size the bytes) and "sleeping" (the harness's wait
//     for the common start instant);
//   - links are messages: a StartLink when a request starts (its Size the
//     bytes), an EndLink when the receiving request finishes: when the
//     last byte has arrived, or, for an eager message that arrived before
//     its receive was posted, at that posting. Their keys are "SRC_DST_TAG_N" in actor ids.
//   - The timed call starts at the end of the last sleep (every rank wakes
//     at that instant) and ends on each rank at its next call that moves a
//     message with the harness's own tag (32000, all_ranks in
//     rank/start_instant.cpp).
// SimGrid's key pairing is not used: PMPI_Sendrecv traces the call as a
// link besides the request's (with a world rank where an actor id
// belongs), PMPI_Isend and PMPI_Wait* trace theirs besides the requests',
// so keys collide. Instead each call's own links are kept (the last start
// of a point-to-point send call, the first end of a receive call, the
// first half of a Wait* call's ends: the requests' own), and the k-th send
// from a to b with tag t is paired with the k-th arrival at b from a with
// tag t (MPI's order). A start or end left unpaired is reported in
// `notes`, not guessed.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "timeline.hpp"

namespace collsim::sim {

// A trace past this size is a LimitError (a run of many ranks and blocks).
inline constexpr int64_t kMaxPajeBytes = int64_t{1} << 30;

// The timed call of a run of `p` ranks. `eager`: the platform sends
// eagerly (o or g), so a transfer starts when it is posted; otherwise it
// starts when the receiver's call that takes it has begun too. Throws
// std::runtime_error for a trace without ranks or without the harness's
// sleep (not a harness run), LimitError past kMaxPajeBytes.
Timeline read_paje_timeline(const std::filesystem::path& path, int64_t p, bool eager, std::vector<std::string>& notes);

}  // namespace collsim::sim
