// collsim-calibrate-mpi: the measurements behind `collsim calibrate`
// (sim/driver/calibrate.cpp fits L, o, g, G to them), between ranks 0
// and 1 of an Open MPI job (`mpirun -np 2`), netgauge/OSU-style, each the
// minimum over --reps repetitions after one warm-up:
//   pingpong,M,S   half the round trip of M bytes: Send/Recv, Recv/Send
//   isend,M,S      rank 0's time inside MPI_Isend of M bytes (the sender's o)
//   recv,M,S       rank 1's time inside MPI_Recv of M bytes that have
//                  arrived already (the receiver's o; rank 1 waits first)
//   rate,M,S       per message, K back-to-back Isends of M bytes from rank 0
//                  and their Waitall (the gap g)
//   reduce,M,S     MPI_Reduce_local of M bytes of MPI_LONG with BXOR (γ·M)
// Lines go to rank 0's stdout as CSV (kind,bytes,seconds); errors as one
// line on stderr and exit status 2.
// Usage: collsim-calibrate-mpi REPS MAX_BYTES
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kBurst = 64;  // messages per message-rate repetition

struct Job {
  int rank = 0;
  int reps = 1;
  std::vector<char> buf, other;
};

// The minimum over reps of `one()`, after one untimed run; both ranks call
// it in step.
template <class One>
double min_of(const Job& job, One one) {
  one();
  double best = 1e300;
  for (int i = 0; i < job.reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    best = std::min(best, one());
  }
  return best;
}

double pingpong(Job& job, int bytes) {
  return min_of(job, [&] {
    const double t0 = MPI_Wtime();
    if (job.rank == 0) {
      MPI_Send(job.buf.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(job.buf.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(job.buf.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(job.buf.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    return (MPI_Wtime() - t0) / 2;
  });
}

// Rank 0's time in MPI_Isend; rank 1's in MPI_Recv once the data is there
// (it waits for a go message sent after the data, which arrives in order).
void overheads(Job& job, int bytes, double& send_s, double& recv_s) {
  double in_send = 0, in_recv = 0;
  const double best = min_of(job, [&] {
    char go = 0;
    if (job.rank == 0) {
      MPI_Request q;
      const double t0 = MPI_Wtime();
      MPI_Isend(job.buf.data(), bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &q);
      in_send = MPI_Wtime() - t0;
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      MPI_Send(&go, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
      return in_send;
    }
    MPI_Status st;
    MPI_Probe(0, 2, MPI_COMM_WORLD, &st);  // the go message is behind the data
    const double t0 = MPI_Wtime();
    MPI_Recv(job.buf.data(), bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    in_recv = MPI_Wtime() - t0;
    MPI_Recv(&go, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return in_recv;
  });
  // Each rank's own minimum; rank 1's goes to rank 0.
  double remote = best;
  if (job.rank == 1) MPI_Send(&remote, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
  if (job.rank == 0) MPI_Recv(&remote, 1, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  send_s = best, recv_s = remote;
}

double rate(Job& job, int bytes) {
  std::vector<MPI_Request> q(kBurst);
  return min_of(job, [&] {
    const double t0 = MPI_Wtime();
    for (int i = 0; i < kBurst; ++i) {
      char* at = job.buf.data();
      if (job.rank == 0)
        MPI_Isend(at, bytes, MPI_BYTE, 1, 4, MPI_COMM_WORLD, &q[i]);
      else
        MPI_Irecv(job.other.data() + static_cast<size_t>(i) * bytes, bytes, MPI_BYTE, 0, 4, MPI_COMM_WORLD, &q[i]);
    }
    MPI_Waitall(kBurst, q.data(), MPI_STATUSES_IGNORE);
    char done = 0;  // the sender's time ends when the last message is in
    if (job.rank == 1) MPI_Send(&done, 1, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
    if (job.rank == 0) MPI_Recv(&done, 1, MPI_BYTE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return (MPI_Wtime() - t0) / kBurst;
  });
}

double reduce_local(Job& job, int bytes) {
  const int count = bytes / static_cast<int>(sizeof(long));
  return min_of(job, [&] {
    const double t0 = MPI_Wtime();
    MPI_Reduce_local(job.other.data(), job.buf.data(), count, MPI_LONG, MPI_BXOR);
    return MPI_Wtime() - t0;
  });
}

int run(int reps, int max_bytes) {
  Job job;
  MPI_Comm_rank(MPI_COMM_WORLD, &job.rank);
  job.reps = reps;
  job.buf.assign(static_cast<size_t>(max_bytes), 1);
  job.other.assign(static_cast<size_t>(std::max(max_bytes, 8 * kBurst)), 2);
  auto line = [&](const char* kind, int bytes, double s) {
    if (job.rank == 0) std::printf("%s,%d,%.9e\n", kind, bytes, s);
  };
  for (int bytes = 1; bytes <= max_bytes; bytes *= 4) line("pingpong", bytes, pingpong(job, bytes));
  double send_s = 0, recv_s = 0;
  overheads(job, 8, send_s, recv_s);
  line("isend", 8, send_s);
  line("recv", 8, recv_s);
  line("rate", 8, rate(job, 8));
  line("reduce", max_bytes, reduce_local(job, max_bytes));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int reps = argc == 3 ? std::atoi(argv[1]) : 0, max_bytes = argc == 3 ? std::atoi(argv[2]) : 0;
  if (size != 2 || reps < 1 || max_bytes < 8) {
    if (rank == 0)
      std::fprintf(stderr, "collsim-calibrate-mpi: error: usage: mpirun -np 2 collsim-calibrate-mpi REPS MAX_BYTES\n");
    MPI_Finalize();
    return 2;
  }
  const int status = run(reps, max_bytes);
  MPI_Finalize();
  return status;
}
