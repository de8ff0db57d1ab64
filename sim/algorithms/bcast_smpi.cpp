// smpi:<name>: SimGrid's own MPI_Bcast, whichever algorithm the run selected
// with --cfg=smpi/bcast:<name>. The baselines run in the same harness as ours.
// Cost, limits and memory: SimGrid's (src/smpi/colls/bcast/); no model here.
#include "collective.hpp"

namespace collsim::sim {

void bcast_smpi(const CollArgs& a) {
  MPI_Bcast(a.buf, static_cast<int>(a.bytes), MPI_BYTE, a.root, a.comm);
}

}  // namespace collsim::sim
