// The table. One row per algorithm; its functions live in algorithms/<file>.
#include "registry.hpp"

#include <stdexcept>

namespace collsim::sim {

// --- bcast (algorithms/bcast_*.cpp) ---
void bcast_circulant(const CollArgs&);
double model_bcast_circulant(const Net&, int64_t, int64_t, int64_t);
void bcast_binomial(const CollArgs&);
double model_bcast_binomial(const Net&, int64_t, int64_t, int64_t);
void bcast_linear_pipeline(const CollArgs&);
double model_bcast_linear_pipeline(const Net&, int64_t, int64_t, int64_t);
void bcast_binary_tree_pipeline(const CollArgs&);
double model_bcast_binary_tree_pipeline(const Net&, int64_t, int64_t, int64_t);
void bcast_two_tree(const CollArgs&);
double model_bcast_two_tree(const Net&, int64_t, int64_t, int64_t);
void bcast_scatter_allgather(const CollArgs&);
double model_bcast_scatter_allgather(const Net&, int64_t, int64_t, int64_t);
void bcast_smpi(const CollArgs&);

namespace {

constexpr Collective B = Collective::bcast;

// SimGrid 3.32's bcast algorithms (src/smpi/colls/smpi_coll.cpp), all but
// "automatic", which times every algorithm and is no algorithm itself.
#define SMPI_BCAST(name, what) {"smpi:" name, B, bcast_smpi, kSmpiBuiltin, nullptr, "SimGrid built-in: " what}

const std::vector<Algorithm> kAlgorithms = {
    {"circulant", B, bcast_circulant, kBlocks, model_bcast_circulant,
     "round-optimal n-block circulant schedule (Traeff 2024, Alg. 1): (n-1+q)(a+b*m/n)"},
    {"binomial", B, bcast_binomial, kNone, model_bcast_binomial, "binomial tree, whole message: q(a+b*m)"},
    {"linear-pipeline", B, bcast_linear_pipeline, kBlocks, model_bcast_linear_pipeline,
     "n blocks along a chain: (p-2+n)(a+b*m/n)"},
    {"binary-tree-pipeline", B, bcast_binary_tree_pipeline, kBlocks, model_bcast_binary_tree_pipeline,
     "n blocks down a heap-ordered binary tree: ~2(n-1+log2 p)(a+b*m/n)"},
    {"two-tree", B, bcast_two_tree, kBlocks, model_bcast_two_tree,
     "alternate blocks down two coloured binary trees (Sanders, Speck, Traeff): <=(n+2q-2)(a+b*m/n)"},
    {"scatter-allgather", B, bcast_scatter_allgather, kNone, model_bcast_scatter_allgather,
     "binomial scatter + ring allgather (van de Geijn): ~(q+p-1)a+2bm"},
    SMPI_BCAST("default", "SMPI's default bcast"),
    SMPI_BCAST("arrival_pattern_aware", "arrival-pattern-aware pipeline"),
    SMPI_BCAST("arrival_pattern_aware_wait", "arrival-pattern-aware pipeline, waiting variant"),
    SMPI_BCAST("arrival_scatter", "arrival-pattern-aware scatter-allgather"),
    SMPI_BCAST("binomial_tree", "binomial tree"),
    SMPI_BCAST("flattree", "root sends to everyone"),
    SMPI_BCAST("flattree_pipeline", "pipelined flat tree"),
    SMPI_BCAST("NTSB", "non-topology-specific pipelined binary tree"),
    SMPI_BCAST("NTSL", "non-topology-specific pipelined linear"),
    SMPI_BCAST("NTSL_Isend", "non-topology-specific pipelined linear with Isend"),
    SMPI_BCAST("scatter_LR_allgather", "scatter + logical-ring allgather"),
    SMPI_BCAST("scatter_rdb_allgather", "scatter + recursive-doubling allgather"),
    SMPI_BCAST("SMP_binary", "SMP-aware binary tree"),
    SMPI_BCAST("SMP_binomial", "SMP-aware binomial tree"),
    SMPI_BCAST("SMP_linear", "SMP-aware linear (fails in SimGrid 3.32 at p = 8: deadlock)"),
    SMPI_BCAST("ompi", "Open MPI's decision function"),
    SMPI_BCAST("ompi_split_bintree", "Open MPI's split binary tree (fails in SimGrid 3.32 at p = 8: deadlock)"),
    SMPI_BCAST("ompi_pipeline", "Open MPI's pipeline"),
    SMPI_BCAST("mpich", "MPICH's decision function"),
    SMPI_BCAST("mvapich2", "MVAPICH2's decision function"),
    SMPI_BCAST("mvapich2_inter_node", "MVAPICH2 inter-node"),
    SMPI_BCAST("mvapich2_intra_node", "MVAPICH2 intra-node"),
    SMPI_BCAST("mvapich2_knomial_intra_node", "MVAPICH2 k-nomial intra-node"),
    SMPI_BCAST("impi", "Intel MPI's decision function"),
};

#undef SMPI_BCAST

}  // namespace

const char* collective_name(Collective c) {
  switch (c) {
    case Collective::bcast:
      return "bcast";
  }
  return "?";
}

Collective parse_collective(const std::string& name) {
  std::string known;
  for (Collective c : {Collective::bcast}) {
    if (name == collective_name(c)) return c;
    known += (known.empty() ? "" : ", ") + std::string(collective_name(c));
  }
  throw std::invalid_argument("unknown collective '" + name + "'; known: " + known);
}

std::string Algorithm::builtin_name() const {
  const std::string n = name;
  return has(kSmpiBuiltin) ? n.substr(n.find(':') + 1) : n;
}

const std::vector<Algorithm>& algorithms() { return kAlgorithms; }

std::vector<const Algorithm*> algorithms_of(Collective c) {
  std::vector<const Algorithm*> list;
  for (const auto& a : kAlgorithms)
    if (a.collective == c) list.push_back(&a);
  return list;
}

std::string known_names(Collective c) {
  std::string names;
  for (const Algorithm* a : algorithms_of(c)) names += (names.empty() ? "" : ", ") + std::string(a->name);
  return names;
}

const Algorithm& find_algorithm(Collective c, const std::string& name) {
  for (const Algorithm* a : algorithms_of(c))
    if (name == a->name) return *a;
  throw std::invalid_argument("unknown " + std::string(collective_name(c)) + " algorithm '" + name +
                              "'; known: " + known_names(c));
}

}  // namespace collsim::sim
