// What an algorithm gets to run one collective call (MPI side only). Every
// per-rank datum lives here or on the stack, never in globals: under
// smpirun -no-privatize all ranks share one copy of the globals.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "registry.hpp"

namespace collsim::sim {

struct CollArgs {
  void* buf;       // bcast: the root's data, every other rank's result
  int64_t bytes;   // message size m
  int root;
  MPI_Comm comm;
  int64_t blocks;  // n for kBlocks algorithms (>= 1), else 1
};

// Byte range [begin, end) of block b when `bytes` is cut into n blocks of
// ceil(bytes/n) (the last ones shorter or empty).
struct Span {
  int64_t begin, end;
  int count() const { return static_cast<int>(end - begin); }
};
inline Span block_span(int64_t bytes, int64_t n, int64_t b) {
  const int64_t size = (bytes + n - 1) / n;
  const int64_t begin = b * size < bytes ? b * size : bytes;
  return {begin, begin + size < bytes ? begin + size : bytes};
}

inline char* at(void* buf, int64_t offset) { return static_cast<char*>(buf) + offset; }

}  // namespace collsim::sim
