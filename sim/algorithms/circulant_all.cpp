#include "circulant_all.hpp"

#include "circulant_plan.hpp"
#include "collective.hpp"
#include "window.hpp"

namespace collsim::sim {

namespace {

// One piece of a message: segment j's block, in units.
struct Piece {
  int64_t begin, length;
};

// Every root's plan for rank r: plans[j] sees r as virtual rank (r − j) mod p.
std::vector<CirculantPlan> all_plans(const CirculantSchedule& s, int64_t r, int64_t n) {
  std::vector<CirculantPlan> plans;
  plans.reserve(static_cast<size_t>(s.p()));
  for (int64_t j = 0; j < s.p(); ++j) plans.emplace_back(s, virtual_rank(r, j, s.p()), n);
  return plans;
}

// The pieces moved in round i: sent (to t) or received (from f).
std::vector<Piece> pieces(const std::vector<CirculantPlan>& plans, const Segments& seg, int64_t n, int64_t i,
                          bool sending) {
  std::vector<Piece> out;
  for (size_t j = 0; j < plans.size(); ++j) {
    const int64_t b = sending ? plans[j].send_block(i) : plans[j].recv_block(i);
    if (b < 0) continue;
    const Span s = block_span(seg.length[j], n, b);
    if (s.count() > 0) out.push_back({seg.offset[j] + s.begin, s.count()});
  }
  return out;
}

int64_t total(const std::vector<Piece>& ps) {
  int64_t sum = 0;
  for (const Piece& p : ps) sum += p.length;
  return sum;
}

// Copies pieces of buf into msg (pack) or msg into pieces of buf (unpack).
void copy_pieces(char* buf, const std::vector<Piece>& ps, int unit, char* msg, bool pack) {
  for (const Piece& p : ps) {
    char* piece = buf + p.begin * unit;
    const int64_t len = p.length * unit;
    pack ? copy_real(msg, piece, len) : copy_real(piece, msg, len);
    msg += len;
  }
}

// The two message buffers, each large enough for any round: at most the
// first (largest) block of every segment. Packed in root order, that is in
// increasing vector order (the segments' offsets increase with the root).
struct Messages {
  Scratch out, in;
  Messages(const CollArgs& a, const Segments& seg) {
    int64_t most = 0;
    for (int64_t length : seg.length) most += block_span(length, a.blocks, 0).count();
    out = Scratch(a, Scratch::Kind::packed, most * seg.unit);
    in = Scratch(a, Scratch::Kind::packed, most * seg.unit);
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
  const int64_t n = a.blocks;
  const std::vector<CirculantPlan> plans = all_plans(s, r, n);
  Messages msg(a, seg);
  for (int64_t i = plans[0].first(); i < plans[0].end(); ++i) {
    const int k = static_cast<int>(i % s.q());
    const std::vector<Piece> send = pieces(plans, seg, n, i, true), recv = pieces(plans, seg, n, i, false);
    copy_pieces(buf, send, seg.unit, msg.out.data(), true);
    msg.exchange(total(send) * seg.unit, static_cast<int>(s.to(r, k)), total(recv) * seg.unit,
                 static_cast<int>(s.from(r, k)), a.comm);
    copy_pieces(buf, recv, seg.unit, msg.in.data(), false);
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
  const int64_t n = a.blocks;
  const std::vector<CirculantPlan> plans = all_plans(s, r, n);
  Messages msg(a, seg);
  for (int64_t i = plans[0].end() - 1; i >= plans[0].first(); --i) {
    const int k = static_cast<int>(i % s.q());
    const std::vector<Piece> send = pieces(plans, seg, n, i, false), recv = pieces(plans, seg, n, i, true);
    copy_pieces(acc, send, seg.unit, msg.out.data(), true);
    msg.exchange(total(send) * seg.unit, static_cast<int>(s.from(r, k)), total(recv) * seg.unit,
                 static_cast<int>(s.to(r, k)), a.comm);
    const char* in = msg.in.data();
    for (const Piece& pc : recv) {
      MPI_Reduce_local(in, acc + pc.begin * seg.unit, static_cast<int>(pc.length), a.type, a.op);
      in += pc.length * seg.unit;
    }
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
