// libcollsim-partitioned-check.so: checks partitioned.hpp on its own, run by
// smpirun with 2 or more ranks (rank 0 sends, rank 1 receives, the others
// only take part in the barriers). One line per check on stdout, "ok NAME"
// or "FAIL NAME: why" (from the rank that saw it); exit status 1 if any
// failed.
#include <simgrid/s4u/Actor.hpp>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "partitioned.hpp"

namespace sg4 = simgrid::s4u;
using namespace collsim::sim::gpu;

namespace {

constexpr int kCount = 1000;  // doubles per partition

double value(int round, int partition, int i) { return round * 1e6 + partition * 1e4 + i; }

void fill(std::vector<double>& buf, int round, int partition) {
  for (int i = 0; i < kCount; ++i) buf[partition * kCount + i] = value(round, partition, i);
}

struct Checker {
  int rank;
  int failures = 0;
  void expect(bool ok, const std::string& name, const std::string& why) {
    if (!ok) {
      std::printf("FAIL %s: %s (rank %d)\n", name.c_str(), why.c_str(), rank);
      ++failures;
    }
  }
  std::string bad_data(const std::vector<double>& buf, int round, int partitions) const {
    for (int k = 0; k < partitions; ++k)
      for (int i = 0; i < kCount; ++i)
        if (buf[k * kCount + i] != value(round, k, i))
          return "partition " + std::to_string(k) + " element " + std::to_string(i) + " wrong";
    return "";
  }
};

// Every (tag, partition) gets its own message tag, within MPI_TAG_UB.
void tags(Checker& c) {
  std::set<long long> seen;
  for (long long tag = 0; tag < 60; ++tag)
    for (long long i = 0; i < 60; ++i) c.expect(seen.insert(partition_tag(tag, i, 1 << 30)).second, "tags", "a tag repeats");
  c.expect(partition_tag(300, 0, 32767) == -1 && partition_tag(-1, 0, 32767) == -1, "tags", "bad tag accepted");
}

// Partitions made ready out of order, 10 us apart; the receiver polls
// parrived every microsecond: each arrives after its pready, in pready order,
// and only then.
void out_of_order(Checker& c) {
  const int order[] = {3, 1, 0, 2};
  std::vector<double> buf(4 * kCount, -1);
  PRequest r = nullptr;
  const double t0 = MPI_Wtime();
  if (c.rank == 0) {
    psend_init(buf.data(), 4, kCount, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, &r);
    pstart(r);
    for (int k : order) {
      sg4::this_actor::sleep_for(10e-6);
      fill(buf, 0, k);
      c.expect(pready(k, r) == MPI_SUCCESS, "out-of-order", "pready failed");
    }
  } else if (c.rank == 1) {
    precv_init(buf.data(), 4, kCount, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, &r);
    pstart(r);
    std::vector<double> arrival(4, -1);
    for (int seen = 0; seen < 4; sg4::this_actor::sleep_for(1e-6))
      for (int k = 0; k < 4; ++k) {
        int flag = 0;
        c.expect(parrived(r, k, &flag) == MPI_SUCCESS, "out-of-order", "parrived failed");
        if (flag && arrival[k] < 0) {
          arrival[k] = MPI_Wtime() - t0;
          ++seen;
        }
      }
    for (int pos = 0; pos < 4; ++pos)
      c.expect(arrival[order[pos]] >= 10e-6 * (pos + 1), "out-of-order",
               "partition " + std::to_string(order[pos]) + " arrived before its pready");
    for (int pos = 1; pos < 4; ++pos)
      c.expect(arrival[order[pos]] > arrival[order[pos - 1]], "out-of-order", "arrivals not in pready order");
  }
  if (r) {
    c.expect(pwait(r) == MPI_SUCCESS, "out-of-order", "pwait failed");
    if (c.rank == 1) c.expect(c.bad_data(buf, 0, 4).empty(), "out-of-order", c.bad_data(buf, 0, 4));
    pfree(&r);
  }
}

// The sender's rank blocks in pwait while a helper actor (a simulated
// thread) makes the partitions ready; three rounds on the same channel.
void helper_thread_and_rounds(Checker& c) {
  std::vector<double> buf(3 * kCount, -1);
  PRequest r = nullptr;
  if (c.rank == 0) psend_init(buf.data(), 3, kCount, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD, &r);
  if (c.rank == 1) precv_init(buf.data(), 3, kCount, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, &r);
  for (int round = 0; round < 3 && r; ++round) {
    pstart(r);
    if (c.rank == 0) {
      sg4::ActorPtr helper = sg4::Actor::create("pready-thread", sg4::this_actor::get_host(), [&buf, r, round] {
        SMPI_thread_create();
        for (int k = 2; k >= 0; --k) {
          sg4::this_actor::sleep_for(5e-6);
          fill(buf, round, k);
          pready(k, r);
        }
      });
      c.expect(pwait(r) == MPI_SUCCESS, "helper-thread", "pwait failed");
      helper->join();
    } else {
      c.expect(pwait(r) == MPI_SUCCESS, "helper-thread", "pwait failed");
      c.expect(c.bad_data(buf, round, 3).empty(), "helper-thread", "round " + std::to_string(round) + ": " + c.bad_data(buf, round, 3));
    }
  }
  if (r) pfree(&r);
}

// Two channels between the same ranks (tags 1 and 2) with interleaved
// pready calls, one of them through pready_range: no partition crosses over.
void two_channels(Checker& c) {
  std::vector<double> a(3 * kCount, -1), b(2 * kCount, -1);
  PRequest ra = nullptr, rb = nullptr;
  if (c.rank == 0) {
    psend_init(a.data(), 3, kCount, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &ra);
    psend_init(b.data(), 2, kCount, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, &rb);
    pstart(ra);
    pstart(rb);
    for (int k = 0; k < 3; ++k) fill(a, 1, k);
    for (int k = 0; k < 2; ++k) fill(b, 2, k);
    pready(1, rb);
    pready(2, ra);
    pready(0, rb);
    c.expect(pready_range(0, 1, ra) == MPI_SUCCESS, "two-channels", "pready_range failed");
  } else if (c.rank == 1) {
    precv_init(a.data(), 3, kCount, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &ra);
    precv_init(b.data(), 2, kCount, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &rb);
    pstart(rb);
    pstart(ra);
  }
  if (!ra) return;
  c.expect(pwait(ra) == MPI_SUCCESS && pwait(rb) == MPI_SUCCESS, "two-channels", "pwait failed");
  if (c.rank == 1) {
    c.expect(c.bad_data(a, 1, 3).empty(), "two-channels", "channel 1: " + c.bad_data(a, 1, 3));
    c.expect(c.bad_data(b, 2, 2).empty(), "two-channels", "channel 2: " + c.bad_data(b, 2, 2));
  }
  pfree(&ra);
  pfree(&rb);
}

// Misuse is reported, not ignored.
void errors(Checker& c) {
  std::vector<double> buf(2 * kCount, 0);
  PRequest r = nullptr;
  c.expect(psend_init(buf.data(), 0, kCount, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r) == MPI_ERR_ARG, "errors",
           "zero partitions accepted");
  c.expect(psend_init(buf.data(), 2, kCount, MPI_DOUBLE, 1, -1, MPI_COMM_WORLD, &r) == MPI_ERR_ARG, "errors",
           "negative tag accepted");
  if (c.rank == 0) {
    psend_init(buf.data(), 2, kCount, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD, &r);
    c.expect(pready(0, r) == MPI_ERR_REQUEST, "errors", "pready before pstart accepted");
    pstart(r);
    c.expect(pstart(r) == MPI_ERR_REQUEST, "errors", "pstart on an active request accepted");
    c.expect(pready(2, r) == MPI_ERR_ARG, "errors", "partition out of range accepted");
    int flag = 0;
    c.expect(parrived(r, 0, &flag) == MPI_ERR_REQUEST, "errors", "parrived on a send accepted");
    c.expect(pready(0, r) == MPI_SUCCESS && pready(0, r) == MPI_ERR_REQUEST, "errors", "pready twice accepted");
    c.expect(pfree(&r) == MPI_ERR_REQUEST, "errors", "pfree of an active request accepted");
    pready(1, r);
  } else if (c.rank == 1) {
    // The receiving end of the channel above: after the misuse it still gets both partitions.
    precv_init(buf.data(), 2, kCount, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, &r);
    pstart(r);
  }
  if (r) {
    c.expect(pwait(r) == MPI_SUCCESS, "errors", "pwait failed");
    pfree(&r);
  }
}

// Same number of partitions, different sizes: pwait says MPI_ERR_TRUNCATE.
void size_mismatch(Checker& c) {
  std::vector<double> buf(2 * kCount, 0);
  PRequest r = nullptr;
  if (c.rank == 0) {
    psend_init(buf.data(), 2, kCount / 2, MPI_DOUBLE, 1, 11, MPI_COMM_WORLD, &r);
    pstart(r);
    pready_range(0, 1, r);
    c.expect(pwait(r) == MPI_SUCCESS, "size-mismatch", "sender's pwait failed");
  } else if (c.rank == 1) {
    precv_init(buf.data(), 2, kCount, MPI_DOUBLE, 0, 11, MPI_COMM_WORLD, &r);
    pstart(r);
    c.expect(pwait(r) == MPI_ERR_TRUNCATE, "size-mismatch", "partitions of another size went unnoticed");
  }
  if (r) pfree(&r);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  Checker c{rank};
  const struct {
    const char* name;
    void (*run)(Checker&);
  } checks[] = {{"tags", tags},
                {"out-of-order", out_of_order},
                {"helper-thread", helper_thread_and_rounds},
                {"two-channels", two_channels},
                {"errors", errors},
                {"size-mismatch", size_mismatch}};
  for (const auto& check : checks) {
    int failed = c.failures;
    if (p >= 2) check.run(c);
    failed = c.failures - failed;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && failed == 0) std::printf("ok %s\n", check.name);
    std::fflush(stdout);
  }
  int failures = c.failures;
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return failures > 0 || p < 2 ? 1 : 0;
}
