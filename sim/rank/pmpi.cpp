// libcollsim-pmpi.so: a PMPI interposition library for Open MPI that makes an
// unmodified MPI program run our algorithms. Preload it (or link it before
// libmpi) and name an algorithm per collective:
//
//   COLLSIM_BCAST=circulant COLLSIM_ALLREDUCE=... mpirun -x LD_PRELOAD=.../libcollsim-pmpi.so ./app
//
//   variable                 MPI calls
//   COLLSIM_BCAST            MPI_Bcast
//   COLLSIM_REDUCE           MPI_Reduce
//   COLLSIM_ALLREDUCE        MPI_Allreduce
//   COLLSIM_REDUCE_SCATTER   MPI_Reduce_scatter, MPI_Reduce_scatter_block
//   COLLSIM_ALLGATHERV       MPI_Allgatherv, MPI_Allgather
//   COLLSIM_SCAN             MPI_Scan
//   COLLSIM_EXSCAN           MPI_Exscan
//   COLLSIM_BLOCKS           n for pipelined algorithms (default: the block
//                            policy on kPolicyNet)
//   COLLSIM_VERBOSE=1        rank 0 of each call's communicator says on
//                            stderr which algorithm ran, or why Open MPI's
//
// Names are registry rows of that collective; SimGrid's (smpi:*) are not.
// A bad setting stops the program in MPI_Init (or MPI_Init_thread): one line
// on stderr from the lowest rank that has it, exit status 2.
//
// A call goes to Open MPI's own collective (PMPI_*) when no algorithm is
// named for it and in these cases, which our algorithms do not take:
//   - an intercommunicator;
//   - a datatype that is not contiguous (lower bound 0, extent = true
//     extent = size), or a message of 2^31 bytes or more;
//   - an algorithm flagged kCommutative with a non-commutative operator;
//   - allgatherv whose displacements are not the packed prefix sums of the
//     counts, or whose send and receive sizes differ;
//   - collectives called from inside one of our algorithms.
// MPI_IN_PLACE is taken: the input is copied to a buffer of our own first.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "block_policy.hpp"
#include "collective.hpp"
#include "run_table.hpp"

namespace collsim::sim {
namespace {

// The network the block policy assumes (the harness's defaults).
constexpr Net kPolicyNet{5e-6, 1e-9, 1e-9};

// Process-wide settings, fixed in MPI_Init. Globals are fine here: under
// real MPI every rank is a process of its own.
struct Config {
  const Algorithm* algo[std::size(kCollectives)] = {};
  int64_t blocks = 0;  // 0: the block policy
  bool verbose = false;
};
Config config;
// > 0 while one of our algorithms runs: collectives it calls go to Open MPI.
thread_local int depth = 0;

std::string env_name(Collective c) {
  std::string name = std::string("COLLSIM_") + collective_name(c);
  for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return name;
}

std::string ours(Collective c) {
  std::string names;
  for (const Algorithm* a : algorithms_of(c))
    if (!a->has(kSmpiBuiltin)) names += (names.empty() ? "" : ", ") + std::string(a->name);
  return names.empty() ? "none yet" : names;
}

// The algorithm a variable names; throws the error line.
const Algorithm* named(Collective c, const std::string& name) {
  for (const Algorithm* a : algorithms_of(c))
    if (name == a->name && !a->has(kSmpiBuiltin)) return a;
  throw std::invalid_argument(env_name(c) + ": unknown " + collective_name(c) + " algorithm '" + name +
                              "'; ours: " + ours(c));
}

// Reads the COLLSIM_* variables into `config`; "" or the error line.
std::string configure() {
  try {
    for (Collective c : kCollectives)
      if (const char* name = std::getenv(env_name(c).c_str()))
        config.algo[static_cast<int>(c)] = named(c, name);
    if (const char* blocks = std::getenv("COLLSIM_BLOCKS")) {
      char* end = nullptr;
      config.blocks = std::strtoll(blocks, &end, 10);
      if (*blocks == '\0' || *end != '\0' || config.blocks < 1 || config.blocks > INT_MAX)
        throw std::invalid_argument(std::string("COLLSIM_BLOCKS: not a block count >= 1: '") + blocks + "'");
    }
    const char* verbose = std::getenv("COLLSIM_VERBOSE");
    config.verbose = verbose && std::strcmp(verbose, "0") != 0 && *verbose != '\0';
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// After PMPI_Init: all ranks agree whether any setting is bad; if so the
// lowest such rank says why and every rank leaves.
void start() {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string error = configure();
  int bad = error.empty() ? INT_MAX : rank;
  PMPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (bad == INT_MAX) return;
  if (bad == rank) std::fprintf(stderr, "libcollsim-pmpi: error: %s\n", error.c_str());
  PMPI_Finalize();
  std::exit(2);
}

void say(MPI_Comm comm, const char* fn, const std::string& what) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (config.verbose && rank == 0) std::fprintf(stderr, "libcollsim-pmpi: %s: %s\n", fn, what.c_str());
}

int64_t type_size(MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return size;
}

bool contiguous(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_get_extent(type, &lb, &extent);
  PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
  const int64_t size = type_size(type);
  return lb == 0 && true_lb == 0 && extent == size && true_extent == size;
}

// Why the algorithm cannot take this call; nullptr when it can.
const char* unsupported(const Algorithm& algo, MPI_Comm comm, MPI_Datatype type, int64_t count, MPI_Op op) {
  int inter = 0, commutative = 1;
  PMPI_Comm_test_inter(comm, &inter);
  if (op != MPI_OP_NULL) PMPI_Op_commutative(op, &commutative);
  if (depth > 0) return "called from inside an algorithm";
  if (inter) return "intercommunicator";
  if (!contiguous(type)) return "non-contiguous datatype";
  if (count * type_size(type) > INT_MAX) return "message of 2 GiB or more";
  if (algo.has(kCommutative) && !commutative) return "non-commutative operator";
  return nullptr;
}

// The algorithm that takes this call of collective c, or nullptr for Open MPI's.
const Algorithm* pick(Collective c, const char* fn, MPI_Comm comm, MPI_Datatype type, int64_t count,
                      MPI_Op op = MPI_OP_NULL) {
  const Algorithm* algo = config.algo[static_cast<int>(c)];
  if (!algo) return nullptr;
  if (const char* why = unsupported(*algo, comm, type, count, op)) {
    if (depth == 0) say(comm, fn, std::string("Open MPI's (") + why + ")");
    return nullptr;
  }
  return algo;
}

// Runs `algo` with its block count (COLLSIM_BLOCKS or the block policy).
int run(const char* fn, const Algorithm& algo, CollArgs args) {
  int p = 1;
  PMPI_Comm_size(args.comm, &p);
  args.blocks = !algo.has(kBlocks) ? 1 : config.blocks > 0 ? config.blocks : choose_blocks(algo, kPolicyNet, p, args.bytes);
  say(args.comm, fn, std::string(algo.name) + ", n=" + std::to_string(args.blocks) + ", " + std::to_string(args.bytes) + " bytes");
  ++depth;
  run_function(algo)(args);
  --depth;
  return MPI_SUCCESS;
}

// The input: sendbuf, or for MPI_IN_PLACE a copy of `bytes` from `in_place`.
const void* input(const void* sendbuf, const void* in_place, int64_t bytes, std::vector<char>& copy) {
  if (sendbuf != MPI_IN_PLACE) return sendbuf;
  copy.assign(static_cast<const char*>(in_place), static_cast<const char*>(in_place) + bytes);
  return copy.data();
}

// Allreduce, scan and exscan: the same arguments, in place from recvbuf.
int vector_reduction(Collective c, const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                     MPI_Op op, MPI_Comm comm, int (*fallback)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm)) {
  const Algorithm* algo = pick(c, fn, comm, type, count, op);
  if (!algo) return fallback(sendbuf, recvbuf, count, type, op, comm);
  const int64_t bytes = count * type_size(type);
  std::vector<char> copy;
  return run(fn, *algo, {recvbuf, bytes, 0, comm, 1, input(sendbuf, recvbuf, bytes, copy), count, type, op});
}

int reduce_scatter(const char* fn, const void* sendbuf, void* recvbuf, const std::vector<int>& counts,
                   MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  int64_t total = 0;
  for (int n : counts) total += n;
  const Algorithm* algo = pick(Collective::reduce_scatter, fn, comm, type, total, op);
  if (!algo) return PMPI_Reduce_scatter(sendbuf, recvbuf, counts.data(), type, op, comm);
  const int64_t bytes = total * type_size(type);
  std::vector<char> copy;
  CollArgs args{recvbuf, bytes, 0, comm, 1, input(sendbuf, recvbuf, bytes, copy), total, type, op};
  args.counts = counts.data();
  return run(fn, *algo, args);
}

// Our allgatherv takes counts and displacements in bytes, blocks packed in
// rank order; fills them and returns nullptr when this call fits, else why not.
const char* byte_layout(int64_t send_bytes, int rank, const int* counts, const int* displs, int64_t size,
                        std::vector<int>& byte_counts, std::vector<int>& byte_displs) {
  int64_t offset = 0;
  for (size_t r = 0; r < byte_counts.size(); ++r) {
    if (displs[r] * size != offset) return "displacements not packed in rank order";
    byte_counts[r] = static_cast<int>(counts[r] * size);
    byte_displs[r] = static_cast<int>(offset);
    offset += counts[r] * size;
  }
  return send_bytes == byte_counts[rank] ? nullptr : "send and receive sizes differ";
}

int allgatherv(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               const int* counts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm) {
  int p = 1, rank = 0;
  PMPI_Comm_size(comm, &p);
  PMPI_Comm_rank(comm, &rank);
  int64_t total = 0;
  for (int r = 0; r < p; ++r) total += counts[r];
  const Algorithm* algo = pick(Collective::allgatherv, fn, comm, recvtype, total);
  const int64_t size = type_size(recvtype);
  std::vector<int> byte_counts(p), byte_displs(p);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const int64_t send_bytes = in_place ? counts[rank] * size : sendcount * type_size(sendtype);
  if (algo) {
    const char* why = !in_place && !contiguous(sendtype)
                          ? "non-contiguous datatype"
                          : byte_layout(send_bytes, rank, counts, displs, size, byte_counts, byte_displs);
    if (why) say(comm, fn, std::string("Open MPI's (") + why + ")");
    if (why) algo = nullptr;
  }
  if (!algo) return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, counts, displs, recvtype, comm);
  std::vector<char> copy;
  const void* in = input(sendbuf, static_cast<char*>(recvbuf) + byte_displs[rank], send_bytes, copy);
  CollArgs args{recvbuf, total * size, 0, comm, 1, in, total * size, MPI_BYTE};
  args.counts = byte_counts.data();
  args.displs = byte_displs.data();
  return run(fn, *algo, args);
}

}  // namespace
}  // namespace collsim::sim

using namespace collsim::sim;

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) start();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) start();
  return rc;
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const Algorithm* algo = pick(Collective::bcast, "MPI_Bcast", comm, type, count);
  if (!algo) return PMPI_Bcast(buf, count, type, root, comm);
  return run("MPI_Bcast", *algo, {buf, count * type_size(type), root, comm, 1});
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  const Algorithm* algo = pick(Collective::reduce, "MPI_Reduce", comm, type, count, op);
  if (!algo) return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  const int64_t bytes = count * type_size(type);
  std::vector<char> copy;
  const void* in = input(sendbuf, recvbuf, bytes, copy);  // MPI_IN_PLACE only at the root
  return run("MPI_Reduce", *algo, {rank == root ? recvbuf : nullptr, bytes, root, comm, 1, in, count, type, op});
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return vector_reduction(Collective::allreduce, "MPI_Allreduce", sendbuf, recvbuf, count, type, op, comm,
                          PMPI_Allreduce);
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return vector_reduction(Collective::scan, "MPI_Scan", sendbuf, recvbuf, count, type, op, comm, PMPI_Scan);
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return vector_reduction(Collective::exscan, "MPI_Exscan", sendbuf, recvbuf, count, type, op, comm, PMPI_Exscan);
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int counts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  int p = 1;
  PMPI_Comm_size(comm, &p);
  return reduce_scatter("MPI_Reduce_scatter", sendbuf, recvbuf, std::vector<int>(counts, counts + p), type, op, comm);
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  int p = 1;
  PMPI_Comm_size(comm, &p);
  return reduce_scatter("MPI_Reduce_scatter_block", sendbuf, recvbuf, std::vector<int>(p, count), type, op, comm);
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int counts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return allgatherv("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, counts, displs, recvtype, comm);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  int p = 1;
  PMPI_Comm_size(comm, &p);
  std::vector<int> counts(p, recvcount), displs(p);
  for (int r = 0; r < p; ++r) displs[r] = r * recvcount;
  return allgatherv("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(), recvtype,
                    comm);
}
