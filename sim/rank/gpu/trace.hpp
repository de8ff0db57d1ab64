// The timeline of one repetition on one rank: which phase (GPU compute,
// copies, MPI steps) ran from when to when, in seconds after the
// repetition's common start. The helper actors of a rank write into the same
// Trace as the rank itself (SimGrid actors never run at the same time).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace collsim::sim::gpu {

enum class Phase { h2d, compute, d2h, reduce, allreduce, allgather };
const char* phase_name(Phase phase);  // "h2d", "compute", ...

struct Span {
  Phase phase;
  int partition;  // -1: the whole vector
  double start, end;
};

struct Trace {
  double origin = 0;  // MPI_Wtime() of the common start
  std::vector<Span> spans;
};

struct RankContext;

// Records [construction, destruction) as one span when ctx.trace is set.
class Timed {
 public:
  Timed(const RankContext& ctx, Phase phase, int partition = -1);
  ~Timed();
  Timed(const Timed&) = delete;
  Timed& operator=(const Timed&) = delete;

 private:
  Trace* trace_;
  Phase phase_;
  int partition_;
  double start_;
};

// Collective over `comm`: rank 0 appends "algorithm,rank,phase,partition,
// start_us,end_us" rows of every rank to `path` (with the header when the
// file is new). Returns false on rank 0 when the file cannot be written.
bool write_trace(const Trace& trace, const std::string& algorithm, const std::string& path, MPI_Comm comm);
inline constexpr const char* kTraceHeader = "algorithm,rank,phase,partition,start_us,end_us";

}  // namespace collsim::sim::gpu
