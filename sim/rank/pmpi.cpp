// libcollsim-pmpi.so: a PMPI interposition library for Open MPI that makes an
// unmodified MPI program run our algorithms. Preload it (or link it before
// libmpi) and name an algorithm per collective:
//
//   COLLSIM_BCAST=circulant COLLSIM_ALLREDUCE=... mpirun -x LD_PRELOAD=.../libcollsim-pmpi.so ./app
//
//   variable                 MPI calls
//   COLLSIM_BCAST            MPI_Bcast
//   COLLSIM_REDUCE           MPI_Reduce
//   COLLSIM_ALLREDUCE        MPI_Allreduce
//   COLLSIM_REDUCE_SCATTER   MPI_Reduce_scatter, MPI_Reduce_scatter_block
//   COLLSIM_ALLGATHERV       MPI_Allgatherv, MPI_Allgather
//   COLLSIM_SCAN             MPI_Scan
//   COLLSIM_EXSCAN           MPI_Exscan
//   COLLSIM_BLOCKS           n for pipelined algorithms (default: the block
//                            policy on alphabeta's numbers, block_policy.hpp)
//   COLLSIM_NODE_SIZE        ranks per node, placed block-wise (mpirun's
//                            --map-by core): what the node-aware algorithms
//                            group by (default 1: each rank its own node)
//   COLLSIM_RULES=FILE       a decision table (`collsim tune --target
//                            collsim`, sim/catalog/tuning_rules.hpp): per
//                            collective, communicator size, message size and
//                            operator class, our algorithm and its n; the
//                            variables above override it for their collective
//   COLLSIM_VERBOSE=1        rank 0 of each call's communicator says on
//                            stderr which algorithm ran, or why Open MPI's
//
// Names are catalog rows of that collective; SimGrid's (smpi:*) are not.
// A bad setting stops the program in MPI_Init (or MPI_Init_thread): one line
// on stderr from the lowest rank that has it, exit status 2; so do settings
// that differ between ranks (rank 0 says so).
//
// One decision per call, the same on every rank. Whether our algorithm or
// Open MPI's runs a call depends only on what MPI requires to agree across
// the communicator:
//   - the settings above (checked equal on all ranks in MPI_Init);
//   - the communicator's kind (intra or inter);
//   - the message size in bytes: count x type size, which the type
//     signatures fix (for allgatherv the sum over the ranks' blocks);
//   - for reductions, which MPI requires to have the same count, operator
//     and datatype signature on all ranks: the count, the size of one
//     element, the operator (predefined or not, commutative or not) and for
//     a predefined one the basic type its datatype's signature repeats.
// Never on one rank's layout: extent, gaps, order of the data in memory,
// displacements, MPI_IN_PLACE. MPI lets ranks describe the same data with
// different datatypes of one signature, and allgatherv's displacements are
// each rank's own; a decision that read them could send the root into our
// algorithm and the others into Open MPI's, each waiting for the other.
//
// Layout is each rank's own business, handled locally: our algorithms take
// contiguous bytes in signature order, so a buffer whose memory is not
// already that is packed into a scratch copy (MPI_Pack) and the result
// unpacked (MPI_Unpack); allgatherv unpacks the gathered blocks to the
// caller's displacements (any order, gaps). MPI_IN_PLACE input is copied:
// our algorithms never take aliased buffers. Reductions combine packed data:
// a predefined operator element-wise on its basic type (also where the
// datatype is derived, which Open MPI 4.1 itself rejects), a user operator
// (or a basic type with a gap, MPI_DOUBLE_INT) through a wrapper operator
// that unpacks each element into the caller's layout, applies the caller's
// operator there and packs the result. Packing assumes one data
// representation on all ranks, as moving MPI_BYTE does.
//
// A call goes to Open MPI's own collective (PMPI_*), on every rank of the
// communicator alike, when neither a variable nor a rule names an algorithm
// for it, and in these cases:
//   - an intercommunicator (our algorithms are for intracommunicators);
//   - a message of 2^31 bytes or more (our algorithms count bytes in int);
//   - an algorithm flagged kCommutative with a non-commutative operator;
//   - a predefined operator on a datatype not built of one basic type (no
//     element-wise meaning; Open MPI reports the error);
//   - collectives called from inside one of our algorithms (where all ranks
//     are: they run the same one).
// COLLSIM_VERBOSE=1 names the case on rank 0.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "block_policy.hpp"
#include "bounded_stream.hpp"
#include "collective.hpp"
#include "run_table.hpp"
#include "tuning_rules.hpp"

namespace collsim::sim {
namespace {

// Process-wide settings, fixed in MPI_Init. Globals are fine here: under
// real MPI every rank is a process of its own.
struct Config {
  const Algorithm* algo[std::size(kCollectives)] = {};
  int64_t blocks = 0;  // 0: the block policy
  int64_t node_size = 1;
  bool verbose = false;
  std::vector<TuningRule> rules;  // COLLSIM_RULES
  long long rules_hash = 0;       // of the file's bytes: ranks must read the same table
};
Config config;
// > 0 while one of our algorithms runs: collectives it calls go to Open MPI.
thread_local int depth = 0;

std::string env_name(Collective c) {
  std::string name = std::string("COLLSIM_") + collective_name(c);
  for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return name;
}

std::string ours(Collective c) {
  std::string names;
  for (const Algorithm* a : algorithms_of(c))
    if (!a->has(kSmpiBuiltin)) names += (names.empty() ? "" : ", ") + std::string(a->name);
  return names.empty() ? "none yet" : names;
}

// The algorithm a variable names; throws the error line.
const Algorithm* named(Collective c, const std::string& name) {
  for (const Algorithm* a : algorithms_of(c))
    if (name == a->name && !a->has(kSmpiBuiltin)) return a;
  throw std::invalid_argument(env_name(c) + ": unknown " + collective_name(c) + " algorithm '" + name +
                              "'; ours: " + ours(c));
}

// COLLSIM_RULES: the table and a hash of its bytes (FNV-1a) into `config`.
void read_rules(const char* path) {
  // Every rank reads it: bounded, so /dev/zero is one line, not 4 GB a rank.
  BoundedFileStream in(path, kMaxSmallFileBytes, "COLLSIM_RULES file");
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char ch : in.text()) hash = (hash ^ ch) * 1099511628211ull;
  config.rules_hash = static_cast<long long>(hash >> 1);
  try {
    config.rules = read_tuning_rules(in);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("COLLSIM_RULES: '") + path + "', " + e.what());
  }
}

// A variable's whole number in [1, INT_MAX]; throws the error line.
int64_t positive_setting(const char* name, const char* text) {
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < 1 || value > INT_MAX)
    throw std::invalid_argument(std::string(name) + ": not a whole number >= 1: '" + text + "'");
  return value;
}

// Reads the COLLSIM_* variables into `config`; "" or the error line.
std::string configure() {
  try {
    for (Collective c : kCollectives)
      if (const char* name = std::getenv(env_name(c).c_str()))
        config.algo[static_cast<int>(c)] = named(c, name);
    if (const char* blocks = std::getenv("COLLSIM_BLOCKS")) config.blocks = positive_setting("COLLSIM_BLOCKS", blocks);
    if (const char* size = std::getenv("COLLSIM_NODE_SIZE")) config.node_size = positive_setting("COLLSIM_NODE_SIZE", size);
    if (const char* path = std::getenv("COLLSIM_RULES")) read_rules(path);
    const char* verbose = std::getenv("COLLSIM_VERBOSE");
    config.verbose = verbose && std::strcmp(verbose, "0") != 0 && *verbose != '\0';
  } catch (const std::exception& e) {  // invalid_argument, or LimitError from the rules file's bound
    return e.what();
  }
  return "";
}

// Each rank's settings as numbers: the row of each named algorithm (-1:
// none) and COLLSIM_BLOCKS. Ranks that ran different algorithms would hang.
std::vector<long long> settings() {
  std::vector<long long> s;
  for (const Algorithm* a : config.algo) s.push_back(a ? a - algorithms().data() : -1);
  s.push_back(config.blocks);
  s.push_back(config.node_size);
  s.push_back(config.rules_hash);
  return s;
}

bool settings_agree() {
  const std::vector<long long> mine = settings();
  std::vector<long long> range(mine);  // the maxima, then minus the minima
  for (long long s : mine) range.push_back(-s);
  PMPI_Allreduce(MPI_IN_PLACE, range.data(), static_cast<int>(range.size()), MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  for (size_t i = 0; i < mine.size(); ++i)
    if (range[i] != -range[mine.size() + i]) return false;
  return true;
}

void combine_packed(void* in, void* inout, int* len, MPI_Datatype*);
// combine_packed as a non-commutative ([0]) and a commutative ([1]) operator.
MPI_Op packed_ops[2];

// After PMPI_Init: all ranks agree whether any setting is bad or differs
// between ranks; if so the lowest rank that knows says why and every rank
// leaves.
void start() {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::string error = configure();
  int bad = error.empty() ? INT_MAX : rank;
  PMPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (bad == INT_MAX && !settings_agree()) {
    bad = 0;
    error = "COLLSIM_* settings differ between ranks";
  }
  if (bad == INT_MAX) {
    PMPI_Op_create(combine_packed, 0, &packed_ops[0]);
    PMPI_Op_create(combine_packed, 1, &packed_ops[1]);
    return;
  }
  if (bad == rank) std::fprintf(stderr, "libcollsim-pmpi: error: %s\n", error.c_str());
  PMPI_Finalize();
  std::exit(2);
}

void say(MPI_Comm comm, const char* fn, const std::string& what) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (config.verbose && rank == 0) std::fprintf(stderr, "libcollsim-pmpi: %s: %s\n", fn, what.c_str());
}

int64_t type_size(MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return size;
}

int64_t type_extent(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_get_extent(type, &lb, &extent);
  return extent;
}

bool named(MPI_Datatype type) {
  int ints = 0, addrs = 0, types = 0, combiner = 0;
  PMPI_Type_get_envelope(type, &ints, &addrs, &types, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

// A derived datatype's constructor and arguments (MPI_Type_get_contents);
// frees the derived types among them, which MPI hands out as new handles.
struct Contents {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<MPI_Aint> addrs;
  std::vector<MPI_Datatype> types;

  explicit Contents(MPI_Datatype type) {
    int ni = 0, na = 0, nt = 0;
    PMPI_Type_get_envelope(type, &ni, &na, &nt, &combiner);
    if (combiner == MPI_COMBINER_NAMED) return;
    ints.resize(ni);
    addrs.resize(na);
    types.resize(nt);
    PMPI_Type_get_contents(type, ni, na, nt, ints.data(), addrs.data(), types.data());
  }
  ~Contents() {
    for (MPI_Datatype& t : types)
      if (!named(t)) PMPI_Type_free(&t);
  }
  Contents(const Contents&) = delete;
  Contents& operator=(const Contents&) = delete;
};

bool dense(MPI_Datatype type);

// Dense, and elements of it follow each other without gaps.
bool tiles(MPI_Datatype type) { return dense(type) && type_extent(type) == type_size(type); }

// MPI_Type_indexed's blocks (ints: count, lengths, displacements) of
// `element`, each starting where the last nonempty one ended.
bool adjacent_blocks(const std::vector<int>& ints, MPI_Datatype element) {
  if (!tiles(element)) return false;
  const int n = ints[0];
  int64_t next = 0;
  for (int i = 0; i < n; ++i) {
    if (ints[1 + i] == 0) continue;
    if (ints[1 + n + i] != next) return false;
    next += ints[1 + i];
  }
  return true;
}

// Does `type` hold its data in bytes [0, size) in signature order, so that
// its memory is already its packed form? Answered for the constructors
// that say so cheaply; other derived types count as not dense: packed.
bool dense(MPI_Datatype type) {
  const Contents c(type);
  switch (c.combiner) {
    case MPI_COMBINER_NAMED: return type_extent(type) == type_size(type);  // not MPI_DOUBLE_INT
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED: return dense(c.types[0]);  // the data stays where it was
    case MPI_COMBINER_CONTIGUOUS: return c.ints[0] <= 1 ? dense(c.types[0]) : tiles(c.types[0]);
    case MPI_COMBINER_INDEXED: return adjacent_blocks(c.ints, c.types[0]);
    default: return false;
  }
}

// The one predefined type that `type`'s signature repeats, or
// MPI_DATATYPE_NULL when it has several (or one we cannot see into).
// A function of the signature, so the same on every rank.
MPI_Datatype basic_type(MPI_Datatype type) {
  const Contents c(type);
  if (c.combiner == MPI_COMBINER_NAMED) return type;
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  for (size_t i = 0; i < c.types.size(); ++i) {
    const bool absent = type_size(c.types[i]) == 0 || (c.combiner == MPI_COMBINER_STRUCT && c.ints[1 + i] == 0);
    if (absent) continue;  // adds nothing to the signature
    const MPI_Datatype b = basic_type(c.types[i]);
    if (b == MPI_DATATYPE_NULL || (basic != MPI_DATATYPE_NULL && b != basic)) return MPI_DATATYPE_NULL;
    basic = b;
  }
  return basic;
}

bool predefined(MPI_Op op) {
  for (MPI_Op known : {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR,
                       MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP})
    if (op == known) return true;
  return false;
}

// What `op` combines one at a time: a predefined operator the basic type of
// `type` (MPI_DATATYPE_NULL if there is none), a user operator `type` itself.
MPI_Datatype op_element(MPI_Datatype type, MPI_Op op) { return predefined(op) ? basic_type(type) : type; }

// Why the algorithm cannot take this call; nullptr when it can. Reads only
// facts that agree on all ranks (see the top of the file).
const char* unsupported(const Algorithm& algo, MPI_Comm comm, int64_t bytes, MPI_Op op, MPI_Datatype element) {
  int inter = 0, commutative = 1;
  PMPI_Comm_test_inter(comm, &inter);
  if (op != MPI_OP_NULL) PMPI_Op_commutative(op, &commutative);
  if (depth > 0) return "called from inside an algorithm";
  if (inter) return "intercommunicator";
  if (bytes > INT_MAX) return "message of 2 GiB or more";
  if (!unmet_restriction(algo, commutative != 0).empty()) return "non-commutative operator";
  if (op != MPI_OP_NULL && element == MPI_DATATYPE_NULL) return "predefined operator on mixed basic types";
  return nullptr;
}

// What runs a call: our algorithm (nullptr: Open MPI's), its block count
// (0: COLLSIM_BLOCKS or the block policy) and where the choice came from.
struct Choice {
  const Algorithm* algo = nullptr;
  int64_t blocks = 0;
  std::string source;
};

// The variable's algorithm for collective c, else the rules' (by the
// communicator size, the bytes and the operator's commutativity).
Choice configured(Collective c, MPI_Comm comm, int64_t bytes, MPI_Op op) {
  if (const Algorithm* algo = config.algo[static_cast<int>(c)]) return {algo, 0, env_name(c)};
  int p = 1, commutative = 1;
  PMPI_Comm_size(comm, &p);
  if (op != MPI_OP_NULL) PMPI_Op_commutative(op, &commutative);
  if (const TuningRule* rule = find_rule(config.rules, c, p, bytes, commutative != 0))
    return {rule->algorithm, rule->blocks, "COLLSIM_RULES line " + std::to_string(rule->line)};
  return {};
}

// What takes this call of collective c: ours, or Open MPI's (algo nullptr).
// Reductions pass their operator and its op_element.
Choice pick(Collective c, const char* fn, MPI_Comm comm, int64_t bytes, MPI_Op op = MPI_OP_NULL,
            MPI_Datatype element = MPI_DATATYPE_NULL) {
  const Choice choice = configured(c, comm, bytes, op);
  if (!choice.algo) return {};
  if (const char* why = unsupported(*choice.algo, comm, bytes, op, element)) {
    if (depth == 0) say(comm, fn, std::string("Open MPI's (") + why + ")");
    return {};
  }
  return choice;
}

// Runs the chosen algorithm with its block count (resolve_blocks: the
// rule's, else COLLSIM_BLOCKS, else the block policy on alphabeta's numbers,
// which reads the ranks' segments in bytes where the collective has them:
// allgatherv, reduce_scatter).
int run(const char* fn, const Choice& choice, CollArgs args, const std::vector<int64_t>& segments = {}) {
  const Algorithm& algo = *choice.algo;
  int p = 1;
  PMPI_Comm_size(args.comm, &p);
  Net policy;  // alphabeta's numbers (Machine's defaults)
  policy.cores_per_node = config.node_size;  // COLLSIM_NODE_SIZE ranks a node, block-wise
  policy.intra_alpha = policy.alpha, policy.intra_beta = policy.beta;
  args.blocks = resolve_blocks(algo, policy, {p, args.bytes, choice.blocks > 0 ? choice.blocks : config.blocks, segments});
  // lag 1 on alphabeta's numbers: the binomial tree
  args.params = plan_params(policy, algo.collective, args.bytes, args.blocks);
  say(args.comm, fn,
      std::string(algo.name) + ", n=" + std::to_string(args.blocks) + ", " + std::to_string(args.bytes) + " bytes (" +
          choice.source + ")");
  ++depth;
  run_function(algo)(args);
  --depth;
  return MPI_SUCCESS;
}

// `count` elements of `type` at `buf` <-> `bytes` packed bytes at `packed`
// (Open MPI rejects the null buffer of an empty vector even for 0 bytes).
void pack(const void* buf, int count, MPI_Datatype type, MPI_Comm comm, void* packed, int64_t bytes) {
  if (bytes == 0) return;
  int position = 0;
  PMPI_Pack(buf, count, type, packed, static_cast<int>(bytes), &position, comm);
}
void unpack(const void* packed, int64_t bytes, void* buf, int count, MPI_Datatype type, MPI_Comm comm) {
  if (bytes == 0) return;
  int position = 0;
  PMPI_Unpack(packed, static_cast<int>(bytes), &position, buf, count, type, comm);
}

// `count` elements of `type` at `buf` as our algorithms take them: one run
// of bytes in signature order. That is the caller's buffer itself where its
// layout is dense, else a scratch copy that pack() fills and unpack()
// empties; both are local, so ranks with different layouts still run the
// same algorithm on the same bytes.
class Packed {
 public:
  // `copy`: a scratch copy even of a dense layout (an input that the result
  // is to overwrite).
  Packed(const void* buf, int count, MPI_Datatype type, MPI_Comm comm, bool copy = false)
      : buf_(const_cast<void*>(buf)), count_(count), type_(type), comm_(comm),
        direct_(!copy && (count <= 1 ? dense(type) : tiles(type))) {
    if (!direct_) scratch_.resize(count * type_size(type));
  }
  void* data() { return direct_ ? buf_ : scratch_.data(); }
  void pack() {
    if (!direct_) collsim::sim::pack(buf_, count_, type_, comm_, scratch_.data(), static_cast<int64_t>(scratch_.size()));
  }
  void unpack() {
    if (!direct_) collsim::sim::unpack(scratch_.data(), static_cast<int64_t>(scratch_.size()), buf_, count_, type_, comm_);
  }

 private:
  void* buf_;
  int count_;
  MPI_Datatype type_;
  MPI_Comm comm_;
  bool direct_;
  std::vector<char> scratch_;
};

// The packed input of a reduction: sendbuf's, or for MPI_IN_PLACE a copy of
// recvbuf's elements.
Packed input(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Comm comm) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  Packed in(in_place ? recvbuf : sendbuf, count, type, comm, in_place);
  in.pack();
  return in;
}

// A datatype of our own, freed with its owner.
struct OwnedType {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  OwnedType() = default;
  OwnedType(const OwnedType&) = delete;
  OwnedType& operator=(const OwnedType&) = delete;
  ~OwnedType() {
    if (type != MPI_DATATYPE_NULL) PMPI_Type_free(&type);
  }
  void commit() { PMPI_Type_commit(&type); }
};

// Memory for `count` elements of `type` in the type's own layout, gaps
// and all; at() is the address MPI calls take for it.
class Laid {
 public:
  Laid(int count, MPI_Datatype type) {
    MPI_Aint true_lb = 0, true_extent = 0;
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    memory_.resize(count > 0 ? (count - 1) * type_extent(type) + true_extent : 0);
    shift_ = true_lb;
  }
  void* at() { return memory_.data() - shift_; }

 private:
  std::vector<char> memory_;
  MPI_Aint shift_;
};

// What combine_packed applies: the caller's operator on its element type.
struct Combining {
  MPI_Datatype element;
  bool tiles;  // packed elements already in the element's layout
  MPI_Op op;
  MPI_Comm comm;
};
// Set by the Reduction that runs (one at a time per thread: our algorithms
// call no reduction of ours).
thread_local const Combining* combining = nullptr;

// The function of packed_ops: `len` packed elements at `in` and `inout`,
// combined by the caller's operator in the caller's layout.
void combine_packed(void* in, void* inout, int* len, MPI_Datatype*) {
  const Combining& c = *combining;
  if (c.tiles) {
    PMPI_Reduce_local(in, inout, *len, c.element, c.op);
    return;
  }
  const int64_t bytes = *len * type_size(c.element);
  Laid a(*len, c.element), b(*len, c.element);
  unpack(in, bytes, a.at(), *len, c.element, c.comm);
  unpack(inout, bytes, b.at(), *len, c.element, c.comm);
  PMPI_Reduce_local(a.at(), b.at(), *len, c.element, c.op);
  pack(b.at(), *len, c.element, c.comm, inout, bytes);
}

// How our algorithm moves and combines a reduction's packed data, fixed by
// the operator and the element's signature alone (the same count and
// signature on every rank, so the same units and blocks everywhere): for a
// predefined operator whose basic type tiles (MPI_LONG, MPI_2INT), that type
// and the operator; otherwise (a user operator, or MPI_DOUBLE_INT and its
// kin, which have a gap) one run of bytes per element and packed_ops.
class Reduction {
 public:
  // `element`: op_element(type, op).
  Reduction(MPI_Datatype element, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    const int64_t element_size = type_size(element);
    per_element_ = element_size > 0 ? type_size(type) / element_size : 0;
    if (predefined(op) && tiles(element)) {
      unit_ = element;
      op_ = op;
      return;
    }
    PMPI_Type_contiguous(static_cast<int>(element_size), MPI_BYTE, &bytes_.type);
    bytes_.commit();
    unit_ = bytes_.type;
    int commutative = 0;
    PMPI_Op_commutative(op, &commutative);
    op_ = packed_ops[commutative != 0];
    combining_ = {element, tiles(element), op, comm};
    combining = &combining_;
  }
  ~Reduction() { combining = nullptr; }
  Reduction(const Reduction&) = delete;
  Reduction& operator=(const Reduction&) = delete;

  // Our units for `count` of the caller's elements.
  int units(int count) const { return static_cast<int>(count * per_element_); }
  // The arguments for `count` of the caller's elements, packed.
  CollArgs args(void* buf, const void* sendbuf, int count, int64_t bytes, MPI_Comm comm, int root = 0) const {
    return {buf, bytes, root, comm, 1, sendbuf, units(count), unit_, op_};
  }

 private:
  int64_t per_element_;
  MPI_Datatype unit_;
  MPI_Op op_;
  OwnedType bytes_;
  Combining combining_{};
};

// Allreduce, scan and exscan: the same arguments, the result in recvbuf.
int vector_reduction(Collective c, const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                     MPI_Op op, MPI_Comm comm, int (*fallback)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm)) {
  const int64_t bytes = count * type_size(type);
  const MPI_Datatype element = op_element(type, op);
  const Choice algo = pick(c, fn, comm, bytes, op, element);
  if (!algo.algo) return fallback(sendbuf, recvbuf, count, type, op, comm);
  const Reduction reduction(element, type, op, comm);
  Packed in = input(sendbuf, recvbuf, count, type, comm);
  Packed out(recvbuf, count, type, comm);
  run(fn, algo, reduction.args(out.data(), in.data(), count, bytes, comm));
  out.unpack();
  return MPI_SUCCESS;
}

int reduce_scatter(const char* fn, const void* sendbuf, void* recvbuf, const std::vector<int>& counts,
                   MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  int64_t total = 0;
  for (int n : counts) total += n;
  const int64_t bytes = total * type_size(type);
  const MPI_Datatype element = op_element(type, op);
  const Choice algo = pick(Collective::reduce_scatter, fn, comm, bytes, op, element);
  if (!algo.algo) return PMPI_Reduce_scatter(sendbuf, recvbuf, counts.data(), type, op, comm);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  const Reduction reduction(element, type, op, comm);
  Packed in = input(sendbuf, recvbuf, static_cast<int>(total), type, comm);
  Packed out(recvbuf, counts[rank], type, comm);
  std::vector<int> unit_counts;
  for (int n : counts) unit_counts.push_back(reduction.units(n));
  CollArgs args = reduction.args(out.data(), in.data(), static_cast<int>(total), bytes, comm);
  args.counts = unit_counts.data();
  std::vector<int64_t> segments;  // the same on all ranks: MPI requires equal counts
  for (int n : counts) segments.push_back(n * type_size(type));
  run(fn, algo, args, segments);
  out.unpack();
  return MPI_SUCCESS;
}

// The ranks whose blocks an allgather(v) receives: the remote group of an
// intercommunicator.
int senders(MPI_Comm comm) {
  int inter = 0, p = 1;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    PMPI_Comm_remote_size(comm, &p);
  else
    PMPI_Comm_size(comm, &p);
  return p;
}

// Our allgatherv on packed data: this rank's block packed (in place: a copy
// from recvbuf), all blocks gathered packed in rank order, in bytes, then
// unpacked to the caller's displacements, which are its own business.
int gather_all(const char* fn, const Choice& algo, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
               void* recvbuf, const int* counts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm) {
  int p = 1, rank = 0;
  PMPI_Comm_size(comm, &p);
  PMPI_Comm_rank(comm, &rank);
  const int64_t size = type_size(recvtype);
  std::vector<int> byte_counts(p), byte_displs(p);
  int64_t total = 0;
  for (int r = 0; r < p; ++r) {
    byte_displs[r] = static_cast<int>(total);
    byte_counts[r] = static_cast<int>(counts[r] * size);
    total += byte_counts[r];
  }
  OwnedType layout;  // the whole receive buffer as one datatype
  PMPI_Type_indexed(p, counts, displs, recvtype, &layout.type);
  layout.commit();
  Packed all(recvbuf, 1, layout.type, comm);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  Packed mine = in_place ? Packed(static_cast<char*>(recvbuf) + displs[rank] * type_extent(recvtype), counts[rank],
                                  recvtype, comm, true)
                         : Packed(sendbuf, sendcount, sendtype, comm);
  mine.pack();
  CollArgs args{all.data(), total, 0, comm, 1, mine.data(), total, MPI_BYTE};
  args.counts = byte_counts.data();
  args.displs = byte_displs.data();
  run(fn, algo, args, std::vector<int64_t>(byte_counts.begin(), byte_counts.end()));
  all.unpack();
  return MPI_SUCCESS;
}

}  // namespace
}  // namespace collsim::sim

using namespace collsim::sim;

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) start();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) start();
  return rc;
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const Choice algo = pick(Collective::bcast, "MPI_Bcast", comm, count * type_size(type));
  if (!algo.algo) return PMPI_Bcast(buf, count, type, root, comm);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  Packed data(buf, count, type, comm);
  if (rank == root) data.pack();
  run("MPI_Bcast", algo, {data.data(), count * type_size(type), root, comm, 1});
  if (rank != root) data.unpack();
  return MPI_SUCCESS;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  const int64_t bytes = count * type_size(type);
  const MPI_Datatype element = op_element(type, op);
  const Choice algo = pick(Collective::reduce, "MPI_Reduce", comm, bytes, op, element);
  if (!algo.algo) return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  const Reduction reduction(element, type, op, comm);
  Packed in = input(sendbuf, recvbuf, count, type, comm);  // MPI_IN_PLACE only at the root
  Packed out(rank == root ? recvbuf : nullptr, rank == root ? count : 0, type, comm);
  run("MPI_Reduce", algo, reduction.args(rank == root ? out.data() : nullptr, in.data(), count, bytes, comm, root));
  out.unpack();
  return MPI_SUCCESS;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return vector_reduction(Collective::allreduce, "MPI_Allreduce", sendbuf, recvbuf, count, type, op, comm,
                          PMPI_Allreduce);
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return vector_reduction(Collective::scan, "MPI_Scan", sendbuf, recvbuf, count, type, op, comm, PMPI_Scan);
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return vector_reduction(Collective::exscan, "MPI_Exscan", sendbuf, recvbuf, count, type, op, comm, PMPI_Exscan);
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int counts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  int p = 1;
  PMPI_Comm_size(comm, &p);
  return reduce_scatter("MPI_Reduce_scatter", sendbuf, recvbuf, std::vector<int>(counts, counts + p), type, op, comm);
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  int p = 1;
  PMPI_Comm_size(comm, &p);
  return reduce_scatter("MPI_Reduce_scatter_block", sendbuf, recvbuf, std::vector<int>(p, count), type, op, comm);
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int counts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  int64_t total = 0;
  for (int r = 0; r < senders(comm); ++r) total += counts[r];
  const Choice algo = pick(Collective::allgatherv, "MPI_Allgatherv", comm, total * type_size(recvtype));
  if (!algo.algo) return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, counts, displs, recvtype, comm);
  return gather_all("MPI_Allgatherv", algo, sendbuf, sendcount, sendtype, recvbuf, counts, displs, recvtype, comm);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  const int p = senders(comm);
  const Choice algo = pick(Collective::allgatherv, "MPI_Allgather", comm, int64_t{p} * recvcount * type_size(recvtype));
  if (!algo.algo) return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  std::vector<int> counts(p, recvcount), displs(p);
  for (int r = 0; r < p; ++r) displs[r] = r * recvcount;
  return gather_all("MPI_Allgather", algo, sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(),
                    recvtype, comm);
}
