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
// Both operators charge γ per byte they combine (smpi_execute_flops: the
// platforms give hosts a speed of 1/γ flops per second), so SimGrid's
// built-ins pay for ⊕ as ours do. In a non-SMPI build they only compute.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "collective.hpp"
#include "registry.hpp"

namespace collsim::sim {

// counts[r] (and displacements) of `total` elements over p ranks.
struct Partition {
  std::vector<int> counts, displs;
};
Partition partition(int64_t total, int p, Layout layout, int root);

class Workload {
 public:
  // Throws std::invalid_argument when `bytes` is no multiple of the element size.
  Workload(Collective c, Operator op, Layout layout, MPI_Comm comm, int root, int64_t bytes);
  ~Workload();
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;

  // The arguments of one call; `blocks` as the algorithm takes it.
  CollArgs args(int64_t blocks);
  // Fresh inputs and poisoned outputs for repetition `rep`.
  void fill(int rep);
  // "" if this rank's result is right, else where it is first wrong.
  std::string check(int rep) const;

 private:
  Collective c_;
  Operator op_;
  MPI_Comm comm_;
  int p_ = 1, rank_ = 0, root_ = 0;
  int64_t bytes_ = 0, count_ = 0;  // count_: elements of the input vector
  Partition part_;                 // reduce_scatter, allgatherv
  std::vector<uint64_t> in_, out_; // words; a null buffer where MPI allows none
  MPI_Datatype type_ = MPI_BYTE;
  MPI_Op mpi_op_ = MPI_OP_NULL;

  bool has_output() const;
  int64_t out_first() const;  // index of the first result element in the whole vector
  int64_t out_count() const;
  int ranks_combined() const;  // k: the result combines ranks [0, k)
};

}  // namespace collsim::sim
