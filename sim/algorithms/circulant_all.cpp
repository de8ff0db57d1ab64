#include "circulant_all.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>

#include "circulant_plan.hpp"
#include "collective.hpp"
#include "scale.hpp"
#include "window.hpp"

namespace collsim::sim {

namespace {

// One move of a broadcast: virtual rank v sends or receives `block`.
struct Move {
  int32_t v, block;
};

// Rank r plays, for root j, virtual rank (r − j) mod p: the same p plans for
// every rank, so one table of them serves all ranks of a process (SMPI runs
// every rank in one; the table is read-only once built). For each round,
// the moves of all virtual ranks in increasing v.
struct PlanTable {
  int64_t p, n, first = 0;
  std::vector<std::vector<Move>> sends, recvs;  // [round − first]
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
        if (plan.send_block(i) >= 0) sends[at].push_back({static_cast<int32_t>(v), static_cast<int32_t>(plan.send_block(i))});
        if (plan.recv_block(i) >= 0) recvs[at].push_back({static_cast<int32_t>(v), static_cast<int32_t>(plan.recv_block(i))});
      }
    }
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

// What rank r moves in one round: the message's length in units, and its
// pieces in root order (j = 0, 1, .., p − 1) up to the first that starts at
// or after `limit` units into the message (beyond the window nothing is real
// in scale mode; no limit otherwise). Root order is v = r, r − 1, .., 0,
// then p − 1, .., r + 1.
struct Round {
  int64_t total = 0;
  std::vector<Piece> pieces;
  Round(const std::vector<Move>& moves, const Segments& seg, int64_t n, int64_t r, int64_t limit) {
    auto add = [&](int64_t j, int64_t b) {
      const Span part = block_span(seg(j).count(), n, b);
      if (part.count() == 0) return;
      if (total < limit) pieces.push_back({seg(j).begin + part.begin, part.count()});
      total += part.count();
    };
    const auto split = std::upper_bound(moves.begin(), moves.end(), r, [](int64_t x, const Move& m) { return x < m.v; });
    for (auto it = split; it != moves.begin();) --it, add(r - it->v, it->block);
    for (auto it = moves.end(); it != split;) --it, add(r - it->v + seg.p, it->block);
  }
};

// Copies pieces of buf into msg (pack) or msg into pieces of buf (unpack).
void copy_pieces(char* buf, const std::vector<Piece>& ps, int unit, char* msg, bool pack) {
  for (const Piece& p : ps) {
    char* piece = buf + p.begin * unit;
    const int64_t len = p.length * unit;
    pack ? copy_real(msg, piece, len) : copy_real(piece, msg, len);
    msg += len;
  }
}

// The message buffers, each large enough for any round: at most the first
// (largest) block of every segment. Packed in root order, that is in
// increasing vector order, so in scale mode a packed scratch keeps every
// window unit (window.hpp); `limit` is then the window, in units.
struct Messages {
  Scratch out, in, mine;  // mine: the rank's own partial blocks (reductions)
  int64_t limit = INT64_MAX;
  Messages(const CollArgs& a, const Segments& seg, bool reduces) {
    int64_t most = 0;
    for (int64_t j = 0; j < seg.p; ++j) most += block_span(seg(j).count(), a.blocks, 0).count();
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
};

}  // namespace

void circulant_allgather(const CollArgs& a, char* buf, const Segments& seg) {
  int p = 0, r = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &r);
  const CirculantSchedule s(p);
  if (s.q() == 0) return;
  const auto table = plan_table(p, a.blocks);
  Messages msg(a, seg, false);
  for (int64_t i = table->first; i < table->end(); ++i) {
    const auto at = static_cast<size_t>(i - table->first);
    const int k = static_cast<int>(i % s.q());
    const Round send(table->sends[at], seg, a.blocks, r, msg.limit), recv(table->recvs[at], seg, a.blocks, r, msg.limit);
    copy_pieces(buf, send.pieces, seg.unit, msg.out.data(), true);
    msg.exchange(send.total * seg.unit, static_cast<int>(s.to(r, k)), recv.total * seg.unit,
                 static_cast<int>(s.from(r, k)), a.comm);
    copy_pieces(buf, recv.pieces, seg.unit, msg.in.data(), false);
  }
}

// Backwards: round i's receives become sends of partial results and its
// sends become receives, combined into acc. A rank only forwards a block
// after it has it, so no partial sent in round i is combined into in round i.
void circulant_reduce_scatter(const CollArgs& a, char* acc, const Segments& seg) {
  int p = 0, r = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &r);
  const CirculantSchedule s(p);
  if (s.q() == 0) return;
  const auto table = plan_table(p, a.blocks);
  Messages msg(a, seg, true);
  for (int64_t i = table->end() - 1; i >= table->first; --i) {
    const auto at = static_cast<size_t>(i - table->first);
    const int k = static_cast<int>(i % s.q());
    const Round send(table->recvs[at], seg, a.blocks, r, msg.limit), recv(table->sends[at], seg, a.blocks, r, msg.limit);
    copy_pieces(acc, send.pieces, seg.unit, msg.out.data(), true);
    msg.exchange(send.total * seg.unit, static_cast<int>(s.from(r, k)), recv.total * seg.unit,
                 static_cast<int>(s.to(r, k)), a.comm);
    if (recv.total == 0) continue;
    // mine = in ⊕ mine over the whole message, mine being acc's pieces.
    copy_pieces(acc, recv.pieces, seg.unit, msg.mine.data(), true);
    MPI_Reduce_local(msg.in.data(), msg.mine.data(), static_cast<int>(recv.total), a.type, a.op);
    copy_pieces(acc, recv.pieces, seg.unit, msg.mine.data(), false);
  }
}

double circulant_all_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks, bool reduces) {
  const CirculantSchedule s(p);
  if (s.q() == 0 || bytes == 0) return 0;
  const int64_t b = ((bytes + p - 1) / p + blocks - 1) / blocks;
  // c_i from one broadcast's plans (every rank moves the same number).
  std::vector<CirculantPlan> plans;
  plans.reserve(static_cast<size_t>(p));
  for (int64_t v = 0; v < p; ++v) plans.emplace_back(s, v, blocks);
  const double fbeta = net.full_duplex ? 1.0 : 2.0;
  auto round = [&](int64_t c) {
    const double vol = static_cast<double>(c * b);
    return net.alpha + fbeta * (vol + static_cast<double>(net.envelope)) * net.beta + (reduces ? net.gamma * vol : 0);
  };
  // From round 2q on every non-root receives a block u ≥ q − x > 0, real
  // until the capped tail (u ≥ n − 1 needs i ≥ n + x − q): c_i = p − 1 there,
  // so only the first and last rounds are counted (the model stays O(pq²)
  // for any n, which the block policy's search needs).
  const int64_t first = plans[0].first(), end = plans[0].end();
  const int64_t steady_from = 2 * s.q(), steady_to = blocks + first - s.q();
  double t = 0;
  for (int64_t i = first; i < end; ++i) {
    if (i == steady_from && steady_to > steady_from) {
      t += static_cast<double>(steady_to - steady_from) * round(p - 1);
      i = steady_to - 1;
      continue;
    }
    int64_t c = 0;
    for (const CirculantPlan& pl : plans) c += pl.recv_block(i) >= 0;
    t += round(c);
  }
  return t;
}

}  // namespace collsim::sim
