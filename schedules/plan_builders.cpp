#include "plan_builders.hpp"

#include <stdexcept>

#include "plan_families.hpp"

namespace collsim::plan {

namespace {

constexpr PlanAlgorithm kPlanAlgorithms[] = {
    {Collective::bcast, "circulant", Cut::pipelined, MessageShape::tree, bcast_circulant},
    {Collective::bcast, "binomial", Cut::whole, MessageShape::tree, bcast_binomial},
    {Collective::bcast, "linear-pipeline", Cut::pipelined, MessageShape::tree, bcast_linear_pipeline},
    {Collective::bcast, "binary-tree-pipeline", Cut::pipelined, MessageShape::tree, bcast_binary_tree_pipeline},
    {Collective::bcast, "two-tree", Cut::pipelined, MessageShape::tree, bcast_two_tree},
    {Collective::bcast, "scatter-allgather", Cut::per_rank, MessageShape::ring, bcast_scatter_allgather},
    {Collective::reduce, "binary-tree", Cut::whole, MessageShape::tree, reduce_binary_tree},
    {Collective::reduce, "linear-pipeline", Cut::pipelined, MessageShape::tree, reduce_linear_pipeline},
    {Collective::reduce, "binary-tree-pipeline", Cut::pipelined, MessageShape::tree, reduce_binary_tree_pipeline},
    {Collective::allreduce, "binary-tree", Cut::whole, MessageShape::tree_twice, allreduce_binary_tree},
    {Collective::reduce, "recursive-doubling", Cut::whole, MessageShape::doubling, reduce_recursive_doubling},
    {Collective::allreduce, "recursive-doubling", Cut::whole, MessageShape::doubling, allreduce_recursive_doubling},
    {Collective::reduce, "ring", Cut::per_rank, MessageShape::ring, reduce_ring},
    {Collective::allreduce, "ring", Cut::per_rank, MessageShape::ring_twice, allreduce_ring},
    {Collective::reduce, "halving-doubling", Cut::pow2, MessageShape::doubling, reduce_halving_doubling},
    {Collective::allreduce, "halving-doubling", Cut::pow2, MessageShape::doubling_twice, allreduce_halving_doubling},
    {Collective::reduce, "binary-blocks", Cut::pow2, MessageShape::doubling, reduce_binary_blocks},
    {Collective::allreduce, "binary-blocks", Cut::pow2, MessageShape::doubling_twice, allreduce_binary_blocks},
    {Collective::reduce, "circulant", Cut::pipelined, MessageShape::tree, reduce_circulant},
    {Collective::allreduce, "circulant", Cut::pipelined, MessageShape::all_to_all_twice, allreduce_circulant},
    {Collective::reduce_scatter, "circulant", Cut::pipelined, MessageShape::all_to_all, reduce_scatter_circulant},
    {Collective::allgatherv, "circulant", Cut::pipelined, MessageShape::all_to_all, allgatherv_circulant},
    {Collective::reduce, "two-tree", Cut::pipelined, MessageShape::tree, reduce_two_tree},
    {Collective::allreduce, "two-tree", Cut::pipelined, MessageShape::tree_twice, allreduce_two_tree},
    {Collective::scan, "hillis-steele", Cut::whole, MessageShape::scan_doubling, scan_hillis_steele},
    {Collective::scan, "two-op-doubling", Cut::whole, MessageShape::scan_doubling, scan_two_op_doubling},
    {Collective::scan, "1-doubling", Cut::whole, MessageShape::scan_doubling, scan_1_doubling},
    {Collective::scan, "123-doubling", Cut::whole, MessageShape::scan_doubling, scan_123_doubling},
    {Collective::exscan, "two-op-doubling", Cut::whole, MessageShape::scan_doubling, exscan_two_op_doubling},
    {Collective::exscan, "1-doubling", Cut::whole, MessageShape::scan_doubling, exscan_1_doubling},
    {Collective::exscan, "123-doubling", Cut::whole, MessageShape::scan_doubling, exscan_123_doubling},
    {Collective::scan, "two-tree", Cut::pipelined, MessageShape::tree_twice, scan_two_tree},
    {Collective::exscan, "two-tree", Cut::pipelined, MessageShape::tree_twice, exscan_two_tree},
    {Collective::bcast, "node-aware", Cut::pipelined, MessageShape::tree, nullptr, bcast_node_aware},
    {Collective::reduce, "node-aware", Cut::pipelined, MessageShape::tree, nullptr, reduce_node_aware},
    {Collective::allreduce, "node-aware", Cut::pipelined, MessageShape::tree_twice, nullptr, allreduce_node_aware},
    {Collective::allreduce, "multi-lane", Cut::pipelined, MessageShape::lanes_allreduce, nullptr, allreduce_multi_lane},
    {Collective::allgatherv, "multi-lane", Cut::pipelined, MessageShape::lanes_allgatherv, nullptr, allgatherv_multi_lane},
};

void check_arguments(Collective c, Cut cut, int64_t p, int64_t root, int64_t blocks) {
  if (p < 1 || p > kMaxProcs) throw std::invalid_argument("p = " + std::to_string(p) + " is out of range [1, 2^31 - 1]");
  if (root < 0 || root >= p)
    throw std::invalid_argument("root " + std::to_string(root) + " is not a rank of p = " + std::to_string(p));
  if (!rooted(c) && root != 0)
    throw std::invalid_argument(std::string(collective_name(c)) + " has no root: root must be 0");
  if (blocks < 1) throw std::invalid_argument("blocks must be at least 1");
  if ((cut == Cut::per_rank || cut == Cut::pow2) && blocks != cut_blocks(cut, p))
    throw std::invalid_argument("this algorithm cuts the data into its own " + std::to_string(cut_blocks(cut, p)) +
                                " blocks at p = " + std::to_string(p) + ", not " + std::to_string(blocks));
}

}  // namespace

int64_t cut_blocks(Cut cut, int64_t p) {
  switch (cut) {
    case Cut::whole: return 1;
    case Cut::per_rank: return p;
    case Cut::pow2: {
      int64_t pow2 = 1;
      while (pow2 * 2 <= p) pow2 *= 2;
      return pow2;
    }
    case Cut::pipelined: break;
  }
  return 0;
}

std::vector<std::string> plan_algorithms(Collective c) {
  std::vector<std::string> names;
  for (const PlanAlgorithm& a : kPlanAlgorithms)
    if (a.collective == c) names.emplace_back(a.name);
  return names;
}

bool has_plan(Collective c, const std::string& algorithm) {
  for (const PlanAlgorithm& a : kPlanAlgorithms)
    if (a.collective == c && algorithm == a.name) return true;
  return false;
}

const PlanAlgorithm& find_plan_algorithm(Collective c, const std::string& algorithm) {
  for (const PlanAlgorithm& a : kPlanAlgorithms)
    if (a.collective == c && algorithm == a.name) return a;
  std::string known;
  for (const std::string& name : plan_algorithms(c)) known += (known.empty() ? "" : ", ") + name;
  throw std::invalid_argument("no plan for " + std::string(collective_name(c)) + " algorithm '" + algorithm +
                              "'; known: " + (known.empty() ? "none" : known));
}

Plan build_plan(Collective c, const std::string& algorithm, int64_t p, int64_t root, int64_t blocks,
                int64_t node_size) {
  const PlanAlgorithm& a = find_plan_algorithm(c, algorithm);
  check_arguments(c, a.cut, p, root, blocks);
  if (node_size < 1) throw std::invalid_argument("node size must be at least 1");
  return a.build_on_nodes ? a.build_on_nodes(p, root, blocks, node_size) : a.build(p, root, blocks);
}

}  // namespace collsim::plan
