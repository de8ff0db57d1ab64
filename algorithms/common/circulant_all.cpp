#include "circulant_all.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

#include "circulant_plan.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#include "scale.hpp"
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
namespace {

// One move of a broadcast: virtual rank v sends or receives `block`.
struct Move {
  int32_t v, block;
};

// The moves of one round in one direction: by increasing v, and how many
// move each block (for the message length when all segments are equal).
struct Moves {
  std::vector<Move> by_v;
  std::vector<std::pair<int64_t, int64_t>> per_block;  // (block, moves)
  void count_blocks() {
    std::vector<int32_t> blocks;
    for (const Move& m : by_v) blocks.push_back(m.block);
    std::sort(blocks.begin(), blocks.end());
    for (size_t i = 0; i < blocks.size(); ++i)
      if (i == 0 || blocks[i] != blocks[i - 1])
        per_block.push_back({blocks[i], 1});
      else
        ++per_block.back().second;
  }
};

// Rank r plays, for root j, virtual rank (r − j) mod p: the same p plans for
// every rank, so one table of them serves all ranks of a process (SMPI runs
// every rank in one; the table is read-only once built): per round, the
// moves of all virtual ranks.
struct PlanTable {
  int64_t p, n, first = 0;
  std::vector<Moves> sends, recvs;  // [round − first]
  PlanTable(int64_t p_, int64_t n_) : p(p_), n(n_) {
    const CirculantSchedule s(p);
    if (s.q() == 0) return;
    for (int64_t v = 0; v < p; ++v) {
      const CirculantPlan plan(s, v, n);
      first = plan.first();
      sends.resize(static_cast<size_t>(plan.end() - first));
      recvs.resize(sends.size());
      for (int64_t i = first; i < plan.end(); ++i) {
        const auto at = static_cast<size_t>(i - first);
        const int64_t out = plan.send_block(i), in = plan.recv_block(i);
        if (out >= 0) sends[at].by_v.push_back({static_cast<int32_t>(v), static_cast<int32_t>(out)});
        if (in >= 0) recvs[at].by_v.push_back({static_cast<int32_t>(v), static_cast<int32_t>(in)});
      }
    }
    for (auto* list : {&sends, &recvs})
      for (Moves& m : *list) m.count_blocks();
  }
  int64_t end() const { return first + static_cast<int64_t>(sends.size()); }
};

// The table for (p, n), built by the first rank that asks; the last one is
// kept (a rank keeps its own reference while it runs).
std::shared_ptr<const PlanTable> plan_table(int64_t p, int64_t n) {
  static std::mutex lock;
  static std::shared_ptr<const PlanTable> last;
  const std::lock_guard<std::mutex> hold(lock);
  if (!last || last->p != p || last->n != n) last = std::make_shared<const PlanTable>(p, n);
  return last;
}

// One piece of a message: segment j's block, in units.
struct Piece {
  int64_t begin, length;
};

// Calls f(j, block) for rank r's moves in root order j = 0, 1, .., p − 1
// (v = r, r − 1, .., 0, then p − 1, .., r + 1) until f returns false.
template <class F>
void in_root_order(const std::vector<Move>& moves, int64_t r, int64_t p, F f) {
  const auto split = std::upper_bound(moves.begin(), moves.end(), r, [](int64_t x, const Move& m) { return x < m.v; });
  for (auto it = split; it != moves.begin();)
    if (--it, !f(r - it->v, it->block)) return;
  for (auto it = moves.end(); it != split;)
    if (--it, !f(r - it->v + p, it->block)) return;
}

// The message buffers, each large enough for any round: at most the first
// (largest) block of every segment. Packed in root order, which in scale
// mode is increasing vector order (Segments), so a packed scratch keeps every
// window unit (window.hpp).
struct Messages {
  Scratch out, in, mine;  // mine: the rank's own partial blocks (reductions)
  // Vector units from `limit` on are never real (scale mode: the window's end).
  int64_t limit = INT64_MAX;
  int64_t same = -1;  // every segment's length where all are equal, else −1
  bool scale = false;
  Messages(const CollArgs& a, const Segments& seg, bool reduces) : scale(a.scale) {
    int64_t most = 0;
    same = seg(0).count();
    for (int64_t j = 0; j < seg.p; ++j) {
      most += block_span(seg(j).count(), a.blocks, 0).count();
      if (seg(j).count() != same) same = -1;
    }
    out = Scratch(a, Scratch::Kind::packed, most * seg.unit);
    in = Scratch(a, Scratch::Kind::packed, most * seg.unit);
    if (reduces) mine = Scratch(a, Scratch::Kind::packed, most * seg.unit);
    if (a.scale) limit = 2 * kWindowUnits;
  }
  // One round's exchange of `send` and `recv` bytes; an empty message is not sent.
  void exchange(int64_t send, int to, int64_t recv, int from, MPI_Comm comm) {
    MPI_Sendrecv(out.data(), static_cast<int>(send), MPI_BYTE, send == 0 ? MPI_PROC_NULL : to, 0, in.data(),
                 static_cast<int>(recv), MPI_BYTE, recv == 0 ? MPI_PROC_NULL : from, 0, comm, MPI_STATUS_IGNORE);
  }
  // Copies pieces of buf into msg (pack) or msg into pieces of buf (unpack);
  // the pieces' vector positions say which units are real.
  void copy(char* buf, const std::vector<Piece>& ps, int unit, char* msg, bool pack) const {
    for (const Piece& p : ps) {
      char* piece = buf + p.begin * unit;
      pack ? copy_units(msg, piece, p.begin, p.length, unit, scale) : copy_units(piece, msg, p.begin, p.length, unit, scale);
      msg += p.length * unit;
    }
  }
};

// What rank r moves in one round: the message's length in units, and its
// pieces in root order up to the first segment that starts at `limit`.
struct Round {
  int64_t total = 0;
  std::vector<Piece> pieces;
  Round(const Moves& moves, const Segments& seg, int64_t n, int64_t r, const Messages& msg) {
    const bool all = msg.same < 0 || msg.limit == INT64_MAX;  // the walk sums the length too
    in_root_order(moves.by_v, r, seg.p, [&](int64_t j, int64_t b) {
      const Span s = seg(j);
      if (!all && s.begin >= msg.limit) return false;
      const Span part = block_span(s.count(), n, b);
      if (part.count() == 0) return true;
      if (s.begin < msg.limit) pieces.push_back({s.begin + part.begin, part.count()});
      total += part.count();
      return true;
    });
    if (all) return;
    total = 0;
    for (const auto& [b, moved] : moves.per_block) total += moved * block_span(msg.same, n, b).count();
  }
};

// One pass over the rounds of the all-to-all plan: forwards for the
// allgather, or backwards with the roles of sends and receives swapped for
// the reduce-scatter (Träff's reduction by reversal; only then is a scratch
// for the rank's own partials needed). Each round packs what this rank
// sends from buf, exchanges, and hands the message that came in, with its
// pieces, to `arrived`.
template <class Arrived>
void run_rounds(const CollArgs& a, char* buf, const Segments& seg, bool reversed, Arrived arrived) {
  int p = 0, r = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &r);
  const CirculantSchedule s(p);
  if (s.q() == 0) return;
  const auto table = plan_table(p, a.blocks);
  Messages msg(a, seg, reversed);
  for (int64_t step = 0; step < table->end() - table->first; ++step) {
    const int64_t i = reversed ? table->end() - 1 - step : table->first + step;
    const auto at = static_cast<size_t>(i - table->first);
    const int k = static_cast<int>(i % s.q());
    const Moves *out = &table->sends[at], *in = &table->recvs[at];
    auto to = static_cast<int>(s.to(r, k)), from = static_cast<int>(s.from(r, k));
    if (reversed) std::swap(out, in), std::swap(to, from);
    const Round send(*out, seg, a.blocks, r, msg), recv(*in, seg, a.blocks, r, msg);
    msg.copy(buf, send.pieces, seg.unit, msg.out.data(), true);
    msg.exchange(send.total * seg.unit, to, recv.total * seg.unit, from, a.comm);
    arrived(msg, recv);
  }
}

}  // namespace

void circulant_allgather(const CollArgs& a, char* buf, const Segments& seg) {
  run_rounds(a, buf, seg, false, [&](Messages& msg, const Round& recv) {
    msg.copy(buf, recv.pieces, seg.unit, msg.in.data(), false);
  });
}

// Backwards: round i's receives become sends of partial results and its
// sends become receives, combined into acc. A rank only forwards a block
// after it has it, so no partial sent in round i is combined into in round i.
void circulant_reduce_scatter(const CollArgs& a, char* acc, const Segments& seg) {
  run_rounds(a, acc, seg, true, [&](Messages& msg, const Round& recv) {
    if (recv.total == 0) return;
    // mine = in ⊕ mine over the whole message, mine being acc's pieces.
    msg.copy(acc, recv.pieces, seg.unit, msg.mine.data(), true);
    MPI_Reduce_local(msg.in.data(), msg.mine.data(), static_cast<int>(recv.total), a.type, a.op);
    msg.copy(acc, recv.pieces, seg.unit, msg.mine.data(), false);
  });
}
#endif  // COLLSIM_RANK

namespace {

// Σ of cost(skip[i mod q]) over the rounds i in [first, end): each skip's
// rounds are counted, not walked (n may be large).
template <typename Cost>
double sum_over_rounds(const CirculantSchedule& s, int64_t first, int64_t end, const Cost& cost) {
  const int64_t q = s.q();
  double t = 0;
  for (int k = 0; k < q; ++k) {
    // The rounds i < x with i mod q == k.
    const auto below = [q, k](int64_t x) { return x > k ? (x - k + q - 1) / q : 0; };
    const int64_t count = below(end) - below(first);
    if (count > 0) t += static_cast<double>(count) * cost(s.skip(k));
  }
  return t;
}

}  // namespace

double circulant_rounds_on_nodes(const Net& net, int64_t p, int64_t blocks, int64_t b, bool reduces) {
  const CirculantSchedule s(p);
  const int64_t q = s.q(), x = (q - (blocks - 1) % q) % q;
  const double vol = static_cast<double>(b), compute = reduces ? net.gamma * vol : 0;
  return sum_over_rounds(s, x, x + blocks - 1 + q,
                         [&](int64_t skip) { return net.shift_round(p, skip, vol) + compute; });
}

double circulant_all_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks, bool reduces) {
  const CirculantSchedule s(p);
  if (s.q() == 0 || bytes == 0) return 0;
  // The largest block: of a segment of ⌈units/p⌉ whole elements.
  const int64_t units = bytes / net.element, b = ((units + p - 1) / p + blocks - 1) / blocks * net.element;
  const double fbeta = net.full_duplex ? 1.0 : 2.0;
  // c blocks each over skip: on nodes of several ranks the node's link is
  // shared (Net::shift_round).
  auto round = [&](int64_t c, int64_t skip) {
    const double vol = static_cast<double>(c * b);
    return net.shift_round(p, skip, vol, fbeta) + (reduces ? net.gamma * vol : 0);
  };
  // c_i, the receipts of round i over one broadcast's virtual ranks (every
  // rank moves the same number). From round 2q on every non-root receives
  // a block u ≥ q − x > 0, real until the capped tail (u ≥ n − 1 needs
  // i ≥ n + x − q): c_i = p − 1 there, so only the first and last rounds
  // are counted, virtual rank by virtual rank (O(pq²) time for any n, which
  // the block policy's search needs, and O(q) memory).
  const CirculantPlan root_plan(s, 0, blocks, false);
  const int64_t first = root_plan.first(), end = root_plan.end();
  const int64_t steady_from = 2 * s.q(), steady_to = blocks + first - s.q();
  const bool steady = steady_to > steady_from;
  // The counted rounds: [first, end) without [steady_from, steady_to).
  const int64_t gap_from = steady ? steady_from : end, gap_to = steady ? steady_to : end;
  auto each_counted = [&](auto&& f) {
    for (int64_t i = first; i < std::min(gap_from, end); ++i) f(i);
    for (int64_t i = std::max(gap_to, first); i < end; ++i) f(i);
  };
  std::vector<int64_t> receipts(static_cast<size_t>(end - first), 0);
  for (int64_t v = 1; v < p; ++v) {
    const CirculantPlan plan(s, v, blocks, false);
    each_counted([&](int64_t i) { receipts[static_cast<size_t>(i - first)] += plan.recv_block(i) >= 0; });
  }
  double t = steady ? sum_over_rounds(s, steady_from, steady_to, [&](int64_t skip) { return round(p - 1, skip); }) : 0;
  each_counted([&](int64_t i) { t += round(receipts[static_cast<size_t>(i - first)], s.skip(static_cast<int>(i % s.q()))); });
  return t;
}

}  // namespace collsim::sim
