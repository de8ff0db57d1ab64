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

// --- reduction family: circulant and two-tree (algorithms/*_circulant.cpp, *_two_tree.cpp) ---
void reduce_circulant(const CollArgs&);
double model_reduce_circulant(const Net&, int64_t, int64_t, int64_t);
void allreduce_circulant(const CollArgs&);
double model_allreduce_circulant(const Net&, int64_t, int64_t, int64_t);
void reduce_scatter_circulant(const CollArgs&);
double model_reduce_scatter_circulant(const Net&, int64_t, int64_t, int64_t);
void allgatherv_circulant(const CollArgs&);
double model_allgatherv_circulant(const Net&, int64_t, int64_t, int64_t);
void reduce_two_tree(const CollArgs&);
double model_reduce_two_tree(const Net&, int64_t, int64_t, int64_t);
void allreduce_two_tree(const CollArgs&);
double model_allreduce_two_tree(const Net&, int64_t, int64_t, int64_t);

// --- reduce and allreduce, Rabenseifner's five (seed 004; algorithms/
// binary_tree.cpp, recursive_doubling.cpp, halving_doubling.cpp,
// binary_blocks.cpp, ring.cpp on reduction_phases.cpp) ---
#define COLLSIM_RAB(fn)                 \
  void reduce_##fn(const CollArgs&);    \
  void allreduce_##fn(const CollArgs&); \
  double model_reduce_##fn(const Net&, int64_t, int64_t, int64_t); \
  double model_allreduce_##fn(const Net&, int64_t, int64_t, int64_t);
COLLSIM_RAB(binary_tree)
COLLSIM_RAB(recursive_doubling)
COLLSIM_RAB(halving_doubling)
COLLSIM_RAB(binary_blocks)
COLLSIM_RAB(ring)
#undef COLLSIM_RAB

// --- scan, exscan (algorithms/scan_*.cpp) ---
void exscan_two_op_doubling(const CollArgs&);
double model_exscan_two_op_doubling(const Net&, int64_t, int64_t, int64_t);
void exscan_1_doubling(const CollArgs&);
double model_exscan_1_doubling(const Net&, int64_t, int64_t, int64_t);
void exscan_123_doubling(const CollArgs&);
double model_exscan_123_doubling(const Net&, int64_t, int64_t, int64_t);
void scan_hillis_steele(const CollArgs&);
double model_scan_hillis_steele(const Net&, int64_t, int64_t, int64_t);
void scan_two_op_doubling(const CollArgs&);
double model_scan_two_op_doubling(const Net&, int64_t, int64_t, int64_t);
void scan_1_doubling(const CollArgs&);
double model_scan_1_doubling(const Net&, int64_t, int64_t, int64_t);
void scan_123_doubling(const CollArgs&);
double model_scan_123_doubling(const Net&, int64_t, int64_t, int64_t);
void scan_two_tree(const CollArgs&);
void exscan_two_tree(const CollArgs&);
double model_scan_two_tree(const Net&, int64_t, int64_t, int64_t);

// --- SimGrid's own MPI calls (algorithms/smpi_builtin.cpp) ---
void bcast_smpi(const CollArgs&);
void reduce_smpi(const CollArgs&);
void allreduce_smpi(const CollArgs&);
void reduce_scatter_smpi(const CollArgs&);
void allgatherv_smpi(const CollArgs&);
void scan_smpi(const CollArgs&);
void exscan_smpi(const CollArgs&);

namespace {

constexpr Collective B = Collective::bcast;

// SimGrid 3.32's bcast algorithms (src/smpi/colls/smpi_coll.cpp), all but
// "automatic", which times every algorithm and is no algorithm itself.
#define SMPI_BCAST(name, what) {"smpi:" name, B, bcast_smpi, kSmpiBuiltin, nullptr, "SimGrid built-in: " what}
#define SMPI_COLL(coll, name, limits, what) \
  {"smpi:" name, Collective::coll, coll##_smpi, kSmpiBuiltin | (limits), nullptr, "SimGrid built-in: " what}

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
    // Rabenseifner (seed 004): none needs a commutative operator.
#define RAB(name, fn, what)                                                                           \
  {name, Collective::reduce, reduce_##fn, kNone, model_reduce_##fn, what},                            \
  {name, Collective::allreduce, allreduce_##fn, kNone, model_allreduce_##fn, what}
    RAB("binary-tree", binary_tree, "binomial reduction tree (+ binomial bcast): ~lg p (a + b*m + g*m), allreduce 2x"),
    RAB("recursive-doubling", recursive_doubling,
        "whole-vector exchanges at distance 1, 2, 4, ..: ~lg p (a + b*m + g*m)"),
    RAB("halving-doubling", halving_doubling,
        "recursive halving reduce-scatter + doubling allgather/gather: ~2 lg p a + 2bm + gm"),
    RAB("binary-blocks", binary_blocks,
        "halving reduce-scatter in power-of-two blocks, handed up to the largest: 2 lg p a + 2bm + gm at powers of two"),
    RAB("ring", ring, "pairwise reduce-scatter + ring allgather / direct gather: ~2(p-1)a + 2bm + gm"),
#undef RAB
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
    // Reduction family: circulant (seed 003) and two-tree (seed 002).
    {"circulant", Collective::reduce, reduce_circulant, kBlocks | kCommutative, model_reduce_circulant,
     "reversed n-block circulant broadcast (Traeff 2024, Obs. 1.3), commutative: (n-1+q)(a+(b+g)m/n)"},
    {"circulant", Collective::allreduce, allreduce_circulant, kBlocks | kCommutative, model_allreduce_circulant,
     "circulant reduce_scatter + circulant allgather (Obs. 1.4 + 1.2), commutative: ~2(n-1+q)a+2bm+gm"},
    {"circulant", Collective::reduce_scatter, reduce_scatter_circulant, kBlocks | kCommutative,
     model_reduce_scatter_circulant, "p reversed circulant broadcasts at once (Obs. 1.4), commutative: ~(n-1+q)a+(b+g)m"},
    {"circulant", Collective::allgatherv, allgatherv_circulant, kBlocks, model_allgatherv_circulant,
     "p circulant broadcasts at once (Alg. 7), any counts: ~(n-1+q)a+bm"},
    {"two-tree", Collective::reduce, reduce_two_tree, kBlocks, model_reduce_two_tree,
     "two-tree bcast schedule reversed (Sanders et al. 2.2), order kept: S(a+(b+g)m/n), S<=n+2q-2"},
    {"two-tree", Collective::allreduce, allreduce_two_tree, kBlocks, model_allreduce_two_tree,
     "two-tree reduce to p-1 + two-tree bcast, order kept: S(2a+(2b+g)m/n), S<=n+2q-2"},
    // The other collectives' built-ins. Flags and notes as measured with
    // --op matmul and bxor at p = 6 and 8, sizes 96 B and 4 KiB, ramp layout.
    SMPI_COLL(reduce, "default", kNone, "default"),
    SMPI_COLL(reduce, "arrival_pattern_aware", kNone, "arrival_pattern_aware; crashes in SimGrid 3.32 (p = 6, 8)"),
    SMPI_COLL(reduce, "binomial", kNone, "binomial"),
    SMPI_COLL(reduce, "flat_tree", kNone, "flat_tree"),
    SMPI_COLL(reduce, "NTSL", kNone, "NTSL; crashes in SimGrid 3.32 (p = 6, 8)"),
    SMPI_COLL(reduce, "scatter_gather", kCommutative, "scatter_gather; wrong for non-commutative operators"),
    SMPI_COLL(reduce, "ompi", kNone, "ompi"),
    SMPI_COLL(reduce, "ompi_chain", kCommutative, "ompi_chain; wrong for non-commutative operators"),
    SMPI_COLL(reduce, "ompi_pipeline", kCommutative, "ompi_pipeline; wrong for non-commutative operators"),
    SMPI_COLL(reduce, "ompi_basic_linear", kNone, "ompi_basic_linear"),
    SMPI_COLL(reduce, "ompi_in_order_binary", kNone, "ompi_in_order_binary"),
    SMPI_COLL(reduce, "ompi_binary", kCommutative, "ompi_binary; wrong for non-commutative operators"),
    SMPI_COLL(reduce, "ompi_binomial", kCommutative, "ompi_binomial; wrong for non-commutative operators"),
    SMPI_COLL(reduce, "mpich", kNone, "mpich"),
    SMPI_COLL(reduce, "mvapich2", kNone, "mvapich2"),
    SMPI_COLL(reduce, "mvapich2_knomial", kCommutative, "mvapich2_knomial; wrong for non-commutative operators"),
    SMPI_COLL(reduce, "mvapich2_two_level", kNone, "mvapich2_two_level"),
    SMPI_COLL(reduce, "impi", kNone, "impi"),
    SMPI_COLL(reduce, "rab", kNone, "rab; wrong results in SimGrid 3.32 even with bxor (p = 6, 8)"),
    SMPI_COLL(allreduce, "default", kNone, "default"),
    SMPI_COLL(allreduce, "lr", kCommutative, "lr; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "rab1", kCommutative, "rab1; wrong for non-commutative operators; crashes in SimGrid 3.32 at p = 6"),
    SMPI_COLL(allreduce, "rab2", kCommutative, "rab2; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "rab_rdb", kCommutative, "rab_rdb; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "rdb", kNone, "rdb"),
    SMPI_COLL(allreduce, "smp_binomial", kCommutative, "smp_binomial; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "smp_binomial_pipeline", kCommutative, "smp_binomial_pipeline; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "smp_rdb", kCommutative, "smp_rdb; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "smp_rsag", kCommutative, "smp_rsag; wrong for non-commutative operators; wrong results in SimGrid 3.32 at p = 6, 8 with bxor"),
    SMPI_COLL(allreduce, "smp_rsag_lr", kCommutative, "smp_rsag_lr; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "smp_rsag_rab", kCommutative, "smp_rsag_rab; wrong for non-commutative operators; crashes at p = 6, wrong at p = 8 in SimGrid 3.32"),
    SMPI_COLL(allreduce, "redbcast", kNone, "redbcast"),
    SMPI_COLL(allreduce, "ompi", kNone, "ompi"),
    SMPI_COLL(allreduce, "ompi_ring_segmented", kCommutative, "ompi_ring_segmented; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "mpich", kNone, "mpich"),
    SMPI_COLL(allreduce, "mvapich2", kCommutative, "mvapich2; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "mvapich2_rs", kCommutative, "mvapich2_rs; wrong for non-commutative operators"),
    SMPI_COLL(allreduce, "mvapich2_two_level", kNone, "mvapich2_two_level"),
    SMPI_COLL(allreduce, "impi", kNone, "impi"),
    SMPI_COLL(allreduce, "rab", kNone, "rab; wrong results in SimGrid 3.32 even with bxor (p = 6, 8)"),
    SMPI_COLL(reduce_scatter, "default", kNone, "default"),
    SMPI_COLL(reduce_scatter, "ompi", kNone, "ompi; wrong with empty blocks at p = 8 in SimGrid 3.32"),
    SMPI_COLL(reduce_scatter, "ompi_basic_recursivehalving", kNone, "ompi_basic_recursivehalving; crashes at p = 6, wrong with empty blocks at p = 8 in SimGrid 3.32"),
    SMPI_COLL(reduce_scatter, "ompi_ring", kCommutative, "ompi_ring; wrong for non-commutative operators"),
    SMPI_COLL(reduce_scatter, "ompi_butterfly", kNone, "ompi_butterfly"),
    SMPI_COLL(reduce_scatter, "mpich", kNone, "mpich"),
    SMPI_COLL(reduce_scatter, "mpich_pair", kCommutative, "mpich_pair; wrong for non-commutative operators"),
    SMPI_COLL(reduce_scatter, "mpich_rdb", kNone, "mpich_rdb"),
    SMPI_COLL(reduce_scatter, "mpich_noncomm", kNone, "mpich_noncomm; crashes in SimGrid 3.32 (p = 6, 8)"),
    SMPI_COLL(reduce_scatter, "mvapich2", kNone, "mvapich2; wrong with empty blocks at p = 8 in SimGrid 3.32"),
    SMPI_COLL(reduce_scatter, "impi", kNone, "impi; wrong with empty blocks at p = 8 in SimGrid 3.32"),
    SMPI_COLL(allgatherv, "default", kNone, "default"),
    SMPI_COLL(allgatherv, "GB", kNone, "GB"),
    SMPI_COLL(allgatherv, "pair", kNone, "pair; crashes in SimGrid 3.32 at p = 8 (ramp layout)"),
    SMPI_COLL(allgatherv, "ring", kNone, "ring"),
    SMPI_COLL(allgatherv, "ompi", kNone, "ompi"),
    SMPI_COLL(allgatherv, "ompi_neighborexchange", kNone, "ompi_neighborexchange"),
    SMPI_COLL(allgatherv, "ompi_bruck", kNone, "ompi_bruck"),
    SMPI_COLL(allgatherv, "mpich", kNone, "mpich"),
    SMPI_COLL(allgatherv, "mpich_rdb", kNone, "mpich_rdb"),
    SMPI_COLL(allgatherv, "mpich_ring", kNone, "mpich_ring"),
    SMPI_COLL(allgatherv, "mvapich2", kNone, "mvapich2"),
    SMPI_COLL(allgatherv, "impi", kNone, "impi"),
    // SimGrid 3.32 has no algorithm choice for scan and exscan: one linear
    // implementation, which combines in the wrong order (checked by test_sim).
    SMPI_COLL(scan, "default", kCommutative, "linear; wrong for non-commutative operators"),
    SMPI_COLL(exscan, "default", kCommutative, "linear; wrong for non-commutative operators"),
    // Ours (seed 000): the critical path of the plan is the model.
    {"hillis-steele", Collective::scan, scan_hillis_steele, kNone, model_scan_hillis_steele,
     "straight doubling, skips 2^k: ceil(log2 p) rounds and ceil(log2 p) ops"},
    {"two-op-doubling", Collective::scan, scan_two_op_doubling, kNone, model_scan_two_op_doubling,
     "exclusive two-op doubling, then W+V: ceil(log2 p) rounds"},
    {"1-doubling", Collective::scan, scan_1_doubling, kNone, model_scan_1_doubling,
     "exclusive 1-doubling, then W+V: 1+ceil(log2(p-1)) rounds"},
    {"123-doubling", Collective::scan, scan_123_doubling, kNone, model_scan_123_doubling,
     "exclusive 123-doubling (Traeff 2025, Alg. 1), then W+V: q rounds"},
    {"two-op-doubling", Collective::exscan, exscan_two_op_doubling, kNone, model_exscan_two_op_doubling,
     "shift, then doubling sending W+V: ceil(log2 p) rounds, up to 2ceil(log2 p)-2 ops"},
    {"1-doubling", Collective::exscan, exscan_1_doubling, kNone, model_exscan_1_doubling,
     "shift, then straight doubling on ranks 1..p-1: 1+ceil(log2(p-1)) rounds and ops-1"},
    {"123-doubling", Collective::exscan, exscan_123_doubling, kNone, model_exscan_123_doubling,
     "Traeff 2025, Alg. 1, skips 1,2,3*2^(k-2): q=ceil(log2(p-1)+log2(4/3)) rounds"},
    {"two-tree", Collective::scan, scan_two_tree, kBlocks, model_scan_two_tree,
     "pipelined up/down phases on two inorder trees (seed 002 2.3): (4h-2+2(2n-2))(a+b*m/2n)"},
    {"two-tree", Collective::exscan, exscan_two_tree, kBlocks, model_scan_two_tree,
     "pipelined up/down phases on two inorder trees (seed 002 2.3): (4h-2+2(2n-2))(a+b*m/2n)"},
};

#undef SMPI_BCAST
#undef SMPI_COLL

template <typename Enum, size_t N>
Enum parse_name(const std::string& name, const Enum (&values)[N], const char* (*name_of)(Enum), const char* what) {
  std::string known;
  for (Enum v : values) {
    if (name == name_of(v)) return v;
    known += (known.empty() ? "" : ", ") + std::string(name_of(v));
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + name + "'; known: " + known);
}

}  // namespace

const char* collective_name(Collective c) {
  static const char* const names[] = {"bcast", "reduce", "allreduce", "reduce_scatter", "allgatherv", "scan", "exscan"};
  return names[static_cast<int>(c)];
}

Collective parse_collective(const std::string& name) { return parse_name(name, kCollectives, collective_name, "collective"); }

bool reduces(Collective c) { return c != Collective::bcast && c != Collective::allgatherv; }

const char* operator_name(Operator op) { return op == Operator::bxor ? "bxor" : "matmul"; }

Operator parse_operator(const std::string& name) {
  static constexpr Operator all[] = {Operator::bxor, Operator::matmul};
  return parse_name(name, all, operator_name, "operator");
}

int64_t element_bytes(Collective c, Operator op) {
  if (!reduces(c)) return 1;
  return op == Operator::bxor ? 8 : 32;
}

const char* layout_name(Layout l) {
  static const char* const names[] = {"even", "ramp", "single"};
  return names[static_cast<int>(l)];
}

Layout parse_layout(const std::string& name) {
  static constexpr Layout all[] = {Layout::even, Layout::ramp, Layout::single};
  return parse_name(name, all, layout_name, "layout");
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

std::vector<const Algorithm*> our_algorithms(Collective c) {
  std::vector<const Algorithm*> list;
  for (const Algorithm* a : algorithms_of(c))
    if (!a->has(kSmpiBuiltin)) list.push_back(a);
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
