// What an algorithm gets to run one collective call (MPI side only). Every
// per-rank datum lives here or on the stack, never in globals: under
// smpirun -no-privatize all ranks share one copy of the globals.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "blocks.hpp"
#include "catalog.hpp"

namespace collsim::sim {

// One signature for every collective, MPI's arguments in one struct; each
// algorithm reads the fields its collective uses.
//
//   collective      buf (result)          sendbuf            count, counts
//   bcast           data at root, result  -                  bytes (MPI_BYTE)
//   reduce          root's result; null   input vector       count elements
//                   elsewhere
//   allreduce       result                input vector       count
//   reduce_scatter  counts[rank] elements input (sum counts) counts[p], count = sum
//   allgatherv      whole vector          counts[rank] bytes counts, displs (bytes)
//   scan, exscan    result (exscan: rank  input vector       count
//                   0's is undefined)
//
// Datatypes are contiguous (extent = size); sendbuf is never MPI_IN_PLACE
// and never aliases buf. ⊕ is `op` applied by MPI_Reduce_local(in, inout):
// inout = in ⊕ inout, so `in` must hold the lower ranks' inputs; check
// MPI_Op_commutative before reordering. The harness's operators charge
// their γ cost themselves, so algorithms just call MPI_Reduce_local.
struct CollArgs {
  void* buf;
  int64_t bytes;   // m: count × element size (bcast: the message)
  int root;
  MPI_Comm comm;
  int64_t blocks;  // n for kBlocks algorithms (>= 1), else 1
  const void* sendbuf = nullptr;
  int64_t count = 0;
  MPI_Datatype type = MPI_BYTE;
  MPI_Op op = MPI_OP_NULL;
  const int* counts = nullptr;  // p entries (reduce_scatter, allgatherv)
  const int* displs = nullptr;  // p entries (allgatherv; reduce_scatter: the
                                // counts' prefix sums where the harness gives them)
  // Scale mode (the harness's --scale 1): the vector buffers are window
  // memory, and so must be the algorithm's temporaries: allocate them as
  // Scratch and copy vector data with copy_real (window.hpp).
  bool scale = false;
  // What the plans read of the machine (plan_params): the ranks a node,
  // block-wise, that the node-aware plans group by (1 where the caller
  // knows no nodes: every rank its own), and the LogP trees' lag.
  plan::PlanParams params = {};
};

inline char* at(void* buf, int64_t offset) { return static_cast<char*>(buf) + offset; }

}  // namespace collsim::sim
