#include "two_tree_pipeline.hpp"

#include <algorithm>
#include <vector>

#include "two_tree.hpp"
#include "two_tree_steps.hpp"
#ifdef COLLSIM_RANK
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
namespace {

int element_size(MPI_Datatype type) {
  int size = 0;
  MPI_Type_size(type, &size);
  return size;
}

// Block j's byte range and element count (blocks cut on element boundaries).
struct Blocks {
  const CollArgs& a;
  int esize;
  Span span(int64_t j) const {
    const Span s = block_span(a.count, a.blocks, j);
    return {s.begin * esize, s.end * esize};
  }
  int count(int64_t j) const { return span(j).count() / esize; }
};

// mine = theirs ⊕ mine if the child is the lower rank (its range precedes
// this rank's), else mine = mine ⊕ theirs; `theirs` is clobbered.
void combine(const CollArgs& a, int count, int rank, int64_t child, char* theirs, char* mine) {
  if (count == 0) return;
  if (child < rank) {
    MPI_Reduce_local(theirs, mine, count, a.type, a.op);
  } else {
    MPI_Reduce_local(mine, theirs, count, a.type, a.op);
    copy_real(mine, theirs, int64_t{count} * element_size(a.type));
  }
}

// Non-commutative ⊕ with a root other than 0 and p − 1: the trees' root
// p − 1 sends each finished block to the real root outside the step
// schedule (tag 1), so the real root's receives do not collide with the
// steps in which it receives from its children; its link is shared then.
struct Forward {
  std::vector<MPI_Request> req;
  void post_receives(const CollArgs& a, const Blocks& bl, int tree_root, char* out) {
    req.assign(static_cast<size_t>(a.blocks), MPI_REQUEST_NULL);
    for (int64_t j = 0; j < a.blocks; ++j)
      MPI_Irecv(out + bl.span(j).begin, bl.count(j), a.type, tree_root, 1, a.comm, &req[static_cast<size_t>(j)]);
  }
  void send(const CollArgs& a, const Blocks& bl, int64_t j, const char* acc) {
    if (req.empty()) req.assign(static_cast<size_t>(a.blocks), MPI_REQUEST_NULL);
    MPI_Isend(acc + bl.span(j).begin, bl.count(j), a.type, a.root, 1, a.comm, &req[static_cast<size_t>(j)]);
  }
  void finish() { MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE); }
};

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
  const int64_t n = a.blocks;
  const TwoTree tt(p, tree_root);
  const Blocks bl{a, element_size(a.type)};
  Scratch scratch(a, Scratch::Kind::block, bl.span(0).count());
  const bool forward = rank == tree_root && a.root != tree_root;
  Forward fwd;
  if (rank == a.root && a.root != tree_root) fwd.post_receives(a, bl, tree_root, out);
  for_each_busy_step(two_tree_reduce_plan(tt, rank, n), n, [&](const Step& st) {
    const int64_t sb = st.send_block, rb = st.recv_block;
    char* theirs = scratch.at(bl.span(std::max<int64_t>(rb, 0)).begin);
    MPI_Sendrecv(acc + bl.span(std::max<int64_t>(sb, 0)).begin, sb < 0 ? 0 : bl.count(sb), a.type,
                 sb < 0 ? MPI_PROC_NULL : static_cast<int>(st.to.peer), 0, theirs, rb < 0 ? 0 : bl.count(rb),
                 a.type, rb < 0 ? MPI_PROC_NULL : static_cast<int>(st.from.peer), 0, a.comm, MPI_STATUS_IGNORE);
    if (rb < 0) return;
    combine(a, bl.count(rb), rank, st.from.peer, theirs, acc + bl.span(rb).begin);
    // The trees' root gets each block once, from one tree root: it is done.
    if (forward) fwd.send(a, bl, rb, acc);
  });
  fwd.finish();
}
#endif  // COLLSIM_RANK

}  // namespace collsim::sim

namespace collsim::sim {

double two_tree_reduce_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p < 2 || bytes == 0) return 0;
  const int64_t b = (bytes + blocks - 1) / blocks;
  return static_cast<double>(two_tree_step_count(p, blocks)) * (net.message(b) + net.gamma * static_cast<double>(b));
}

}  // namespace collsim::sim
