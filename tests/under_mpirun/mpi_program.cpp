// An ordinary MPI program, knowing nothing of collsim, for the PMPI test: it
// calls the standard collectives on pseudo-random data (a non-commutative
// user operator among them, MPI_IN_PLACE, a non-contiguous datatype) and rank
// 0 prints one digest of all ranks' results per call. Run with and without
// libcollsim-pmpi.so preloaded, the output must be the same.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "mix64.hpp"

namespace {

int rank = 0, p = 1;

using collsim::test::mix;

// Every rank hashes its bytes; rank 0 prints the hash of all of them.
void digest(const char* name, const void* data, size_t bytes, bool include = true) {
  uint64_t h = 1469598103934665603ULL;
  const auto* b = static_cast<const unsigned char*>(data);
  for (size_t i = 0; include && i < bytes; ++i) h = (h ^ b[i]) * 1099511628211ULL;
  std::vector<uint64_t> all(p);
  MPI_Gather(&h, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  uint64_t total = 0;
  for (uint64_t x : all) total = mix(total ^ x);
  if (rank == 0) std::printf("%s %016llx\n", name, static_cast<unsigned long long>(total));
}

template <typename T>
std::vector<T> data(size_t n, uint64_t salt) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<T>(mix(i * 7919 + salt * 104729 + static_cast<uint64_t>(rank)));
  return v;
}

// 2 x 2 matrices of uint64 mod 2^64: associative, not commutative.
struct Mat {
  uint64_t a, b, c, d;
};
void matmul(void* in, void* inout, int* len, MPI_Datatype*) {
  const Mat* x = static_cast<const Mat*>(in);
  Mat* y = static_cast<Mat*>(inout);
  for (int i = 0; i < *len; ++i)
    y[i] = {x[i].a * y[i].a + x[i].b * y[i].c, x[i].a * y[i].b + x[i].b * y[i].d, x[i].c * y[i].a + x[i].d * y[i].c,
            x[i].c * y[i].b + x[i].d * y[i].d};
}
std::vector<Mat> mats(size_t n, uint64_t salt) {
  std::vector<Mat> v(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t x = mix(i + salt + 31 * static_cast<uint64_t>(rank)), y = mix(x);
    v[i] = {1 + x * y, x, y, 1};
  }
  return v;
}

MPI_Datatype mat_type;
MPI_Op mat_op;

void bcasts() {
  for (int root : {0, p - 1})
    for (int n : {0, 1, 1000, 100003}) {
      auto v = data<unsigned char>(n, rank == root ? 1 : 2);
      MPI_Bcast(v.data(), n, MPI_BYTE, root, MPI_COMM_WORLD);
      digest("MPI_Bcast(bytes)", v.data(), v.size());
    }
  auto ints = data<int>(777, rank == p / 2 ? 3 : 4);
  MPI_Bcast(ints.data(), 777, MPI_INT, p / 2, MPI_COMM_WORLD);
  digest("MPI_Bcast(int)", ints.data(), ints.size() * sizeof(int));
  MPI_Datatype every_other;  // non-contiguous
  MPI_Type_vector(100, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  auto strided = data<int>(200, rank == 0 ? 5 : 6);
  MPI_Bcast(strided.data(), 1, every_other, 0, MPI_COMM_WORLD);
  digest("MPI_Bcast(vector type)", strided.data(), strided.size() * sizeof(int));
  MPI_Type_free(&every_other);
}

void reduces() {
  auto in = data<long>(1000, 7);
  std::vector<long> out(1000);
  MPI_Reduce(in.data(), out.data(), 1000, MPI_LONG, MPI_BXOR, 1 % p, MPI_COMM_WORLD);
  digest("MPI_Reduce(bxor)", out.data(), out.size() * sizeof(long), rank == 1 % p);
  auto m = mats(100, 8);
  std::vector<Mat> mout(100);
  MPI_Reduce(m.data(), mout.data(), 100, mat_type, mat_op, p - 1, MPI_COMM_WORLD);
  digest("MPI_Reduce(matmul)", mout.data(), mout.size() * sizeof(Mat), rank == p - 1);
  MPI_Reduce(rank == 0 ? MPI_IN_PLACE : in.data(), in.data(), 1000, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  digest("MPI_Reduce(sum, in place)", in.data(), in.size() * sizeof(long), rank == 0);
}

void allreduces() {
  auto in = data<long>(1000, 9);
  std::vector<long> out(1000);
  MPI_Allreduce(in.data(), out.data(), 1000, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  digest("MPI_Allreduce(sum)", out.data(), out.size() * sizeof(long));
  auto m = mats(64, 10);
  std::vector<Mat> mout(64);
  MPI_Allreduce(m.data(), mout.data(), 64, mat_type, mat_op, MPI_COMM_WORLD);
  digest("MPI_Allreduce(matmul)", mout.data(), mout.size() * sizeof(Mat));
  MPI_Allreduce(MPI_IN_PLACE, m.data(), 64, mat_type, mat_op, MPI_COMM_WORLD);
  digest("MPI_Allreduce(matmul, in place)", m.data(), m.size() * sizeof(Mat));
}

void reduce_scatters() {
  std::vector<int> counts(p);
  int total = 0;
  for (int r = 0; r < p; ++r) total += counts[r] = r + 1;
  auto m = mats(total, 11);
  std::vector<Mat> mout(rank + 1);
  MPI_Reduce_scatter(m.data(), mout.data(), counts.data(), mat_type, mat_op, MPI_COMM_WORLD);
  digest("MPI_Reduce_scatter(matmul)", mout.data(), mout.size() * sizeof(Mat));
  MPI_Reduce_scatter(MPI_IN_PLACE, m.data(), counts.data(), mat_type, mat_op, MPI_COMM_WORLD);
  digest("MPI_Reduce_scatter(matmul, in place)", m.data(), (rank + 1) * sizeof(Mat));
  auto longs = data<long>(total, 18);
  std::vector<long> mine(rank + 1);
  MPI_Reduce_scatter(longs.data(), mine.data(), counts.data(), MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  digest("MPI_Reduce_scatter(sum)", mine.data(), mine.size() * sizeof(long));
  auto in = data<long>(3 * p, 12);
  std::vector<long> out(3);
  MPI_Reduce_scatter_block(in.data(), out.data(), 3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  digest("MPI_Reduce_scatter_block(sum)", out.data(), out.size() * sizeof(long));
}

void allgathers() {
  std::vector<int> counts(p), displs(p);
  int total = 0;
  for (int r = 0; r < p; ++r) displs[r] = total, total += counts[r] = 2 * r + 1;
  auto mine = data<int>(rank * 2 + 1, 13);
  std::vector<int> all(total);
  MPI_Allgatherv(mine.data(), rank * 2 + 1, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT,
                 MPI_COMM_WORLD);
  digest("MPI_Allgatherv(int)", all.data(), all.size() * sizeof(int));
  auto five = data<double>(5, 14);
  std::vector<double> gathered(5 * p);
  MPI_Allgather(five.data(), 5, MPI_DOUBLE, gathered.data(), 5, MPI_DOUBLE, MPI_COMM_WORLD);
  digest("MPI_Allgather(double)", gathered.data(), gathered.size() * sizeof(double));
  auto whole = data<long>(4 * p, 15);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, whole.data(), 4, MPI_LONG, MPI_COMM_WORLD);
  digest("MPI_Allgather(long, in place)", whole.data(), whole.size() * sizeof(long));
}

void scans() {
  auto m = mats(50, 16);
  std::vector<Mat> out(50);
  MPI_Scan(m.data(), out.data(), 50, mat_type, mat_op, MPI_COMM_WORLD);
  digest("MPI_Scan(matmul)", out.data(), out.size() * sizeof(Mat));
  MPI_Exscan(m.data(), out.data(), 50, mat_type, mat_op, MPI_COMM_WORLD);
  digest("MPI_Exscan(matmul)", out.data(), out.size() * sizeof(Mat), rank != 0);  // rank 0's is undefined
  auto in = data<long>(333, 17);
  MPI_Scan(MPI_IN_PLACE, in.data(), 333, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  digest("MPI_Scan(sum, in place)", in.data(), in.size() * sizeof(long));
  MPI_Exscan(MPI_IN_PLACE, in.data(), 333, MPI_LONG, MPI_BXOR, MPI_COMM_WORLD);
  digest("MPI_Exscan(bxor, in place)", in.data(), in.size() * sizeof(long), rank != 0);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Type_contiguous(4, MPI_UINT64_T, &mat_type);
  MPI_Type_commit(&mat_type);
  MPI_Op_create(matmul, 0, &mat_op);
  bcasts();
  reduces();
  allreduces();
  reduce_scatters();
  allgathers();
  scans();
  MPI_Op_free(&mat_op);
  MPI_Type_free(&mat_type);
  MPI_Finalize();
  return 0;
}
