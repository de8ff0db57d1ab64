// Two-tree plans: the messages of algorithms/bcast_two_tree.cpp,
// reduce_two_tree.cpp, allreduce_two_tree.cpp and two_tree_pipeline.cpp, the
// busy steps of two_tree_steps.hpp's per-rank step plans, one MPI_Sendrecv
// each (idle steps send nothing and are no step). B = n blocks.
// Streamed: a rank's state is its step plan (lags and edges), not its
// O(n) steps.
#include <memory>
#include <utility>

#include "two_tree_plans.hpp"
#include "two_tree_steps.hpp"

namespace collsim::plan {

// Per busy step: send block s − lag to the out-edge's peer, receive block
// s − lag from the in-edge's; a broadcast stores it, a reduction folds the
// child's partial in on its side: left from a lower rank (its inorder range
// precedes this rank's when the trees' root is 0 or p − 1), right from a
// higher one (two_tree_pipeline.cpp's combine).
void two_tree_step(const sim::StepPlan& plan, int64_t n, int64_t rank, bool reduces, int64_t i, Step& step) {
  const sim::StepEdge &to = plan.out[i & 1], &from = plan.in[i & 1];
  const int64_t sb = to.block(i, n), rb = from.block(i, n);
  if (sb >= 0) set_send(step, to.peer, block_run(sb, 1));
  const Combine combine = !reduces ? Combine::store : from.peer < rank ? Combine::left : Combine::right;
  if (rb >= 0) set_recv(step, from.peer, block_run(rb, 1), combine);
}

namespace {

// scan and exscan two-tree (algorithms/scan_two_tree.cpp; seed 002
// §2.3): the pipelined prefix on the two inorder trees of TwoTree(p + 1, p),
// whose root is the fictitious rank p, so that both trees are inorder trees
// on the ranks 0 .. p − 1. Block b goes through the tree its colour picks
// (two_tree_steps.hpp); per block, rank x with the ranks [lo, hi] below it:
//   up (the reduction schedule)      L from the left child: acc = L ⊕ acc
//                                    R from the right child: into aux
//                                    to the parent: acc ⊕ aux = L ⊕ V ⊕ R
//                                    (exscan, acc starting empty and taking
//                                    L: acc ⊕ input ⊕ aux)
//   down (the broadcast schedule)    P = [0, lo − 1] from the parent, into
//                                    aux, then joined: acc = P ⊕ acc; no
//                                    message where lo = 0
//                                    to the left child: aux (its lo is lo)
//                                    to the right child: acc = [0, x] (exscan:
//                                    acc ⊕ input)
// so acc ends with P ⊕ L ⊕ V = [0, x] (exscan P ⊕ L = [0, x − 1]). Every ⊕
// has the lower ranks on its left: any associative ⊕. Messages to and from
// rank p are left out. The paper's lock-step schedule of the two trees, one
// send and one receive a step; each join is a local step after the
// receive.
//   p = 3, n = 1, tree of block 0: 1 over 0 and 2 (lo: 0, 0, 2)
//     up:   0 → 1 (V0, left), 2 → 1 (V2, aux); 1 → 3 left out
//     down: 1 → 0 nothing (lo of 0 is 0); 1 → 2 [0, 1] (acc, or exscan acc ⊕ input)
class TwoTreeScan {
 public:
  // The trees are shared by all ranks' sources (a TwoTree is ~300 bytes).
  TwoTreeScan(std::shared_ptr<const TwoTree> tt, int64_t rank, int64_t n, bool exclusive)
      : tt_(std::move(tt)),
        up_(sim::two_tree_reduce_plan(*tt_, rank, n)),
        down_(sim::two_tree_bcast_plan(*tt_, rank, n)),
        turn_(up_.end(n)),
        n_(n),
        rank_(rank),
        exclusive_(exclusive) {
    for (int t = 1; t <= 2; ++t) lo_[t] = lowest_below(t);
  }
  // A message step and a join slot per schedule step.
  int64_t rounds() const { return 2 * (turn_ + down_.end(n_)); }

  void operator()(int64_t i, Step& s) const {
    const int64_t k = i / 2;
    if (k < turn_) {
      if (i % 2 == 0) up(k, s);
    } else if (i % 2 == 0) {
      down(k - turn_, s);
    } else if (const int64_t b = prefix_block(k - turn_); b >= 0) {
      s.fold_blocks = block_run(b, 1);
      s.join = true;
    }
  }

 private:
  // lo(x) in tree t: follow left children down.
  int64_t lowest_below(int t) const {
    int64_t lo = rank_, kids[2];
    for (int c = tt_->children(t, lo, kids); c > 0 && kids[0] < lo; c = tt_->children(t, lo, kids)) lo = kids[0];
    return lo;
  }
  // The tree in which `parent` is the parent of `child`.
  int tree_of(int64_t child, int64_t parent) const { return tt_->parent(1, child) == parent ? 1 : 2; }

  // The reduction schedule's block r runs on the tree of the broadcast's
  // block n − 1 − r (two_tree_steps.hpp: the broadcast reversed), so it
  // carries data block n − 1 − r, which the down phase then sends down the
  // same tree.
  void up(int64_t k, Step& s) const {
    const sim::StepEdge &to = up_.out[k & 1], &from = up_.in[k & 1];
    if (const int64_t r = to.block(k, n_); r >= 0 && to.peer != tt_->root())
      set_send(s, to.peer, block_run(n_ - 1 - r, 1), exclusive_ ? Value::acc_op_input_op_aux : Value::acc_op_aux);
    if (const int64_t r = from.block(k, n_); r >= 0)
      set_recv(s, from.peer, block_run(n_ - 1 - r, 1), from.peer < rank_ ? Combine::left : Combine::aux);
  }

  // The block whose prefix P arrives in down step d, or -1.
  int64_t prefix_block(int64_t d) const {
    const sim::StepEdge& from = down_.in[d & 1];
    const int64_t b = from.block(d, n_);
    return b >= 0 && from.peer != tt_->root() && lo_[tree_of(rank_, from.peer)] > 0 ? b : -1;
  }

  void down(int64_t d, Step& s) const {
    const sim::StepEdge& to = down_.out[d & 1];
    if (const int64_t b = prefix_block(d); b >= 0) set_recv(s, down_.in[d & 1].peer, block_run(b, 1), Combine::aux);
    const int64_t b = to.block(d, n_);
    if (b < 0) return;
    if (to.peer > rank_)
      set_send(s, to.peer, block_run(b, 1), exclusive_ ? Value::acc_op_input : Value::acc);
    else if (lo_[tree_of(to.peer, rank_)] > 0)
      set_send(s, to.peer, block_run(b, 1), Value::aux);
  }

  std::shared_ptr<const TwoTree> tt_;
  sim::StepPlan up_, down_;
  int64_t turn_, n_, rank_;
  int64_t lo_[3] = {0, 0, 0};  // lo(x) in trees 1 and 2
  bool exclusive_;
};

}  // namespace

Plan two_tree_scan(Collective c, int64_t p, int64_t blocks) {
  const Header h{c, p, 0, blocks, false};
  if (p == 1) return no_steps(h);
  const auto tt = std::make_shared<const TwoTree>(p + 1, p);
  return streamed(h, [=](int64_t rank) {
    const TwoTreeScan scan(tt, rank, blocks, c == Collective::exscan);
    return rounds(0, scan.rounds(), scan);
  });
}

}  // namespace collsim::plan
