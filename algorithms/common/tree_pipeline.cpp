#include "tree_pipeline.hpp"

#include "circulant.hpp"
#include "logp_tree.hpp"

namespace collsim::sim {

double tree_pipeline_model(const Net& net, int64_t bytes, int64_t blocks, int root_children, int64_t longest_path) {
  if (root_children == 0 || bytes == 0) return 0;
  const double t = net.message((bytes + blocks - 1) / blocks);
  return static_cast<double>(root_children * (blocks - 1) + longest_path) * t;
}

double logp_tree_pipeline_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks, bool combines) {
  if (bytes == 0 || p < 2) return 0;
  const int64_t block = net.block_bytes(bytes, blocks);
  return pipeline_degree(p, net.tree_lag(block, combines), blocks).time * net.tree_gap(block, combines);
}

}  // namespace collsim::sim
