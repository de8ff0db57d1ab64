#include "plan_builders.hpp"

#include <algorithm>
#include <stdexcept>

#include "algorithm.hpp"
#include "circulant.hpp"  // kMaxProcs

namespace collsim::plan {

namespace {

// The rows that have a builder (an MPI-code algorithm may have none).
std::vector<PlanAlgorithm> with_builders(std::vector<PlanAlgorithm> rows) {
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [](const PlanAlgorithm& a) { return !a.build && !a.build_on_nodes && !a.build_with_lag; }),
             rows.end());
  return rows;
}

// The plan table, from the one list: each row's builder from its file's
// AlgorithmDef (algorithm.hpp). Built on first use, after the AlgorithmDefs'
// constant initialization.
const std::vector<PlanAlgorithm>& plan_table() {
  static const std::vector<PlanAlgorithm> table = with_builders({
#define COLLSIM_OURS(coll, name, id, cut, shape) \
  {Collective::coll, name, Cut::cut, MessageShape::shape, sim::def_##id.build, sim::def_##id.build_on_nodes, \
   sim::def_##id.build_with_lag},
#define COLLSIM_PLAN COLLSIM_OURS
#define COLLSIM_BUILTIN(coll, name, limits, what)
#include "algorithms.def"
#undef COLLSIM_OURS
#undef COLLSIM_PLAN
#undef COLLSIM_BUILTIN
  });
  return table;
}

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
  for (const PlanAlgorithm& a : plan_table())
    if (a.collective == c) names.emplace_back(a.name);
  return names;
}

bool has_plan(Collective c, const std::string& algorithm) {
  for (const PlanAlgorithm& a : plan_table())
    if (a.collective == c && algorithm == a.name) return true;
  return false;
}

const PlanAlgorithm& find_plan_algorithm(Collective c, const std::string& algorithm) {
  for (const PlanAlgorithm& a : plan_table())
    if (a.collective == c && algorithm == a.name) return a;
  std::string known;
  for (const std::string& name : plan_algorithms(c)) known += (known.empty() ? "" : ", ") + name;
  throw std::invalid_argument("no plan for " + std::string(collective_name(c)) + " algorithm '" + algorithm +
                              "'; known: " + (known.empty() ? "none" : known));
}

Plan build_plan(Collective c, const std::string& algorithm, int64_t p, int64_t root, int64_t blocks,
                const PlanParams& params) {
  const PlanAlgorithm& a = find_plan_algorithm(c, algorithm);
  check_arguments(c, a.cut, p, root, blocks);
  if (params.node_size < 1) throw std::invalid_argument("node size must be at least 1");
  if (a.build_on_nodes) return a.build_on_nodes(p, root, blocks, params.node_size);
  if (a.build_with_lag) return a.build_with_lag(p, root, blocks, params.lag);
  return a.build(p, root, blocks);
}

}  // namespace collsim::plan
