// The test data of one collective call (MPI side): every rank's input and
// output buffers, the operator, and the check of every rank's result.
//
// Inputs are chosen so that each rank can compute what it must end with in
// O(p + m), whatever p: element i of rank r is
//   bxor    a(i) ^ b(r)             the xor over ranks [0, k) is
//                                   (k odd ? a(i) : 0) ^ (b(0) ^ … ^ b(k−1))
//   matmul  D_i⁻¹ R_r D_i           the product over ranks [0, k) is
//                                   D_i⁻¹ (R_0 R_1 … R_{k−1}) D_i
// with a(i), b(r) 64-bit mixes of (index, repetition), R_r a pseudo-random
// matrix of determinant 1 and D_i = [[1, a(i)], [0, 1]]. The R_r do not
// commute, so any reordering of ⊕ leaves a wrong matrix; D_i ties every
// element to its index, so a block moved to the wrong place shows too.
// Broadcast and allgatherv data are the bytes of a(word index), at the root
// (or the owner of the range) only; every other rank starts with their
// complement.
//
// Scale mode (harness --scale 1, for p in the thousands): p full copies of
// an m-byte vector do not fit in memory, so every buffer that holds the whole
// vector (broadcast and allgatherv results, reduction inputs, and results but
// reduce_scatter's) is SMPI_PARTIAL_SHARED_MALLOC memory: its real part is
// the window, the first 2·kWindowUnits units (unit: a byte of broadcast and
// allgatherv data, an element of a reduction), and only the even units of the
// window are private; the odd ones and all beyond are shared by every rank
// (beyond the window's pages, one set of physical pages for all). A rank's
// share (allgatherv input, reduce_scatter result) stays private. Reduction
// inputs are only read, so they are private pages of which only the window's
// are ever written: the rest costs no memory, and each rank needs 3 memory
// mappings rather than 4 (16,384 × 4 exceeds vm.max_map_count = 65530).
// Why alternate: SMPI copies a message only where the sender's and the
// receiver's private blocks overlap, and (SimGrid 3.32, shift_and_frame_
// private_blocks) drops a private block that begins before the message does.
// With one-unit private blocks every block lies wholly after or before a
// message's start, so each even unit travels exactly as in a full run,
// whatever the algorithm's message boundaries (a byte-level allgatherv piece,
// a pipeline block). All whole-vector buffers start at unit 0, so positions
// agree between ranks; reductions combine element by element, so an even
// window element of a result depends only on the same element of the inputs,
// which are filled as above: the closed forms stay valid, and each rank
// checks the even window units of its result. Ranks whose result misses the
// window (reduce_scatter ranks whose share starts beyond it) check nothing;
// checks_something() says which. Not seen: errors only in odd units or
// beyond the window (a pipeline's later blocks).
// Why not private buffers on a sample of ranks: a sampled rank would receive
// nothing from a shared neighbour (SMPI skips shared senders' bytes too).
// Our algorithms' own temporaries are window memory too (CollArgs::scale,
// window.hpp), laid out like these buffers.
//
// Both operators charge γ per byte they combine (smpi_execute_flops: the
// platforms give hosts a speed of 1/γ flops per second), so SimGrid's
// built-ins pay for ⊕ as ours do. In a non-SMPI build they only compute.
// In window memory they compute only the elements private in both operands
// (real_spans): the others are never checked, and writing them would cost
// the temporaries' memory; the charge is for every element all the same.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collective.hpp"
#include "catalog.hpp"
#include "scale.hpp"

namespace collsim::sim {

// counts[r] (and displacements) of `total` elements over p ranks.
struct Partition {
  std::vector<int> counts, displs;
};
Partition partition(int64_t total, int p, Layout layout, int root);
// The same, one read-only copy for all ranks of a process that ask for the
// same one (SMPI runs every rank in one process: a copy per rank would be
// O(p²) memory, 2 GiB at p = 16,384). The last one made is kept.
std::shared_ptr<const Partition> shared_partition(int64_t total, int p, Layout layout, int root);

// One buffer of 64-bit words.
class Buffer {
 public:
  enum class Kind {
    own,     // private
    window,  // scale mode: private only in the even units of the window
    lazy,    // scale mode: private, but pages are only taken where written
  };
  // `unit`: the bytes of a window unit.
  Buffer(int64_t words, Kind kind, int64_t unit = 1);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  uint64_t* data() { return data_; }
  const uint64_t* data() const { return data_; }

 private:
  uint64_t* data_ = nullptr;
  size_t bytes_ = 0;
  Kind kind_ = Kind::own;
};

class Workload {
 public:
  // Throws std::invalid_argument when `bytes` is no multiple of the element size.
  // `scale`: the window buffers of scale mode above.
  Workload(Collective c, Operator op, Layout layout, MPI_Comm comm, int root, int64_t bytes, bool scale = false);
  ~Workload();
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;

  // The arguments of one call; `blocks` as the algorithm takes it.
  CollArgs args(int64_t blocks);
  // Fresh inputs and poisoned outputs for repetition `rep`.
  void fill(int rep);
  // "" if this rank's result is right, else where it is first wrong.
  std::string check(int rep) const;
  // Whether check() looks at any element of this rank's result.
  bool checks_something() const;

 private:
  Collective c_;
  Operator op_;
  MPI_Comm comm_;
  int p_ = 1, rank_ = 0, root_ = 0;
  int64_t bytes_ = 0, count_ = 0;  // count_: elements of the input vector
  std::shared_ptr<const Partition> part_;  // reduce_scatter, allgatherv
  bool scale_ = false;
  std::unique_ptr<Buffer> in_, out_;  // words; a null buffer where MPI allows none
  MPI_Datatype type_ = MPI_BYTE;
  MPI_Op mpi_op_ = MPI_OP_NULL;

  bool has_output() const;
  int64_t out_first() const;  // index of the first result element in the whole vector
  int64_t out_count() const;
  int ranks_combined() const;  // k: the result combines ranks [0, k)
  // Units [0, n) of the vector are filled: all, or the window in scale mode.
  int64_t filled_units() const;
  // Whether unit `u` of the vector is real (checked).
  bool real(int64_t u) const;
};

}  // namespace collsim::sim
