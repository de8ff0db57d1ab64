// Tree plans several algorithms share: the pipeline down a fixed tree
// (bcast linear-pipeline, binary-tree-pipeline, logp-tree-pipeline), the
// pipeline up one (reduce binary-tree-pipeline, logp-tree-pipeline) and the binomial broadcast
// (bcast binomial, allreduce binary-tree). A plan lists each rank's
// messages in the order its MPI calls complete: an MPI_Send or MPI_Recv is
// one step, an MPI_Sendrecv one step with both. The MPI code sends nothing
// for m = 0 bytes; a plan describes m > 0.
#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>

#include "binomial_tree.hpp"
#include "plan_families.hpp"
#include "two_tree_steps.hpp"

namespace collsim::plan {

// tree_pipeline_source (plan_families.hpp).
StepSource tree_pipeline_source(const Rooted& ranks, const TreeNode& node, int64_t n) {
  const int64_t kids = static_cast<int64_t>(node.children.size()), k = std::max<int64_t>(kids, 1);
  return rounds(0, 1 + n * k, [ranks, node, n, k, kids](int64_t i, Step& s) {
    const bool has_parent = node.parent >= 0;
    if (i == 0) {
      if (has_parent) s = recv_step(ranks.real(node.parent), {0});
      return;
    }
    const int64_t j = (i - 1) / k, c = (i - 1) % k;
    const bool next = has_parent && j + 1 < n && c == k - 1;
    if (kids > 0) s = send_step(ranks.real(node.children[static_cast<size_t>(c)]), {j});
    if (next) s = with_recv(std::move(s), ranks.real(node.parent), {j + 1});
  });
}

// tree_reduce_pipeline_source (plan_families.hpp).
StepSource tree_reduce_pipeline_source(int64_t rank, const TreeNode& node, int64_t n) {
  const int64_t k = static_cast<int64_t>(node.children.size());
  const bool up = node.parent >= 0;
  const int64_t end = k == 0 ? n : n * k + (up ? 1 : 0);
  return rounds(0, end, [rank, node, n, k, up](int64_t i, Step& s) {
    if (k == 0) return set_send(s, node.parent, {i});
    const int64_t j = i / k, c = i % k;
    if (up && c == 0 && j > 0) set_send(s, node.parent, {j - 1});
    if (j < n) {
      const int64_t child = node.children[static_cast<size_t>(c)];
      set_recv(s, child, {j}, child < rank ? Combine::left : Combine::right);
    }
  });
}

// binomial (bcast_binomial.cpp): receive the whole message from the parent
// v − lowbit(v), then send it to v + d, largest subtree first
// (binomial_tree.hpp's picture). Root: ⌈log2 p⌉ sends, ⌈log2 p⌉ rounds.
// Round 0 is the receive, round i >= 1 the send to v + span/2^i.
BinomialBcast::BinomialBcast(const Rooted& ranks_, int64_t blocks_, int64_t rank)
    : ranks(ranks_), blocks(blocks_), v(ranks_.virt(rank)) {}

int64_t BinomialBcast::rounds() const { return 1 + binomial_child_levels(v, ranks.p); }

void BinomialBcast::operator()(int64_t i, Step& s) const {
  if (i == 0) {
    if (v != 0) set_recv(s, ranks.real(binomial_parent(v)), all_blocks(blocks));
    return;
  }
  const int64_t d = binomial_child_span(v, ranks.p) >> i;
  if (v + d < ranks.p) set_send(s, ranks.real(v + d), all_blocks(blocks));
}

}  // namespace collsim::plan
