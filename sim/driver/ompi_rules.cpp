#include "ompi_rules.hpp"

#include "values.hpp"

namespace collsim::sim {

namespace {

int64_t none(int64_t, int64_t, int64_t) { return 0; }
int64_t no_fanout(int64_t) { return 0; }

// SimGrid's bcast-ompi-pipeline.cpp: Open MPI's old decision by p and m.
int64_t bcast_pipeline_segsize(int64_t p, int64_t bytes, int64_t) {
  const double m = static_cast<double>(bytes), ranks = static_cast<double>(p);
  if (ranks < 1.6134e-6 * m + 2.1102) return 128 * 1024;
  if (ranks < 2.3679e-6 * m + 1.1787) return 64 * 1024;
  if (ranks < 3.2118e-6 * m + 8.7936) return 16 * 1024;
  return 128 * 1024;
}
// bcast-ompi-split-bintree.cpp.
int64_t split_bintree_segsize(int64_t, int64_t bytes, int64_t) { return bytes < 370728 ? 1024 : 8 * 1024; }
// reduce-ompi.cpp, one function per port.
int64_t reduce_chain_segsize(int64_t, int64_t, int64_t) { return 64 * 1024; }
int64_t reduce_chain_fanout(int64_t p) { return p / 2; }
int64_t reduce_pipeline_segsize(int64_t p, int64_t bytes, int64_t) {
  const double m = static_cast<double>(bytes), ranks = static_cast<double>(p);
  if (ranks > 0.0410 / 1024 * m + 9.7128) return 1024;
  if (ranks > 0.0033 / 1024 * m + 1.6761) return 32 * 1024;
  return 64 * 1024;
}
int64_t reduce_binary_segsize(int64_t, int64_t, int64_t) { return 32 * 1024; }
int64_t reduce_binomial_segsize(int64_t p, int64_t bytes, int64_t element) {
  const double m = static_cast<double>(bytes);
  if ((p < 8 && bytes < 20480) || bytes < 2048 || bytes / element <= 1) return 0;
  return static_cast<double>(p) > 0.6016 / 1024 * m + 1.3496 ? 1024 : 0;
}
// allreduce-ompi-ring-segmented.cpp.
int64_t ring_segmented_segsize(int64_t, int64_t, int64_t) { return 1 << 20; }

const OmpiAlgorithm kTable[] = {
    {Collective::bcast, 1, "basic_linear", "smpi:flattree", true, none, no_fanout},
    {Collective::bcast, 3, "pipeline", "smpi:ompi_pipeline", true, bcast_pipeline_segsize, no_fanout},
    {Collective::bcast, 4, "split_binary_tree", "smpi:ompi_split_bintree", true, split_bintree_segsize, no_fanout},
    {Collective::bcast, 6, "binomial", "smpi:binomial_tree", true, none, no_fanout},
    {Collective::bcast, 8, "scatter_allgather", "smpi:scatter_rdb_allgather", true, none, no_fanout},
    {Collective::bcast, 9, "scatter_allgather_ring", "smpi:scatter_LR_allgather", true, none, no_fanout},
    {Collective::reduce, 1, "linear", "smpi:ompi_basic_linear", true, none, no_fanout},
    {Collective::reduce, 2, "chain", "smpi:ompi_chain", false, reduce_chain_segsize, reduce_chain_fanout},
    {Collective::reduce, 3, "pipeline", "smpi:ompi_pipeline", false, reduce_pipeline_segsize, no_fanout},
    {Collective::reduce, 4, "binary", "smpi:ompi_binary", false, reduce_binary_segsize, no_fanout},
    {Collective::reduce, 5, "binomial", "smpi:ompi_binomial", false, reduce_binomial_segsize, no_fanout},
    {Collective::reduce, 6, "in-order_binary", "smpi:ompi_in_order_binary", true, none, no_fanout},
    {Collective::allreduce, 2, "nonoverlapping", "smpi:redbcast", true, none, no_fanout},
    {Collective::allreduce, 3, "recursive_doubling", "smpi:rdb", true, none, no_fanout},
    {Collective::allreduce, 4, "ring", "smpi:lr", false, none, no_fanout},
    {Collective::allreduce, 5, "segmented_ring", "smpi:ompi_ring_segmented", false, ring_segmented_segsize, no_fanout},
    {Collective::allreduce, 6, "rabenseifner", "smpi:rab_rdb", false, none, no_fanout},
};

}  // namespace

int ompi_collective_id(Collective c) {
  switch (c) {
    case Collective::allreduce:
      return 2;
    case Collective::bcast:
      return 7;
    case Collective::reduce:
      return 11;
    default:
      throw cli::UsageError(std::string("--target ompi: no Open MPI algorithm that SimGrid ports is mapped for ") +
                            collective_name(c) + " (bcast, reduce, allreduce are)");
  }
}

std::vector<const OmpiAlgorithm*> ompi_algorithms(Collective c) {
  std::vector<const OmpiAlgorithm*> rows;
  for (const OmpiAlgorithm& a : kTable)
    if (a.collective == c) rows.push_back(&a);
  return rows;
}

const OmpiAlgorithm* ompi_by_smpi_name(Collective c, const std::string& smpi_name) {
  for (const OmpiAlgorithm* a : ompi_algorithms(c))
    if (smpi_name == a->smpi_name) return a;
  return nullptr;
}

std::string ompi_rules_text(const std::vector<OmpiCollectiveRules>& rules, const std::string& comment) {
  std::string text;
  for (size_t start = 0; start < comment.size();) {
    const size_t end = comment.find('\n', start);
    text += "# " + comment.substr(start, end == std::string::npos ? std::string::npos : end - start) + "\n";
    start = end == std::string::npos ? comment.size() : end + 1;
  }
  text += std::to_string(rules.size()) + "  # collectives\n";
  for (const OmpiCollectiveRules& coll : rules) {
    text += std::to_string(ompi_collective_id(coll.collective)) + "  # " + collective_name(coll.collective) + "\n";
    text += std::to_string(coll.comms.size()) + "  # communicator sizes\n";
    for (const OmpiCommRule& comm : coll.comms) {
      text += std::to_string(comm.ranks) + " " + std::to_string(comm.messages.size()) +
              "  # from this many ranks: message sizes\n";
      for (const OmpiMessageRule& m : comm.messages)
        text += std::to_string(m.bytes) + " " + std::to_string(m.algorithm->number) + " " + std::to_string(m.fanout) +
                " " + std::to_string(m.segsize) + "  # " + m.algorithm->ompi_name + " (" + m.algorithm->smpi_name +
                ")\n";
    }
  }
  return text;
}

}  // namespace collsim::sim
