// An MPI program for the PMPI library's layout tests (test_pmpi.cpp). It
// calls every collective the library intercepts the ways MPI allows but a
// per-rank choice of algorithm would trip over: ranks describing the same
// data with different datatypes (contiguous, vector, indexed, struct with
// gaps, resized, and a struct whose memory order is not its signature
// order), allgatherv displacements in any order with gaps, MPI_IN_PLACE,
// zero counts, duplicated and split communicators with non-commutative user
// operators, reduce_scatter with unequal counts, an intercommunicator, a
// predefined operator Open MPI rejects.
//
// Each case checks every rank's result against one computed locally, and
// that the words in the datatypes' gaps were not touched; rank 0 prints one
// line per case: its name and a digest of all ranks' results, or FAILED and
// the ranks. Run with and without libcollsim-pmpi.so, the lines must be the
// same. Exit status 1 on a failed check.
//
//   pmpi_layouts               all cases Open MPI takes
//   pmpi_layouts reproducers   issue 20's two reproducers only
//   pmpi_layouts all           all cases, also predefined operators on
//                              derived datatypes (Open MPI 4.1 rejects them
//                              with MPI_ERR_OP; the library takes them)
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "mix64.hpp"

namespace {

using Word = uint64_t;
using Words = std::vector<Word>;
// What gap words hold before and after every call.
constexpr Word kGap = 0x6a7a6a7a6a7a6a7aULL;

int world_rank = 0, world_size = 1;
bool failed = false;

using collsim::test::mix;

// Rank r's input for a case: n words.
Words input(int r, Word salt, size_t n) {
  Words w(n);
  for (size_t i = 0; i < n; ++i) w[i] = mix(mix(salt) + 7919 * i + 104729 * static_cast<Word>(r));
  return w;
}

// Every rank's verdict and a hash of its result go to rank 0, which prints
// the case's line.
void report(const std::string& name, bool ok, const Words& result) {
  Word mine[2] = {ok ? 1u : 0u, 1469598103934665603ULL};
  for (Word w : result) mine[1] = mix(mine[1] ^ w);
  std::vector<Word> all(2 * world_size);
  MPI_Gather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  failed |= !ok;
  if (world_rank != 0) return;
  std::string bad;
  Word digest = 0;
  for (int r = 0; r < world_size; ++r) {
    if (!all[2 * r]) bad += " " + std::to_string(r);
    digest = mix(digest ^ all[2 * r + 1]);
  }
  if (bad.empty())
    std::printf("%s %016llx\n", name.c_str(), static_cast<unsigned long long>(digest));
  else
    std::printf("%s FAILED on ranks%s\n", name.c_str(), bad.c_str());
}

// ---- Layouts: one element of k words as a datatype, and where its words lie.

enum Kind { contiguous, vector, indexed, gapped_struct, resized, swapped, spread, kKinds };

struct Shape {
  Kind kind;
  int k;                   // words per element
  int extent;              // in words
  std::vector<int> where;  // word v of an element is at where[v]
  MPI_Datatype type;
};

MPI_Datatype two_blocks(int first, int first_at, int second, int second_at) {
  const int lengths[] = {first, second};
  const MPI_Aint at[] = {first_at * MPI_Aint{8}, second_at * MPI_Aint{8}};
  const MPI_Datatype types[] = {MPI_UINT64_T, MPI_UINT64_T};
  MPI_Datatype t;
  MPI_Type_create_struct(2, lengths, at, types, &t);
  return t;
}

MPI_Datatype resized_to(MPI_Datatype inner, int extent) {
  MPI_Datatype t;
  MPI_Type_create_resized(inner, 0, extent * MPI_Aint{8}, &t);
  MPI_Type_free(&inner);
  return t;
}

// k >= 2 words; the same signature (k x MPI_UINT64_T) in every kind.
Shape make_shape(Kind kind, int k) {
  Shape s{kind, k, k, {}, MPI_DATATYPE_NULL};
  const int h = k / 2;
  for (int v = 0; v < k; ++v) s.where.push_back(v);
  switch (kind) {
    case contiguous: MPI_Type_contiguous(k, MPI_UINT64_T, &s.type); break;
    case vector:
      MPI_Type_vector(k, 1, 2, MPI_UINT64_T, &s.type);
      for (int v = 0; v < k; ++v) s.where[v] = 2 * v;
      s.extent = 2 * k - 1;
      break;
    case indexed: {
      const int lengths[] = {1, k - 1}, at[] = {0, 2};
      MPI_Type_indexed(2, lengths, at, MPI_UINT64_T, &s.type);
      for (int v = 1; v < k; ++v) s.where[v] = v + 1;
      s.extent = k + 1;
      break;
    }
    case gapped_struct:  // a gap in the middle and one at the end
      s.type = resized_to(two_blocks(h, 0, k - h, h + 1), k + 2);
      for (int v = h; v < k; ++v) s.where[v] = v + 1;
      s.extent = k + 2;
      break;
    case resized:
      MPI_Type_contiguous(k, MPI_UINT64_T, &s.type);
      s.type = resized_to(s.type, k + 1);
      s.extent = k + 1;
      break;
    case swapped:  // no gap, but the first h words of the signature at the end
      s.type = two_blocks(h, k - h, k - h, 0);
      for (int v = 0; v < k; ++v) s.where[v] = v < h ? k - h + v : v - h;
      break;
    case spread: {  // contiguous, of words that each have a gap after them
      MPI_Datatype word;
      MPI_Type_create_resized(MPI_UINT64_T, 0, 2 * MPI_Aint{8}, &word);
      MPI_Type_contiguous(k, word, &s.type);
      MPI_Type_free(&word);
      for (int v = 0; v < k; ++v) s.where[v] = 2 * v;
      s.extent = 2 * k;
      break;
    }
    case kKinds: break;
  }
  MPI_Type_commit(&s.type);
  return s;
}

std::map<int, Shape> shapes;  // by kind * 8 + k
const Shape& shape(int kind, int k) { return shapes.at(kind % kKinds * 8 + k); }
// The shape a rank uses in a case: ranks of one call differ.
const Shape& shape_of(int r, int salt, int k) { return shape(r + salt, k); }

// `count` elements of a shape in memory; everything but the elements' words
// holds kGap.
class Buffer {
 public:
  Buffer(const Shape& s, int count) : s_(s), count_(count), words_(static_cast<size_t>(count) * s.extent, kGap) {}
  Buffer(const Shape& s, const Words& values) : Buffer(s, static_cast<int>(values.size()) / s.k) { put(values); }
  void* data() { return words_.data(); }
  MPI_Datatype type() const { return s_.type; }
  int count() const { return count_; }
  Word& word(size_t v) { return words_[v / s_.k * s_.extent + s_.where[v % s_.k]]; }
  // Elements [first, first + values/k) from values.
  void put(const Words& values, size_t first = 0) {
    for (size_t v = 0; v < values.size(); ++v) word(first * s_.k + v) = values[v];
  }
  Words get(size_t first, size_t elements) {
    Words out(elements * s_.k);
    for (size_t v = 0; v < out.size(); ++v) out[v] = word(first * s_.k + v);
    return out;
  }
  bool gaps_kept() const {
    std::vector<bool> data(words_.size());
    for (size_t e = 0; e < static_cast<size_t>(count_); ++e)
      for (int w : s_.where) data[e * s_.extent + w] = true;
    for (size_t i = 0; i < words_.size(); ++i)
      if (!data[i] && words_[i] != kGap) return false;
    return true;
  }

 private:
  const Shape& s_;
  int count_;
  Words words_;
};

// ---- Issue 20's reproducers, as reported.

// The root broadcasts 2 contiguous ints; the others receive one vector of
// 2 ints with a gap between them.
void reproducer_bcast() {
  MPI_Datatype strided;
  MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  for (int root : {0, world_size - 1}) {
    int buf[3] = {-1, -2, -3};
    if (world_rank == root) buf[0] = 11, buf[1] = 22;
    MPI_Bcast(buf, world_rank == root ? 2 : 1, world_rank == root ? MPI_INT : strided, root, MPI_COMM_WORLD);
    const bool ok = world_rank == root ? buf[0] == 11 && buf[1] == 22 && buf[2] == -3
                                       : buf[0] == 11 && buf[1] == -2 && buf[2] == 22;
    report("reproducer bcast root " + std::to_string(root), ok, {Word(buf[0]), Word(buf[1]), Word(buf[2])});
  }
  MPI_Type_free(&strided);
}

// Every rank gathers 2 ints from each rank; rank 1 places the blocks in
// reversed rank order.
void reproducer_allgatherv() {
  const int p = world_size;
  std::vector<int> counts(p, 2), displs(p), all(2 * p, -1);
  for (int r = 0; r < p; ++r) displs[r] = 2 * (world_rank == 1 ? p - 1 - r : r);
  const int mine[2] = {10 * world_rank, 10 * world_rank + 1};
  MPI_Allgatherv(mine, 2, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
  bool ok = true;
  for (int r = 0; r < p; ++r) ok &= all[displs[r]] == 10 * r && all[displs[r] + 1] == 10 * r + 1;
  report("reproducer allgatherv", ok, Words(all.begin(), all.end()));
}

// ---- Broadcast and allgather(v) in per-rank layouts.

void bcast_layouts(int words) {
  for (int root : {0, world_size - 1}) {
    const int k = world_rank % 2 ? 4 : 2;
    const Words sent = input(root, words, words);
    Buffer buf(shape_of(world_rank, root, k), words / k);
    if (world_rank == root) buf.put(sent);
    MPI_Bcast(buf.data(), buf.count(), buf.type(), root, MPI_COMM_WORLD);
    const Words got = buf.get(0, buf.count());
    report("bcast " + std::to_string(words) + " words root " + std::to_string(root), got == sent && buf.gaps_kept(),
           got);
  }
}

// Rank r's block of an allgatherv case: a multiple of 4 words, 0 for some.
int block_words(int r, int salt) { return 4 * ((r + salt) % 3); }

// This rank's order of the blocks in its receive buffer: rotated by its
// rank, reversed on odd ranks; one element of gap between blocks.
std::vector<int> displacements(const std::vector<int>& counts) {
  const int p = static_cast<int>(counts.size());
  std::vector<int> displs(p);
  int next = 1;
  for (int i = 0; i < p; ++i) {
    const int r = world_rank % 2 ? (world_rank + p - i) % p : (world_rank + i) % p;
    displs[r] = next;
    next += counts[r] + 1;
  }
  return displs;
}

void allgatherv_layouts(int salt, bool in_place) {
  const int p = world_size, k = world_rank % 2 ? 2 : 4;
  std::vector<int> counts(p);
  for (int r = 0; r < p; ++r) counts[r] = block_words(r, salt) / k;
  const std::vector<int> displs = displacements(counts);
  int elements = p + 1;  // the blocks and their gaps
  for (int n : counts) elements += n;
  Buffer all(shape_of(world_rank, salt, k), elements);
  const int k_send = 6 - k;
  const Words mine = input(world_rank, salt, block_words(world_rank, salt));
  Buffer send(shape_of(world_rank, salt + 1, k_send), mine);
  if (in_place) all.put(mine, displs[world_rank]);
  MPI_Allgatherv(in_place ? MPI_IN_PLACE : send.data(), send.count(), send.type(), all.data(), counts.data(),
                 displs.data(), all.type(), MPI_COMM_WORLD);
  bool ok = all.gaps_kept();
  Words got;
  for (int r = 0; r < p; ++r) {
    const Words block = all.get(displs[r], counts[r]);
    ok &= block == input(r, salt, block_words(r, salt));
    got.insert(got.end(), block.begin(), block.end());
  }
  report(std::string("allgatherv") + (in_place ? " in place" : "") + " salt " + std::to_string(salt), ok, got);
}

void allgather_layouts(int words, bool in_place) {
  const int p = world_size, k = world_rank % 2 ? 4 : 2, k_send = 6 - k;
  Buffer all(shape_of(world_rank, words, k), p * words / k);
  const Words mine = input(world_rank, words, words);
  Buffer send(shape_of(world_rank, words + 3, k_send), mine);
  if (in_place) all.put(mine, world_rank * words / k);
  MPI_Allgather(in_place ? MPI_IN_PLACE : send.data(), send.count(), send.type(), all.data(), words / k, all.type(),
                MPI_COMM_WORLD);
  Words expected;
  for (int r = 0; r < p; ++r) {
    const Words block = input(r, words, words);
    expected.insert(expected.end(), block.begin(), block.end());
  }
  const Words got = all.get(0, all.count());
  report(std::string("allgather ") + std::to_string(words) + " words" + (in_place ? " in place" : ""),
         got == expected && all.gaps_kept(), got);
}

// ---- Reductions of 2 x 2 matrices (4 words, one element of every shape).

// Combines whole matrices: higher = lower (+) higher.
struct Reducer {
  std::string name;
  MPI_Op op;
  void (*combine)(const Word* lower, Word* higher);
};

void matmul(const Word* x, Word* y) {
  const Word r[4] = {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
                     x[2] * y[1] + x[3] * y[3]};
  for (int i = 0; i < 4; ++i) y[i] = r[i];
}
void add(const Word* x, Word* y) {
  for (int i = 0; i < 4; ++i) y[i] += x[i];
}

// The user operators' function: `len` elements of whichever shape the
// calling rank passed, combined matrix by matrix in that layout.
template <void (*combine)(const Word*, Word*)>
void user_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  for (const auto& [key, s] : shapes) {
    if (s.type != *type) continue;
    for (int e = 0; e < *len; ++e) {
      Word x[4], y[4];
      auto* a = static_cast<Word*>(in) + e * s.extent;
      auto* b = static_cast<Word*>(inout) + e * s.extent;
      for (int v = 0; v < 4; ++v) x[v] = a[s.where[v]], y[v] = b[s.where[v]];
      combine(x, y);
      for (int v = 0; v < 4; ++v) b[s.where[v]] = y[v];
    }
    return;
  }
  std::fprintf(stderr, "pmpi_layouts: user operator called with an unknown datatype\n");
  std::abort();
}

// In rank order: inputs of ranks [first, last) of a q-rank case combined.
Words fold(const Reducer& red, Word salt, size_t words, int first, int last) {
  Words acc = input(first, salt, words);
  for (int r = first + 1; r < last; ++r) {
    Words x = input(r, salt, words);
    for (size_t m = 0; m < words; m += 4) red.combine(&acc[m], &x[m]);
    acc = x;
  }
  return acc;
}

// One reduction case on `comm` (this rank is `rank` of `q`): its call on
// this rank's buffers, and which words of the reduced vector it leaves here.
struct ReductionCase {
  MPI_Comm comm;
  int rank, q;
  const Reducer& red;
  std::string where;  // the communicator's name
};

// The case's line: "<call> <operator> on <communicator>[ in place]".
std::string label(const ReductionCase& c, const std::string& call, bool in_place) {
  return call + " " + c.red.name + " on " + c.where + (in_place ? " in place" : "");
}

// Runs `call(sendbuf, out)` with this rank's input of `elements` matrices
// in its own layout (in place: in `out`) and checks the result: matrices
// [first, first + n) of `expected`.
template <typename Call>
void check_reduction(const ReductionCase& c, const std::string& name, bool in_place, int elements, Word salt,
                     const Words& expected, size_t first, size_t n, Call call) {
  const Shape& s = shape_of(c.rank, static_cast<int>(salt), 4);
  const Words mine = input(c.rank, salt, 4 * static_cast<size_t>(elements));
  Buffer in(s, mine);
  Buffer out = in_place ? Buffer(s, mine) : Buffer(s, elements);
  call(in_place ? MPI_IN_PLACE : in.data(), out);
  const Words got = out.get(0, n);
  const Words want(expected.begin() + 4 * first, expected.begin() + 4 * (first + n));
  report(name, got == want && out.gaps_kept(), got);
}

void reduce_cases(const ReductionCase& c, int elements, Word salt) {
  const Words all = fold(c.red, salt, 4 * elements, 0, c.q);
  const int root = c.q - 1;
  const std::string size = " " + std::to_string(elements);
  for (bool in_place : {false, true}) {
    const bool at_root = c.rank == root;  // MPI_IN_PLACE only there
    check_reduction(c, label(c, "reduce" + size, in_place), in_place && at_root, elements, salt, all, 0,
                    at_root ? elements : 0, [&](const void* send, Buffer& out) {
                      MPI_Reduce(send, out.data(), elements, out.type(), c.red.op, root, c.comm);
                    });
    check_reduction(c, label(c, "allreduce" + size, in_place), in_place, elements, salt, all, 0, elements,
                    [&](const void* send, Buffer& out) {
                      MPI_Allreduce(send, out.data(), elements, out.type(), c.red.op, c.comm);
                    });
    check_reduction(c, label(c, "scan" + size, in_place), in_place, elements, salt,
                    fold(c.red, salt, 4 * elements, 0, c.rank + 1), 0, elements, [&](const void* send, Buffer& out) {
                      MPI_Scan(send, out.data(), elements, out.type(), c.red.op, c.comm);
                    });
    const bool defined = c.rank > 0;  // rank 0's exscan result is undefined
    check_reduction(c, label(c, "exscan" + size, in_place), in_place, elements, salt,
                    defined ? fold(c.red, salt, 4 * elements, 0, c.rank) : Words{}, 0, defined ? elements : 0,
                    [&](const void* send, Buffer& out) {
                      MPI_Exscan(send, out.data(), elements, out.type(), c.red.op, c.comm);
                    });
  }
}

// Unequal counts, some zero (all zero where `zero`), and equal blocks.
void reduce_scatter_cases(const ReductionCase& c, Word salt, bool zero) {
  std::vector<int> counts(c.q);
  int total = 0, first = 0;
  for (int r = 0; r < c.q; ++r) {
    counts[r] = zero ? 0 : (r * 2 + static_cast<int>(salt)) % 3;
    if (r < c.rank) first += counts[r];
    total += counts[r];
  }
  const int block = zero ? 0 : 2;
  const std::string which = zero ? " zero" : "";
  for (bool in_place : {false, true}) {
    check_reduction(c, label(c, "reduce_scatter" + which, in_place), in_place, total, salt,
                    fold(c.red, salt, 4 * total, 0, c.q), first, counts[c.rank], [&](const void* send, Buffer& out) {
                      MPI_Reduce_scatter(send, out.data(), counts.data(), out.type(), c.red.op, c.comm);
                    });
    check_reduction(c, label(c, "reduce_scatter_block" + which, in_place), in_place, block * c.q, salt,
                    fold(c.red, salt, 4 * block * c.q, 0, c.q), block * c.rank, block,
                    [&](const void* send, Buffer& out) {
                      MPI_Reduce_scatter_block(send, out.data(), block, out.type(), c.red.op, c.comm);
                    });
  }
}

void reductions(MPI_Comm comm, const std::string& where, const Reducer& red, Word salt) {
  ReductionCase c{comm, 0, 1, red, where};
  MPI_Comm_rank(comm, &c.rank);
  MPI_Comm_size(comm, &c.q);
  for (int elements : {0, 5}) reduce_cases(c, elements, salt + elements);
  for (bool zero : {false, true}) reduce_scatter_cases(c, salt, zero);
}

// ---- Predefined operators on predefined types, MPI_DOUBLE_INT (a gap) too.

void predefined_types() {
  Words sum = input(world_rank, 50, 7), expected(7, 0);
  for (int r = 0; r < world_size; ++r)
    for (int i = 0; i < 7; ++i) expected[i] += input(r, 50, 7)[i];
  Words got(7);
  MPI_Allreduce(sum.data(), got.data(), 7, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  report("allreduce sum uint64", got == expected, got);
  MPI_Allreduce(MPI_IN_PLACE, sum.data(), 7, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  report("allreduce sum uint64 in place", sum == expected, sum);

  struct DoubleInt {
    double value;
    int rank;
  };
  const auto value = [](int r, int i) { return static_cast<double>((r * 7 + i * 3) % 5); };
  std::vector<DoubleInt> pairs(6), least(6);
  for (int i = 0; i < 6; ++i) pairs[i] = {value(world_rank, i), world_rank};
  MPI_Scan(pairs.data(), least.data(), 6, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
  bool ok = true;
  Words seen;
  for (int i = 0; i < 6; ++i) {
    DoubleInt want{value(0, i), 0};
    for (int r = 1; r <= world_rank; ++r)
      if (value(r, i) < want.value) want = {value(r, i), r};
    ok &= least[i].value == want.value && least[i].rank == want.rank;
    seen.push_back(static_cast<Word>(least[i].value) * 1000 + least[i].rank);
  }
  report("scan minloc double_int", ok, seen);

  int mine[2] = {(world_rank * 5) % 3, world_rank}, most[2];
  MPI_Allreduce(mine, most, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
  int want[2] = {-1, 0};
  for (int r = 0; r < world_size; ++r)
    if ((r * 5) % 3 > want[0]) want[0] = (r * 5) % 3, want[1] = r;
  report("allreduce maxloc 2int", most[0] == want[0] && most[1] == want[1], {Word(most[0]), Word(most[1])});
}

// A predefined operator on a struct of an int and a double has no
// element-wise meaning: Open MPI returns an error, on every rank (the
// library leaves the call to Open MPI on all of them, or some would hang).
void mixed_struct() {
  const int lengths[] = {1, 1};
  const MPI_Aint at[] = {0, 8};
  const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
  MPI_Datatype mixed;
  MPI_Type_create_struct(2, lengths, at, types, &mixed);
  MPI_Type_commit(&mixed);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const Word in[2] = {1, 2};
  Word out[2];
  const int rc = MPI_Allreduce(in, out, 1, mixed, MPI_SUM, comm);
  report("allreduce sum on int+double rejected", rc != MPI_SUCCESS, {});
  MPI_Comm_free(&comm);
  MPI_Type_free(&mixed);
}

// ---- An intercommunicator: the library leaves it to Open MPI, on all ranks.

void intercommunicator() {
  if (world_size < 2) return;
  const int half = world_size / 2, low = world_rank < half;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, low, world_rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? half : 0, 7, &inter);
  int local_rank = 0, remote = 0;
  MPI_Comm_rank(local, &local_rank);
  MPI_Comm_remote_size(inter, &remote);

  const Words sent = input(0, 60, 8);
  Words got = low && local_rank == 0 ? sent : Words(8, kGap);
  MPI_Bcast(got.data(), 8, MPI_UINT64_T, low ? (local_rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter);
  report("intercommunicator bcast", got == (low && local_rank != 0 ? Words(8, kGap) : sent), got);

  const Word mine = input(world_rank, 61, 1)[0];
  Word sum = 0, expected = 0;
  for (int r = 0; r < world_size; ++r) expected += (r < half) != low ? input(r, 61, 1)[0] : 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, inter);
  report("intercommunicator allreduce", sum == expected, {sum});

  Words theirs(remote), want;
  for (int r = 0; r < world_size; ++r)
    if ((r < half) != low) want.push_back(input(r, 61, 1)[0]);
  MPI_Allgather(&mine, 1, MPI_UINT64_T, theirs.data(), 1, MPI_UINT64_T, inter);
  report("intercommunicator allgather", theirs == want, theirs);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
}

void zero_counts() {
  Buffer nothing(shape_of(world_rank, 0, 4), 0);
  MPI_Bcast(nothing.data(), 0, nothing.type(), world_size - 1, MPI_COMM_WORLD);
  report("bcast zero", true, {});
  std::vector<int> zeros(world_size, 0), displs(world_size, 0);
  MPI_Allgatherv(nothing.data(), 0, nothing.type(), nothing.data(), zeros.data(), displs.data(), nothing.type(),
                 MPI_COMM_WORLD);
  report("allgatherv zero", true, {});
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, nothing.data(), 0, nothing.type(), MPI_COMM_WORLD);
  report("allgather zero in place", true, {});
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const std::string mode = argc > 1 ? argv[1] : "";
  reproducer_bcast();
  reproducer_allgatherv();
  if (mode == "reproducers") {
    MPI_Finalize();
    return failed;
  }
  for (int kind = 0; kind < kKinds; ++kind)
    for (int k : {2, 4}) shapes.emplace(kind * 8 + k, make_shape(static_cast<Kind>(kind), k));
  MPI_Op matmul_op, add_op;
  MPI_Op_create(user_op<matmul>, 0, &matmul_op);
  MPI_Op_create(user_op<add>, 1, &add_op);
  const Reducer matmul_red{"matmul", matmul_op, matmul}, add_red{"add", add_op, add};

  for (int words : {0, 48, 4096}) bcast_layouts(words);
  for (int salt : {0, 1})
    for (bool in_place : {false, true}) allgatherv_layouts(salt, in_place);
  for (bool in_place : {false, true}) allgather_layouts(8, in_place);
  zero_counts();

  MPI_Comm dup, split;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_size - world_rank, &split);  // reversed order
  reductions(MPI_COMM_WORLD, "world", matmul_red, 10);
  reductions(MPI_COMM_WORLD, "world", add_red, 20);
  reductions(dup, "dup", matmul_red, 30);
  reductions(split, "split", matmul_red, 40);
  predefined_types();
  mixed_struct();
  intercommunicator();
  if (mode == "all") reductions(MPI_COMM_WORLD, "world", {"sum", MPI_SUM, add}, 70);
  MPI_Comm_free(&split);
  MPI_Comm_free(&dup);
  MPI_Op_free(&add_op);
  MPI_Op_free(&matmul_op);
  for (auto& [key, s] : shapes) MPI_Type_free(&s.type);
  MPI_Finalize();
  return failed;
}
