#include "tree_pipeline.hpp"

#include "circulant.hpp"

namespace collsim::sim {

#ifdef COLLSIM_RANK
void tree_pipeline(const CollArgs& a, int64_t p, int64_t parent, const int64_t* children, int nchildren) {
  if (a.bytes == 0) return;
  auto real = [&](int64_t v) { return static_cast<int>(real_rank(v, a.root, p)); };
  MPI_Request recv = MPI_REQUEST_NULL;
  auto post = [&](int64_t j) {
    const Span s = block_span(a.bytes, a.blocks, j);
    MPI_Irecv(at(a.buf, s.begin), s.count(), MPI_BYTE, real(parent), 0, a.comm, &recv);
  };
  if (parent >= 0) post(0);
  for (int64_t j = 0; j < a.blocks; ++j) {
    if (parent >= 0) {
      MPI_Wait(&recv, MPI_STATUS_IGNORE);
      if (j + 1 < a.blocks) post(j + 1);
    }
    const Span s = block_span(a.bytes, a.blocks, j);
    for (int c = 0; c < nchildren; ++c) MPI_Send(at(a.buf, s.begin), s.count(), MPI_BYTE, real(children[c]), 0, a.comm);
  }
}
#endif  // COLLSIM_RANK

double tree_pipeline_model(const Net& net, int64_t bytes, int64_t blocks, int root_children, int64_t longest_path) {
  if (root_children == 0 || bytes == 0) return 0;
  const double t = net.message((bytes + blocks - 1) / blocks);
  return static_cast<double>(root_children * (blocks - 1) + longest_path) * t;
}

}  // namespace collsim::sim
