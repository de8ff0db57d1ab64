// Reduction and scan plans: the messages of sim/algorithms/binary_tree.cpp,
// recursive_doubling.cpp and scan_doubling.cpp, rank by rank. These send the
// whole vector in every message: all B blocks (B = 1 unless asked). A
// received vector is folded in keeping rank order (Combine left: it holds
// lower ranks; right: higher ones), as the MPI code does.
//
// Left out, because a plan cannot say what their MPI code does:
//   scan two-op-doubling, 1-doubling, 123-doubling: the exclusive plan and
//       then a local W ⊕ V with no message; a plan has no local steps, and
//       acc = W ⊕ V throughout fails where W alone is sent.
//   reduce/allreduce halving-doubling, binary-blocks, ring; the circulant
//       and two-tree reductions, scan/exscan two-tree: not written yet.
#include "binomial_tree.hpp"
#include "plan_families.hpp"
#include "scan_plans.hpp"

namespace collsim::plan {

namespace {

Header header(Collective c, int64_t p, int64_t root, int64_t blocks) { return {c, p, root, blocks, false}; }

// binary_tree.cpp's tree_reduce on ranks 0 .. p − 1 (top 0): in step
// d = 1, 2, 4, .. receive v + d's partial result and fold it in on the
// right, smallest subtree first; then send to the parent v − lowbit(v).
//   p = 4:   1 → 0,  3 → 2,  2 → 0      ⌈log2 p⌉ rounds
std::vector<Step> tree_reduce_steps(int64_t p, int64_t blocks, int64_t v) {
  std::vector<Step> steps;
  for (int64_t d = 1; d < binomial_child_span(v, p); d <<= 1)
    if (v + d < p) steps.push_back(recv_step(v + d, all_blocks(blocks), Combine::right));
  if (v != 0) steps.push_back(send_step(binomial_parent(v), all_blocks(blocks)));
  return steps;
}

// recursive_doubling.cpp with reduction_phases.hpp's Fold (§2.5), restated
// here because schedules/ cannot use sim/: p = p' + r, p' = 2^⌊log2 p⌋;
// pair (2i, 2i + 1), i < r, folds into its survivor (2i, or 2i + 1 where
// that is the reduce root); survivors take virtual ranks 0 .. p' − 1.
struct Fold {
  int64_t p, pow2, r, root;  // root −1: allreduce
  Fold(int64_t p_, int64_t root_) : p(p_), pow2(1), r(0), root(root_) {
    while (pow2 * 2 <= p) pow2 *= 2;
    r = p - pow2;
  }
  int64_t survivor(int64_t pair) const { return 2 * pair + (root == 2 * pair + 1 ? 1 : 0); }
  bool paired(int64_t rank) const { return rank < 2 * r; }
  bool survives(int64_t rank) const { return !paired(rank) || survivor(rank / 2) == rank; }
  int64_t virt(int64_t rank) const { return paired(rank) ? rank / 2 : rank - r; }
  int64_t real(int64_t v) const { return v < r ? survivor(v) : v + r; }
};

// The partner's vector folds in on the right if it comes from higher ranks.
Combine fold_side(int64_t partner, int64_t rank) { return partner > rank ? Combine::right : Combine::left; }

// Pre-step, then lg p' exchanges (MPI_Sendrecv) with v ^ d; allreduce
// (unfold) ends with the survivor sending the result back to its partner.
//   p = 6 (r = 2): 1 → 0, 3 → 2; exchanges among {0, 2, 4, 5} at
//   distance 1, 2; allreduce: 0 → 1, 2 → 3.
std::vector<Step> recursive_doubling_steps(const Fold& f, int64_t blocks, int64_t rank) {
  std::vector<Step> steps;
  const bool allreduce = f.root < 0;
  const int64_t partner = rank ^ 1;
  if (f.paired(rank) && !f.survives(rank)) {
    steps.push_back(send_step(partner, all_blocks(blocks)));
    if (allreduce) steps.push_back(recv_step(partner, all_blocks(blocks)));
    return steps;
  }
  if (f.paired(rank)) steps.push_back(recv_step(partner, all_blocks(blocks), fold_side(partner, rank)));
  const int64_t v = f.virt(rank);
  for (int64_t d = 1; d < f.pow2; d <<= 1) {
    const int64_t peer = f.real(v ^ d);
    steps.push_back(with_recv(send_step(peer, all_blocks(blocks)), peer, all_blocks(blocks), fold_side(peer, rank)));
  }
  if (allreduce && f.paired(rank)) steps.push_back(send_step(partner, all_blocks(blocks)));
  return steps;
}

Value value_of(ScanValue v) {
  switch (v) {
    case ScanValue::V: return Value::input;
    case ScanValue::W: return Value::acc;
    case ScanValue::W_op_V: return Value::acc_op_input;
  }
  return Value::acc;
}

Combine combine_of(ScanCombine c) {
  switch (c) {
    case ScanCombine::left: return Combine::left;
    case ScanCombine::right: return Combine::right;
    default: return Combine::store;
  }
}

// scan_doubling.cpp's run_plan: one MPI_Sendrecv per round of the
// scan_plans.hpp plan, W being acc (an exclusive plan for exscan, whose acc
// starts empty; hillis-steele for scan, whose acc starts as the input) and
// V the input. Idle rounds are no step. O(log p) per rank.
Plan doubling_scan(Collective c, const char* name, int64_t p, int64_t blocks) {
  const ScanAlgorithm& a = *find_scan_algorithm(name);
  return {header(c, p, 0, blocks), [=, &a](int64_t rank) {
            std::vector<Step> steps;
            const int rounds = scan_rounds(a, p);
            for (int k = 0; k < rounds; ++k) {
              const ScanRound rd = scan_round(a, p, rank, k);
              Step step;
              if (rd.send_to >= 0) step = send_step(rd.send_to, all_blocks(blocks), value_of(rd.send));
              if (rd.recv_from >= 0)
                step = with_recv(std::move(step), rd.recv_from, all_blocks(blocks), combine_of(rd.combine));
              if (step.send_to >= 0 || step.recv_from >= 0) steps.push_back(std::move(step));
            }
            return steps;
          }};
}

}  // namespace

// reduce binary-tree: the tree reduces to rank 0, which sends the result to
// another root. This is what the MPI code runs for a non-commutative ⊕ (and
// for any ⊕ at root 0); for a commutative ⊕ at another root it runs the tree
// on ranks rotated to the root instead, one message fewer. The plan is the
// order-keeping variant, right for every ⊕.
Plan reduce_binary_tree(int64_t p, int64_t root, int64_t blocks) {
  return {header(Collective::reduce, p, root, blocks), [=](int64_t rank) {
            std::vector<Step> steps = tree_reduce_steps(p, blocks, rank);
            if (root != 0 && rank == 0) steps.push_back(send_step(root, all_blocks(blocks)));
            if (root != 0 && rank == root) steps.push_back(recv_step(0, all_blocks(blocks)));
            return steps;
          }};
}

// allreduce binary-tree: the tree reduction to 0, then the binomial
// broadcast from 0: 2⌈log2 p⌉ rounds.
Plan allreduce_binary_tree(int64_t p, int64_t, int64_t blocks) {
  return {header(Collective::allreduce, p, 0, blocks), [=](int64_t rank) {
            std::vector<Step> steps = tree_reduce_steps(p, blocks, rank);
            for (Step& s : binomial_bcast_steps({p, 0}, blocks, rank)) steps.push_back(std::move(s));
            return steps;
          }};
}

Plan reduce_recursive_doubling(int64_t p, int64_t root, int64_t blocks) {
  const Fold f(p, root);
  return {header(Collective::reduce, p, root, blocks),
          [=](int64_t rank) { return recursive_doubling_steps(f, blocks, rank); }};
}

Plan allreduce_recursive_doubling(int64_t p, int64_t, int64_t blocks) {
  const Fold f(p, -1);
  return {header(Collective::allreduce, p, 0, blocks),
          [=](int64_t rank) { return recursive_doubling_steps(f, blocks, rank); }};
}

Plan scan_hillis_steele(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::scan, "hillis-steele", p, blocks);
}
Plan exscan_two_op_doubling(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::exscan, "two-op-doubling", p, blocks);
}
Plan exscan_1_doubling(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::exscan, "1-doubling", p, blocks);
}
Plan exscan_123_doubling(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::exscan, "123-doubling", p, blocks);
}

}  // namespace collsim::plan
