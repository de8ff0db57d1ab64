#include "two_tree_pipeline.hpp"

#include <cstring>
#include <vector>

#include "circulant.hpp"
#include "two_tree.hpp"

namespace collsim::sim {

namespace {

int tree_of(int64_t block) { return 1 + static_cast<int>(block % 2); }

struct Blocks {
  const CollArgs& a;
  int esize;
  Span span(int64_t j) const {
    const Span s = block_span(a.count, a.blocks, j);
    return {s.begin * esize, s.end * esize};
  }
  int count(int64_t j) const { return span(j).count() / esize; }
};

int element_size(MPI_Datatype type) {
  int size = 0;
  MPI_Type_size(type, &size);
  return size;
}

// At most one send in flight per stream: wait for the stream's previous one.
void send_one(MPI_Request& pending, const char* data, int count, const CollArgs& a, int to, int64_t tag) {
  MPI_Wait(&pending, MPI_STATUS_IGNORE);
  MPI_Isend(data, count, a.type, to, static_cast<int>(tag), a.comm, &pending);
}

}  // namespace

int two_tree_root(const CollArgs& a) {
  int p = 0, commutative = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Op_commutative(a.op, &commutative);
  return commutative || a.root == 0 || a.root == p - 1 ? a.root : p - 1;
}

void two_tree_reduce(const CollArgs& a, int tree_root, char* acc, char* out) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  if (p == 1 || a.count == 0) return;
  const TwoTree tt(p, tree_root);
  const Blocks bl{a, element_size(a.type)};
  const int64_t n = a.blocks;
  int64_t kids[2][2];
  const int nkids[2] = {tt.children(1, rank, kids[0]), tt.children(2, rank, kids[1])};
  // One buffer per child slot of each tree; a child only fills its tree's blocks.
  std::vector<char> from_kid[2][2];
  std::vector<MPI_Request> recv(static_cast<size_t>(2 * n), MPI_REQUEST_NULL);
  for (int64_t j = 0; j < n; ++j) {
    const int t = tree_of(j) - 1;
    for (int c = 0; c < nkids[t]; ++c) {
      from_kid[t][c].resize(static_cast<size_t>(a.bytes));
      MPI_Irecv(from_kid[t][c].data() + bl.span(j).begin, bl.count(j), a.type, static_cast<int>(kids[t][c]),
                static_cast<int>(j), a.comm, &recv[static_cast<size_t>(2 * j + c)]);
    }
  }
  const bool forward = rank == tree_root && a.root != tree_root;
  std::vector<MPI_Request> final(static_cast<size_t>(n), MPI_REQUEST_NULL);
  if (rank == a.root && a.root != tree_root)
    for (int64_t j = 0; j < n; ++j)
      MPI_Irecv(out + bl.span(j).begin, bl.count(j), a.type, tree_root, static_cast<int>(j), a.comm,
                &final[static_cast<size_t>(j)]);
  // One send stream per tree, so a rank's sends in one tree never wait for
  // its sends in the other (a node is a leaf in one of them).
  MPI_Request pending[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  for (int64_t j = 0; j < n; ++j) {
    const int t = tree_of(j) - 1;
    const Span s = bl.span(j);
    char* mine = acc + s.begin;
    MPI_Waitall(2, &recv[static_cast<size_t>(2 * j)], MPI_STATUSES_IGNORE);
    // Inorder: the lower-ranked child's range precedes this rank, the
    // higher one's follows it.
    for (int c = 0; c < nkids[t]; ++c) {
      char* theirs = from_kid[t][c].data() + s.begin;
      if (kids[t][c] < rank) {
        MPI_Reduce_local(theirs, mine, bl.count(j), a.type, a.op);  // mine = theirs ⊕ mine
      } else {
        MPI_Reduce_local(mine, theirs, bl.count(j), a.type, a.op);  // theirs = mine ⊕ theirs
        std::memcpy(mine, theirs, static_cast<size_t>(s.count()));
      }
    }
    const int64_t up = tt.parent(t + 1, rank);
    if (up >= 0) send_one(pending[t], mine, bl.count(j), a, static_cast<int>(up), j);
    if (forward) send_one(pending[t], mine, bl.count(j), a, a.root, j);
  }
  MPI_Waitall(2, pending, MPI_STATUSES_IGNORE);
  MPI_Waitall(static_cast<int>(n), final.data(), MPI_STATUSES_IGNORE);
}

void two_tree_bcast(const CollArgs& a, int tree_root, char* buf) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  if (p == 1 || a.count == 0) return;
  const TwoTree tt(p, tree_root);
  const Blocks bl{a, element_size(a.type)};
  const int64_t n = a.blocks;
  std::vector<MPI_Request> recv(static_cast<size_t>(n), MPI_REQUEST_NULL);
  for (int64_t j = 0; j < n; ++j) {
    const int64_t up = tt.parent(tree_of(j), rank);
    if (up >= 0)
      MPI_Irecv(buf + bl.span(j).begin, bl.count(j), a.type, static_cast<int>(up), static_cast<int>(j), a.comm,
                &recv[static_cast<size_t>(j)]);
  }
  MPI_Request pending[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  for (int64_t j = 0; j < n; ++j) {
    MPI_Wait(&recv[static_cast<size_t>(j)], MPI_STATUS_IGNORE);
    int64_t kids[2];
    const int nkids = tt.children(tree_of(j), rank, kids);
    for (int c = 0; c < nkids; ++c)
      send_one(pending[tree_of(j) - 1], buf + bl.span(j).begin, bl.count(j), a, static_cast<int>(kids[c]), j);
  }
  MPI_Waitall(2, pending, MPI_STATUSES_IGNORE);
}

double two_tree_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks, double gamma) {
  if (p == 1 || bytes == 0) return 0;
  const int64_t h = ceil_log2(p - 1 < 1 ? 1 : p - 1), b = (bytes + blocks - 1) / blocks;
  return static_cast<double>(blocks + 4 * (h > 0 ? h - 1 : 0)) * (net.message(b) + gamma * static_cast<double>(b));
}

}  // namespace collsim::sim
