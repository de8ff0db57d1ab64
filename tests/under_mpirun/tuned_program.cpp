// An MPI program for the Open MPI rules test: for each argument
// COLLECTIVE:BYTES (bcast, reduce or allreduce), rank 0 says "call
// COLLECTIVE BYTES" on stderr, then all ranks make that call with BYTES
// bytes of MPI_BYTE (bcast) or BYTES/8 MPI_LONGs summed (reductions).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::string collective = arg.substr(0, arg.find(':'));
    const long bytes = std::atol(arg.substr(arg.find(':') + 1).c_str());
    std::vector<long> in(bytes / 8 + 1, rank), out(bytes / 8 + 1);
    if (rank == 0) std::fprintf(stderr, "call %s %ld\n", collective.c_str(), bytes);
    if (collective == "bcast")
      MPI_Bcast(in.data(), static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (collective == "reduce")
      MPI_Reduce(in.data(), out.data(), static_cast<int>(bytes / 8), MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    else
      MPI_Allreduce(in.data(), out.data(), static_cast<int>(bytes / 8), MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
