// binary-blocks: seed 004 §2.6 (Fig. 2). p = 2^e0 + 2^e1 + .. (e0 > e1 > ..)
// splits the ranks into blocks of those sizes, the largest first. Every block
// runs the halving reduce-scatter of halving-doubling on its own; then, from
// the smallest block up, each block hands its partial results to the next
// larger block (block b's member with range R sends the pieces of R to the
// 2^(e_{b−1} − e_b) members of block b − 1 whose ranges lie in R), where they
// are folded in on the right. Block 0 then holds the result, one base
// segment (of 2^e0) per member. Allreduce returns the pieces down the chain
// and every block finishes with a doubling allgather; reduce gathers block 0's
// segments with a binomial tree, the root playing rank 0's part when it lies
// outside block 0 (rank 0 sends it its segment first).
//
// Deviation: the paper's figure is not in the transcription; this is its
// text's reading. Pieces between blocks go as concurrent Isend/Irecv, so a
// hand-over of R costs α + |R|β (plus one envelope per piece), and in the
// allgather a block first hands over its results, then runs its own
// allgather (the paper's "pairs of messages" from the larger block, which
// would overlap the two, are not reproduced). The reduce model is for a root
// inside block 0 (else add one α + βm/2^e0).
// Cost: for p a power of two, identical to halving-doubling. Otherwise the
// model follows the critical path: each block's reduce-scatter, the chain of
// hand-overs (each waits for the receiving block's own reduce-scatter), then
// the allgather chain or block 0's gather; with SMPI's envelope and the
// half-duplex rule of reduction_phases.hpp.
// Limits: any p, any root; ⊕ need not be commutative (block b's ranks all
// precede block b + 1's, and within a block distance doubling keeps rank
// order); any count (segments may be empty). Memory: two vectors of m.
// No plan (schedules/plan.hpp): in a hand-over a member of the smaller block
// sends its pieces to (allgather: receives them from) 2^(e_{b−1} − e_b) ≥ 2
// members of the larger block at once, as concurrent Isend/Irecv sharing its
// link; a plan step is one blocking MPI_Sendrecv with one peer each way, and
// those messages one after another take longer, so the plan could not take
// this code's time (for p a power of two it is halving-doubling's plan).
#include <algorithm>
#include <vector>

#include "reduction_phases.hpp"

namespace collsim::sim {

using namespace phases;

namespace {

struct Block {
  int64_t first, size;  // ranks [first, first + size)
};

std::vector<Block> blocks_of(int64_t p) {
  std::vector<Block> bs;
  for (int64_t bit = int64_t{1} << floor_log2(p), first = 0; bit > 0; bit >>= 1)
    if (p & bit) {
      bs.push_back({first, bit});
      first += bit;
    }
  return bs;
}

#ifdef COLLSIM_RANK
// The range halving_reduce_scatter leaves member v of a block of `size`.
Range range_of(int64_t v, int64_t size, int64_t nseg) {
  Range r{0, nseg};
  for (int64_t d = 1; d < size; d <<= 1) {
    const int64_t mid = (r.lo + r.hi) / 2;
    r = (v & d) ? Range{mid, r.hi} : Range{r.lo, mid};
  }
  return r;
}

bool inside(Range a, Range b) { return b.lo <= a.lo && a.hi <= b.hi; }

// Moves pieces from block `from` to block `to`: each member of one block
// exchanges with the members of the other whose ranges nest with its own.
// Receivers fold in on the right (fold) or just store (results).
void hand_over(const Red& red, const Block& from, const Block& to, char* acc, char* tmp, bool fold) {
  const int64_t nseg = red.nseg;
  std::vector<MPI_Request> reqs;
  const bool sending = red.rank >= from.first && red.rank < from.first + from.size;
  const Block& mine = sending ? from : to;
  const Block& other = sending ? to : from;
  const Range my = range_of(red.rank - mine.first, mine.size, nseg);
  std::vector<Range> got;
  for (int64_t u = 0; u < other.size; ++u) {
    const Range r = range_of(u, other.size, nseg);
    if (!inside(r, my) && !inside(my, r)) continue;
    const Range piece = inside(r, my) ? r : my;
    const Span s = red.bytes(piece.lo, piece.hi);
    MPI_Request q;
    if (sending)
      MPI_Isend(acc + s.begin, s.count(), MPI_BYTE, static_cast<int>(other.first + u), 2, red.a.comm, &q);
    else
      MPI_Irecv((fold ? tmp : acc) + s.begin, s.count(), MPI_BYTE, static_cast<int>(other.first + u), 2, red.a.comm, &q);
    reqs.push_back(q);
    got.push_back(piece);
  }
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  if (!sending && fold)
    for (const Range& piece : got) red.append(acc, tmp, red.bytes(piece.lo, piece.hi));
}

struct Place {
  size_t b;   // block index
  int64_t v;  // virtual rank in it
};

Place place_of(const std::vector<Block>& bs, int64_t rank) {
  size_t b = 0;
  while (rank >= bs[b].first + bs[b].size) ++b;
  return {b, rank - bs[b].first};
}

Group group_of(const Block& blk) {
  return {blk.size, [first = blk.first](int64_t v) { return static_cast<int>(first + v); }};
}

// Reduce-scatter and the hand-over chain: afterwards block 0's member v holds
// the result over range_of(v); returns this rank's place.
Place scatter_blocks(const Red& red, const std::vector<Block>& bs, char* acc, char* tmp) {
  const Place me = place_of(bs, red.rank);
  halving_reduce_scatter(red, group_of(bs[me.b]), me.v, acc, tmp);
  if (me.b + 1 < bs.size()) hand_over(red, bs[me.b + 1], bs[me.b], acc, tmp, true);
  if (me.b > 0) hand_over(red, bs[me.b], bs[me.b - 1], acc, tmp, true);
  return me;
}
#endif  // COLLSIM_RANK

// Model: the times block b's reduce-scatter and the hand-over chain end.
std::vector<double> scatter_times(const Net& net, const std::vector<Block>& bs, double m) {
  std::vector<double> ready(bs.size());
  for (size_t b = bs.size(); b-- > 0;) {
    double t = 0;
    for (double piece = m / 2; piece * static_cast<double>(bs[b].size) >= m; piece /= 2)
      t += exchange(net, piece) + net.gamma * piece;
    if (b + 1 < bs.size()) {
      const double seg = m / static_cast<double>(bs[b + 1].size), share = m / static_cast<double>(bs[b].size);
      const double pieces = static_cast<double>(bs[b].size / bs[b + 1].size);
      t = std::max(t, ready[b + 1]) + oneway(net, seg) + (pieces - 1) * static_cast<double>(net.envelope) * net.beta +
          net.gamma * share;
    }
    ready[b] = t;
  }
  return ready;
}

}  // namespace

#ifdef COLLSIM_RANK
void allreduce_binary_blocks(const CollArgs& a) {
  int p = 0;
  MPI_Comm_size(a.comm, &p);
  const std::vector<Block> bs = blocks_of(p);
  const Red red(a, bs[0].size);
  if (a.count == 0) return;
  Scratch unused, tmp(a, Scratch::Kind::vector, a.bytes);
  char* acc = working_copy(red, a.buf, unused);
  const Place me = scatter_blocks(red, bs, acc, tmp.data());
  if (me.b > 0) hand_over(red, bs[me.b - 1], bs[me.b], acc, tmp.data(), false);
  if (me.b + 1 < bs.size()) hand_over(red, bs[me.b], bs[me.b + 1], acc, tmp.data(), false);
  doubling_allgather(red, group_of(bs[me.b]), me.v, range_of(me.v, bs[me.b].size, red.nseg), acc);
}

void reduce_binary_blocks(const CollArgs& a) {
  int p = 0;
  MPI_Comm_size(a.comm, &p);
  const std::vector<Block> bs = blocks_of(p);
  const Red red(a, bs[0].size);
  if (a.count == 0) return;
  Scratch scratch, tmp(a, Scratch::Kind::vector, a.bytes);
  char* acc = working_copy(red, red.rank == a.root ? a.buf : nullptr, scratch);
  const Place me = scatter_blocks(red, bs, acc, tmp.data());
  // Block 0 gathers to the root; a root outside block 0 plays rank 0's part.
  const int root = a.root;
  const bool outside = root >= bs[0].size;
  const Range seg0 = range_of(0, bs[0].size, red.nseg);
  if (outside && red.rank == 0) return red.send(acc, red.bytes(seg0.lo, seg0.hi), root);
  if (me.b > 0 && red.rank != root) return;
  const bool stand_in = outside && red.rank == root;
  if (stand_in) red.recv(acc, red.bytes(seg0.lo, seg0.hi), 0);
  const int64_t v = stand_in ? 0 : me.v;
  const Group g{bs[0].size, [root, outside](int64_t u) { return static_cast<int>(outside && u == 0 ? root : u); }};
  binomial_gather(red, g, v, outside ? 0 : root, range_of(v, bs[0].size, red.nseg), acc);
}
#endif  // COLLSIM_RANK

double model_allreduce_binary_blocks(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const std::vector<Block> bs = blocks_of(p);
  const double m = static_cast<double>(bytes);
  const std::vector<double> ready = scatter_times(net, bs, m);
  // Hand-over from block b to b + 1: the receiver's link carries its whole
  // range, and the senders wait for it before their own allgather.
  auto hand_over_time = [&](size_t b) {
    return oneway(net, m / static_cast<double>(bs[b + 1].size)) +
           static_cast<double>(bs[b].size / bs[b + 1].size - 1) * static_cast<double>(net.envelope) * net.beta;
  };
  double got = ready[0], end = 0;
  for (size_t b = 0; b < bs.size(); ++b) {
    if (b + 1 < bs.size()) got += hand_over_time(b);  // block b + 1 has its range now, block b goes on
    double t = got;
    for (double piece = m / static_cast<double>(bs[b].size); piece < m; piece *= 2) t += exchange(net, piece);
    end = std::max(end, t);
  }
  return end;
}

double model_reduce_binary_blocks(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const std::vector<Block> bs = blocks_of(p);
  const double m = static_cast<double>(bytes);
  double t = scatter_times(net, bs, m)[0];
  for (double piece = m / static_cast<double>(bs[0].size); piece < m; piece *= 2) t += oneway(net, piece);
  return t;
}

}  // namespace collsim::sim
