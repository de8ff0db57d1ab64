#include "trace.hpp"

#include <cstdio>
#include <sys/stat.h>

#include "rank_context.hpp"

namespace collsim::sim::gpu {

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::h2d: return "h2d";
    case Phase::compute: return "compute";
    case Phase::d2h: return "d2h";
    case Phase::reduce: return "reduce";
    case Phase::allreduce: return "allreduce";
    case Phase::allgather: return "allgather";
  }
  return "?";
}

Timed::Timed(const RankContext& ctx, Phase phase, int partition)
    : trace_(ctx.trace), phase_(phase), partition_(partition), start_(MPI_Wtime()) {}

Timed::~Timed() {
  if (trace_) trace_->spans.push_back({phase_, partition_, start_ - trace_->origin, MPI_Wtime() - trace_->origin});
}

bool write_trace(const Trace& trace, const std::string& algorithm, const std::string& path, MPI_Comm comm) {
  int rank = 0, p = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  // Four doubles per span: phase, partition, start, end.
  std::vector<double> mine;
  for (const Span& s : trace.spans)
    mine.insert(mine.end(), {static_cast<double>(s.phase), static_cast<double>(s.partition), s.start, s.end});
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(rank == 0 ? p : 0), displs(rank == 0 ? p : 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<double> all;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < p; ++r) {
      displs[r] = total;
      total += counts[r];
    }
    all.resize(static_cast<size_t>(total));
  }
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm);
  if (rank != 0) return true;
  struct stat st;
  const bool fresh = stat(path.c_str(), &st) != 0 || st.st_size == 0;
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) return false;
  if (fresh) std::fprintf(f, "%s\n", kTraceHeader);
  for (int r = 0; r < p; ++r)
    for (int i = displs[r]; i < displs[r] + counts[r]; i += 4)
      std::fprintf(f, "%s,%d,%s,%d,%.6f,%.6f\n", algorithm.c_str(), r, phase_name(static_cast<Phase>(all[i])),
                   static_cast<int>(all[i + 1]), all[i + 2] * 1e6, all[i + 3] * 1e6);
  return std::fclose(f) == 0;
}

}  // namespace collsim::sim::gpu
