// Per-rank, per-round plans of the doubling scans (Träff 2025, "Communication
// round and computation efficient exclusive prefix-sums algorithms", seed 000):
// the exclusive two-⊕ doubling, 1-doubling and 123-doubling (Algorithm 1)
// scans and the inclusive Hillis-Steele (straight doubling) scan.
//
// Every rank r holds its input V = V_r and a partial result W (empty before
// anything arrived in an exclusive scan, V_r in an inclusive one). In round k
// a rank does at most one simultaneous send and receive (MPI_Sendrecv):
//   send:    send_to    (none: -1) gets the named value W, V or W ⊕ V;
//   receive: recv_from  (none: -1) delivers T, then `combine` says how T
//            enters W: store (W <- T), left (W <- T ⊕ W) or right (W <- W ⊕ T).
// Send values are formed before the receive (both use W as it was before the
// round). ⊕ is associative, not commutative: the order written is the order.
//
// Each algorithm is a sequence of round rules {skip s_k, lowest sender l_k,
// value, combine}: ranks r >= l_k send to r + s_k (if < p), ranks r with
// r - s_k >= l_k receive from r - s_k. So a rank's receives never depend on p,
// and its sends depend on p only through "r + s_k < p" (the truncation
// property `verify` relies on to check a whole range of p from one run).
//
// Worked example, 123-doubling at p = 7 (skips 1, 2, 3; q = 3 rounds):
//   round 0 (s=1): r sends V to r+1; r >= 1 stores T:  W_r = [r-1]
//   round 1 (s=2): r sends W ⊕ V = [r-1, r] (rank 0: V = [0]) to r+2 < 7;
//                  r >= 2 forms W = T ⊕ W, e.g. W_4 = [1,2] ⊕ [3] = [1,3];
//                  now W_r = [max(0, r-3), r-1]
//   round 2 (s=3): ranks 1..3 send W to r+3; ranks 4..6 receive:
//                  W_6 = [0,2] ⊕ [3,5] = [0,5].
//   Rank 6 applies ⊕ twice into W (q - 1 = 2). Rank 4 applies ⊕ three times:
//   once to form its round-1 send value [3,4], twice into W.
// Intervals [i, j] stand for V_i ⊕ ... ⊕ V_j.
//
// All rank arithmetic is 64-bit; skips stay below 2^35 for p <= 2^31 - 1.
// No call allocates; a round costs O(1), a whole plan O(log p).
#pragma once

#include <cstdint>

namespace collsim {

// A value a rank sends.
enum class ScanValue : uint8_t { V, W, W_op_V };
// How a received T enters W.
enum class ScanCombine : uint8_t { none, store, left, right };

const char* to_string(ScanValue v);    // "V", "W", "W+V"
const char* to_string(ScanCombine c);  // "-", "W=T", "W=T+W", "W=W+T"

// One round of one rank: what MPI code executes with one MPI_Sendrecv (or
// MPI_Send / MPI_Recv when one side is -1) and at most two MPI_Reduce_local.
struct ScanRound {
  int64_t send_to = -1;
  ScanValue send = ScanValue::V;  // meaningful only when send_to >= 0
  int64_t recv_from = -1;
  ScanCombine combine = ScanCombine::none;  // none exactly when recv_from < 0
  bool operator==(const ScanRound& o) const {
    return send_to == o.send_to && recv_from == o.recv_from && combine == o.combine &&
           (send_to < 0 || send == o.send);
  }
};

// The p-independent description of round k of an algorithm.
struct ScanRule {
  int64_t skip;
  int64_t lowest_sender;
  ScanValue send;
  ScanCombine combine;
};

// Upper limit on rounds of any algorithm here for p <= 2^31 - 1 (the round
// counts are at most 1 + ceil(log2(p - 1)) <= 32).
inline constexpr int kMaxScanRounds = 40;

// One row of the scan registry: the CLI (--algo, --help, error messages),
// the verifier and the MPI implementations all read this table.
struct ScanAlgorithm {
  const char* name;
  bool inclusive;
  ScanRule (*rule)(int k);
  // The paper's stated bounds (exact integer arithmetic), with their text.
  int (*round_bound)(int64_t p);
  const char* round_bound_text;
  int (*op_bound)(int64_t p);
  const char* op_bound_text;
  const char* description;
};

// The registry, in the order of the paper's §2.
extern const ScanAlgorithm kScanAlgorithms[];
extern const int kScanAlgorithmCount;
// nullptr when no row has that name.
const ScanAlgorithm* find_scan_algorithm(const char* name);

// Rank r's round k at p processors (0 <= r < p, 0 <= k < kMaxScanRounds).
ScanRound scan_round(const ScanAlgorithm& a, int64_t p, int64_t r, int k);
// The number of rounds at p processors: the first round in which no rank
// receives (every later round is idle as well). p = 1: 0 rounds.
int scan_rounds(const ScanAlgorithm& a, int64_t p);

// q = ceil(log2(p-1) + log2(4/3)) for p >= 2 by integers (see the .cpp);
// 0 for p = 1.
int q_123(int64_t p);

}  // namespace collsim
