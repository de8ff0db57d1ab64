// two-tree allreduce: two-tree reduce to p − 1 followed by the two-tree
// broadcast from p − 1 down the same trees (seed 002 §2.1 and §2.2: the
// paper gives the two halves; reduce + broadcast is the composition it
// implies, seed 004 §2.2's "classical" allreduce with two-tree halves).
//
// Associative ⊕ only, order kept: root p − 1 keeps the inorder ranges
// contiguous (two_tree_pipeline.hpp).
// Cost: reduce plus broadcast, each (n + 4(h − 1)) steps of α + β⌈m/n⌉, the
// reduce's with γ⌈m/n⌉ more: (n + 4(h−1))(2α + (2β + γ)⌈m/n⌉). The two
// phases run one after the other (a rank starts the broadcast when its part
// of the reduction is done); overlapping them is left out.
// Limits: any p, any count, n ≥ 1. Memory: as two-tree reduce.
#include <cstring>
#include <vector>

#include "collective.hpp"
#include "two_tree_pipeline.hpp"

namespace collsim::sim {

void allreduce_two_tree(const CollArgs& a) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  CollArgs to_last = a;
  to_last.root = p - 1;
  std::vector<char> own;
  char* acc = static_cast<char*>(a.buf);
  if (rank != p - 1) {
    own.resize(static_cast<size_t>(a.bytes));
    acc = own.data();
  }
  std::memcpy(acc, a.sendbuf, static_cast<size_t>(a.bytes));
  two_tree_reduce(to_last, p - 1, acc, static_cast<char*>(a.buf));
  two_tree_bcast(to_last, p - 1, static_cast<char*>(a.buf));
}

double model_allreduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return two_tree_model(net, p, bytes, blocks, net.gamma) + two_tree_model(net, p, bytes, blocks, 0);
}

}  // namespace collsim::sim
