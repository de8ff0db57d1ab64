// Open MPI 4.1's coll/tuned algorithms that SimGrid 3.32 ports, and the
// dynamic rules file that `collsim tune --target ompi` writes for them
// (mpirun --mca coll_tuned_use_dynamic_rules 1 --mca
// coll_tuned_dynamic_rules_filename FILE).
//
// Facts (Open MPI v4.1.4 source and `ompi_info --param coll tuned --level
// 9` on Debian 12's 4.1.4; SimGrid v3.32 src/smpi/colls/):
//   - Algorithm numbers are coll_tuned_<coll>_algorithm's values; the
//     collective ids are ompi/mca/coll/base/coll_base_functions.h's COLLTYPE
//     (allreduce 2, bcast 7, reduce 11).
//   - The file is a stream of integers ("#" comments to the end of a line):
//       NCOLL, then per collective: ID NCOMSIZES, then per communicator
//       size: SIZE NMSG, then per message size: BYTES ALG FANINOUT SEGSIZE.
//     A communicator-size rule applies from its size up to the next one (the
//     first also below it); a message-size rule likewise, and the first of
//     each communicator size must be 0. Message bytes are count x type size
//     for bcast, reduce and allreduce. 4.1.4 rejects a
//     "rule-file-version-N" line (the whole file, silently), and reads a
//     zero-padded number as octal: neither is written.
//   - The ports fix their own segment size and fan-out, which the simulated
//     time reflects; the file gives Open MPI the same numbers (segsize(),
//     fanout() below), so it segments as simulated. Open MPI's own fixed
//     rules pass 0 for both (unsegmented).
//   - Non-commutative operators: Open MPI runs reduce 1 (linear) and
//     6 (in-order binary), allreduce 2 (reduce + bcast, each by its own
//     rule) and 3 (recursive doubling) in rank order; reduce 2-5 and
//     allreduce 4-5 combine out of order and have no fallback, allreduce 6
//     (Rabenseifner) falls back to linear, so its simulated time would not
//     be Open MPI's. Only the order-keeping ones go into a table that does
//     not say --commutative.
//   - No algorithm listed needs a power-of-two communicator (SimGrid's
//     rab1 and pair do, and have no Open MPI number here).
// Left out as approximate only: bcast 2 (chain), 5 (bintree: SimGrid's NTSB
// is a heap-ordered pipelined tree), 7 (knomial), reduce 7, allreduce 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog.hpp"

namespace collsim::sim {

struct OmpiAlgorithm {
  Collective collective;
  int number;             // coll_tuned_<collective>_algorithm
  const char* ompi_name;  // as ompi_info names it
  const char* smpi_name;  // the SimGrid port that simulates it ("smpi:..." in our catalog)
  bool keeps_order;       // correct for non-commutative operators in Open MPI 4.1
  // The port's segment size in bytes (0: none) and fan-out (0: none) for p
  // ranks and m bytes of `element`-byte elements.
  int64_t (*segsize)(int64_t p, int64_t bytes, int64_t element);
  int64_t (*fanout)(int64_t p);
};

// Open MPI's collective id in the rules file; throws cli::UsageError for a
// collective without algorithms here.
int ompi_collective_id(Collective c);
// The table's rows of c (empty where Open MPI has none that SimGrid ports).
std::vector<const OmpiAlgorithm*> ompi_algorithms(Collective c);
// The row whose SimGrid port is `smpi_name` ("smpi:ompi_binary"); nullptr if none.
const OmpiAlgorithm* ompi_by_smpi_name(Collective c, const std::string& smpi_name);

// One message-size rule of a communicator size.
struct OmpiMessageRule {
  int64_t bytes;  // from these bytes up
  const OmpiAlgorithm* algorithm;
  int64_t fanout, segsize;
};
struct OmpiCommRule {
  int64_t ranks;  // from this size up
  std::vector<OmpiMessageRule> messages;
};
struct OmpiCollectiveRules {
  Collective collective;
  std::vector<OmpiCommRule> comms;
};
// The classic 4.1 rules text; `comment` lines lead it as "# ...".
std::string ompi_rules_text(const std::vector<OmpiCollectiveRules>& rules, const std::string& comment);

}  // namespace collsim::sim
