// two-tree reduce: half the n blocks reduced up T1, half up T2, pipelined
// (seed 002 §2.2; the trees and the order argument in two_tree_pipeline.hpp).
//
// Associative ⊕ only, order kept (no kCommutative): with root 0 or p − 1 the
// trees run as they are. For a non-commutative ⊕ and another root the trees
// reduce to p − 1 and p − 1 forwards each finished block to the root, one
// more message per block in the pipeline: about one step (α + β⌈m/n⌉) more.
// A commutative ⊕ takes any root directly (Theorem 1's last sentence).
//
// Cost (seed 002, Theorem 1, p. 5 of the paper): 4(h − 1)α +
// 4√((h − 1)αβm/2) + βm at the best n, 2^h ≥ p − 1. That is the optimum
// over n of (n + 4(h − 1))(α + β m/n) up to the factor √2 under the root,
// which the printed formula has and this form does not (the minimum of
// (n + c)(α + βm/n) is cα + βm + 2√(cαβm)); we use the n-form, plus γ⌈m/n⌉
// per step: an interior rank combines two children's blocks every other
// step. Model: (n + 4(h − 1))(α + (β + γ)⌈m/n⌉).
// Limits: any p, any root, any count, n ≥ 1.
// Memory: one m-byte buffer per child (at most two) plus the accumulator.
#include <cstring>
#include <vector>

#include "collective.hpp"
#include "two_tree_pipeline.hpp"

namespace collsim::sim {

void reduce_two_tree(const CollArgs& a) {
  int rank = 0;
  MPI_Comm_rank(a.comm, &rank);
  const int tree_root = two_tree_root(a);
  // The accumulator is buf only where the result is wanted there: a
  // forwarding p − 1 has no buf (MPI_Reduce's recvbuf is only the root's).
  std::vector<char> own;
  char* acc = static_cast<char*>(a.buf);
  if (rank != tree_root || rank != a.root) {
    own.resize(static_cast<size_t>(a.bytes));
    acc = own.data();
  }
  std::memcpy(acc, a.sendbuf, static_cast<size_t>(a.bytes));
  two_tree_reduce(a, tree_root, acc, static_cast<char*>(a.buf));
}

double model_reduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return two_tree_model(net, p, bytes, blocks, net.gamma);
}

}  // namespace collsim::sim
