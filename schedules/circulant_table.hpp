// All ranks' circulant schedules for one p at once, for the verifier, the
// all-broadcast/all-reduction algorithms and the benchmark.
//
// Batching is what makes this fast: the baseblocks come from the O(p) listing
// (no per-rank Algorithm 3), a send-schedule violation (Algorithm 6's
// fallback to the to-processor's receive schedule) is a table look-up instead
// of a full O(log p) receive computation, and where the CPU allows, sixteen
// ranks run Algorithms 4-6 side by side in vector lanes (circulant_batch.hpp).
// Memory: 2·p·q + p bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "circulant.hpp"

namespace collsim {

// One row per round k (cell k * p + r): a round of the broadcast touches
// every rank's k-th entry, so the data-flow simulation runs down one row.
struct CirculantTable {
  int64_t p = 0;
  int q = 0;
  std::vector<int8_t> base;  // b_r (q for the root)
  std::vector<int8_t> recv;  // recvblock[k]_r at cell(r, k)
  std::vector<int8_t> send;  // sendblock[k]_r at cell(r, k)

  size_t cell(int64_t r, int k) const { return static_cast<size_t>(k) * static_cast<size_t>(p) + static_cast<size_t>(r); }
  int recv_at(int64_t r, int k) const { return recv[cell(r, k)]; }
  int send_at(int64_t r, int k) const { return send[cell(r, k)]; }
  const int8_t* recv_round(int k) const { return recv.data() + cell(0, k); }
  const int8_t* send_round(int k) const { return send.data() + cell(0, k); }
};

struct CirculantBatchStats {
  int max_recursive_calls = 0;  // Lemma 5: <= q - 1
  int64_t rank_of_max_recursion = 0;
  std::array<int64_t, kMaxRounds + 1> violation_histogram{};  // ranks by violation count
  int max_violations = 0;  // Theorem 3: <= 4
  int64_t rank_of_max_violations = 0;
};

// How the batch fills the send table once all receive schedules are known.
enum class SendRule {
  algorithm6,  // Algorithm 6 per rank, violations answered from the table:
               // an independent computation that the verifier can check
  lookup,      // sendblock[k]_r = recvblock[k]_{r+skip[k]} (§2.2's definition):
               // fastest, but conditions 1-2 then hold by construction
};

// Who runs Algorithms 4-6 over the ranks. Both give identical tables and
// statistics; the vector kernels (circulant_batch.hpp) do 16 ranks at a time
// where the CPU has AVX-512 and p <= 2^30.
enum class BatchKernel { fastest, portable };

// Algorithm 3 run for every rank: what the verifier holds the O(p) listing
// (all_baseblocks, which compute_all_ranks uses) against.
std::vector<int8_t> baseblocks_by_algorithm3(const CirculantSchedule& s, BatchKernel kernel = BatchKernel::fastest);

// Receive schedules first (Algorithms 4-5 with the listed baseblocks), then
// the send schedules by `rule`. Violation statistics only with algorithm6.
CirculantTable compute_all_ranks(const CirculantSchedule& s, CirculantBatchStats* stats = nullptr,
                                 SendRule rule = SendRule::algorithm6, BatchKernel kernel = BatchKernel::fastest);
// The same into `t`, reusing its buffers: a sweep over p allocates (and
// page-faults) once instead of once per p.
void compute_all_ranks_into(const CirculantSchedule& s, CirculantTable& t, CirculantBatchStats* stats = nullptr,
                            SendRule rule = SendRule::algorithm6, BatchKernel kernel = BatchKernel::fastest);

}  // namespace collsim
