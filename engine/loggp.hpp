// The plan engine (issue 16, first rule set): evaluates a plan's time
// without SimGrid, for any p up to 2^31 − 1, asking the question SMPI
// answers on the full-duplex α-β platform collsim runs:
//
//   - a rank runs its steps in order; a step is a blocking sendrecv posted
//     when the rank's previous step completed (plus the ⊕ it had to do);
//   - the message of a send half and its matching receive half (the k-th
//     send from r to s meets the k-th receive at s from r) starts when both
//     are posted and takes L + (bytes + envelope)·G, the whole transfer
//     occupying neither end's CPU (SMPI with send-is-detached-thresh 0: a
//     rendezvous; full duplex: a rank's one send and one receive overlap);
//   - a step completes when both its halves have (a fold step, which has
//     none, when it is posted); each received block it combines, each
//     block of an acc+input send and each block it folds costs γ per byte
//     on the rank (the harness's ⊕ charge), after the receive or the fold's
//     posting, or before the send.
// With L = α, G = β and envelope = 16 this is the SMPI time of the plan
// executor, exactly (tests/test_engine.cpp checks it against smpirun).
//
// Cost: O(p + total steps + listed blocks), each step's halves matched once
// through a worklist. Memory: O(p) for the ranks' state and their current
// steps, whatever the steps' total (the plan is generated per rank, one
// step at a time when the plan's steps function allows it).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "plan.hpp"

namespace collsim::engine {

struct Network {
  double latency = 5e-6;           // L (SMPI: α), seconds
  double seconds_per_byte = 1e-9;  // G (SMPI: β)
  double op_seconds_per_byte = 1e-9;  // γ
  int64_t envelope = 16;           // bytes SMPI adds to every message
};

struct Result {
  double time = 0;                // the last rank's finish, seconds
  std::vector<double> finish;     // per rank (empty unless asked for)
  int64_t messages = 0;
};

// Where block b lies in the full vector, bytes [begin, end) (the data cut
// as the plan says: plan::block_units on whole elements of `element` bytes;
// per-segment collectives by the harness's even counts). Blocks in
// increasing order are contiguous, so a run of blocks is one span and a
// step's bytes are counted by runs (a halving step lists p/2 blocks).
using BlockBytes = std::function<sim::Span(int64_t block)>;
BlockBytes even_blocks(const plan::Header& h, int64_t bytes, int64_t element);
int64_t run_bytes(const BlockBytes& spans, const plan::BlockList::Run& run);
int64_t list_bytes(const BlockBytes& spans, const plan::BlockList& blocks);

// Throws std::invalid_argument on a plan that cannot run to its end
// (unmatched halves, deadlock): the verifier names why.
Result evaluate(const plan::Plan& plan, const BlockBytes& block_bytes, const Network& net, bool per_rank = false);

}  // namespace collsim::engine
