// two-tree: the pipelined parallel prefix on two inorder binary trees
// (Sanders, Speck, Träff, seed 002 §2.3), as MPI_Scan and MPI_Exscan.
//
// No plan (schedules/plan.hpp) can say this: a plan keeps one accumulator
// per block and sends it, the input or their ⊕, while a rank here holds
// several values of a block at once (A = L ⊕ V kept for the down phase
// while S = A ⊕ R goes up; the parent's P passed on to the left child and
// P ⊕ A to the right one), and it takes blocks from up to three peers as
// they arrive (receives posted up front, MPI_Waitany), in no fixed order
// of steps.
//
// The vector is cut in two halves; half t goes through tree Tt (t = 1, 2) of
// schedules/two_tree.hpp built over all p ranks: TwoTree(p + 1, p) puts the
// broadcast root at the fictitious rank p, so virtual ranks are real ranks
// and both trees are inorder trees on 0..p-1 (a rank is interior in at most
// one of them). In an inorder tree a node x's subtree holds the ranks
// [lo(x), hi(x)] with x in between, its left subtree [lo(x), x-1], its right
// subtree [x+1, hi(x)]. Each half is cut into n blocks; per block:
//
//   up phase   A = L ⊕ V_x            (L: sum of the left subtree, received)
//              S = A ⊕ R  -> parent   (R: sum of the right subtree, received)
//   down phase P = [0, lo(x) - 1]      received from the parent (empty when
//                                      lo(x) = 0: no message at all)
//              P -> left child         (its lo is lo(x))
//              P ⊕ A = [0, x] -> right child (its lo is x + 1)
//              scan: P ⊕ A;  exscan: P ⊕ L = [0, x - 1]
//
// Every ⊕ has the lower ranks on the left, so the order is kept: correct for
// non-commutative operators. Blocks move as soon as their data are there
// (all receives posted up front, MPI_Waitany on the next needed ones), not by
// the paper's 0/1-coloured lock-step schedule; the two trees run at once.
//
// Cost (the paper's steps, seed 002 §2.3): with N = 2n blocks in all, each of
// ⌈m/2n⌉ bytes, 4h − 2 + 2(N − 2) communication steps, h = ⌈log2(p + 1)⌉ the
// height of an inorder tree over p ranks (the paper's 2^h − 1 ≥ p; its h
// counts levels). Deviation: Theorem 2's closed form, as extracted,
// "2((2h−3) + 2√((2h−3)α)√(βm/2) + βm)", is the minimum over N of these steps
// × (α + βm/N) only with √(βm) and (2h−3)α; the model uses the step count,
// not the garbled formula, and adds γ per block per step for the ⊕ (the
// paper leaves computation out). A rank receives 2m bytes in all (3 blocks
// per block index in the tree where it is interior, 1 where it is a leaf).
// ⊕ per rank: up to 3 per element of its interior tree's half (exscan: 4) and
// 1 of its leaf tree's half (exscan: 1 or 0), i.e. at most 2m (exscan 2.5m).
// Limits: any p ≤ 2^31 − 2, any count, n clamped to the larger half's
// element count (blocks are cut at element boundaries).
// Memory: four scratch vectors of m bytes (L, R, A, P) and 3n requests per
// tree.
#include <algorithm>
#include <vector>

#include "catalog.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#endif  // COLLSIM_RANK
#include "two_tree.hpp"
#ifdef COLLSIM_RANK
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
namespace {

// A rank's place in one tree: -1 where there is no such neighbour.
struct Role {
  int parent = -1, left = -1, right = -1;
  bool has_prefix = false;  // lo(x) > 0: P is not empty and comes from the parent
};

Role role_in(const TwoTree& tt, int tree, int64_t x) {
  Role role;
  const int64_t up = tt.parent(tree, x);
  role.parent = up == tt.root() ? -1 : static_cast<int>(up);
  int64_t kids[2];
  const int n = tt.children(tree, x, kids);
  for (int i = 0; i < n; ++i) (kids[i] < x ? role.left : role.right) = static_cast<int>(kids[i]);
  // lo(x): follow left children down (O(log p) steps of O(log p)).
  int64_t lo = x;
  for (int k = tt.children(tree, lo, kids); k > 0 && kids[0] < lo; k = tt.children(tree, lo, kids)) lo = kids[0];
  role.has_prefix = lo > 0;
  return role;
}

int tag(int tree, bool down) { return 2 * tree + (down ? 1 : 0); }

// One tree's half of the vector and its progress.
struct Half {
  Role role;
  int64_t first = 0, count = 0;       // elements
  std::vector<MPI_Request> l, r, pr;  // per block: left sum, right sum, prefix
  int64_t up = 0, down = 0;           // next block of each phase
};

class TwoTreeScan {
 public:
  TwoTreeScan(const CollArgs& a, bool exclusive) : a_(a), exclusive_(exclusive) {
    MPI_Comm_size(a.comm, &p_);
    MPI_Comm_rank(a.comm, &rank_);
    elem_ = a.bytes / a.count;
    for (auto* buf : {&l_, &r_, &a_buf_, &p_buf_}) *buf = Scratch(a, Scratch::Kind::vector, a.bytes);
    const int64_t first_half = (a.count + 1) / 2;
    n_ = std::max<int64_t>(1, std::min(a.blocks, first_half));
    const TwoTree tt(int64_t{p_} + 1, p_);
    for (int t = 0; t < 2; ++t) {
      halves_[t].role = role_in(tt, t + 1, rank_);
      halves_[t].first = t == 0 ? 0 : first_half;
      halves_[t].count = t == 0 ? first_half : a.count - first_half;
      post_receives(t);
    }
  }

  void run() {
    std::vector<MPI_Request*> heads;
    std::vector<MPI_Request> copies;
    for (;;) {
      for (int t = 0; t < 2; ++t) advance(t);
      heads.clear();
      for (Half& h : halves_) {
        if (h.up < n_)
          for (MPI_Request* q : {&h.l[h.up], &h.r[h.up]})
            if (*q != MPI_REQUEST_NULL) heads.push_back(q);
        if (h.down < h.up && h.pr[h.down] != MPI_REQUEST_NULL) heads.push_back(&h.pr[h.down]);
      }
      if (heads.empty()) break;  // advance() left nothing waiting: both trees are done
      copies.clear();
      for (MPI_Request* q : heads) copies.push_back(*q);
      int done = 0;
      MPI_Waitany(static_cast<int>(copies.size()), copies.data(), &done, MPI_STATUS_IGNORE);
      *heads[done] = MPI_REQUEST_NULL;
    }
    MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
  }

 private:
  struct Block {
    int64_t offset;  // bytes
    int count;       // elements
  };
  Block block(const Half& h, int64_t b) const {
    const Span s = block_span(h.count, n_, b);
    return {(h.first + s.begin) * elem_, s.count()};
  }

  void post_receives(int t) {
    Half& h = halves_[t];
    for (auto* list : {&h.l, &h.r, &h.pr}) list->assign(static_cast<size_t>(n_), MPI_REQUEST_NULL);
    for (int64_t b = 0; b < n_; ++b) {
      const Block k = block(h, b);
      if (h.role.left >= 0) irecv(l_, k, h.role.left, tag(t, false), &h.l[b]);
      if (h.role.right >= 0) irecv(r_, k, h.role.right, tag(t, false), &h.r[b]);
      if (h.role.has_prefix) irecv(p_buf_, k, h.role.parent, tag(t, true), &h.pr[b]);
    }
  }

  void irecv(Scratch& buf, Block k, int from, int tg, MPI_Request* q) {
    MPI_Irecv(buf.data() + k.offset, k.count, a_.type, from, tg, a_.comm, q);
  }
  void isend(Scratch& buf, Block k, int to, int tg) {
    sends_.emplace_back();
    MPI_Isend(buf.data() + k.offset, k.count, a_.type, to, tg, a_.comm, &sends_.back());
  }
  // inout = in ⊕ inout on one block.
  void combine(Scratch& in, Scratch& inout, Block k) {
    MPI_Reduce_local(in.data() + k.offset, inout.data() + k.offset, k.count, a_.type, a_.op);
  }
  void copy(char* to, const void* from, Block k) {
    copy_real(to + k.offset, static_cast<const char*>(from) + k.offset, k.count * elem_);
  }

  // Runs every block of tree t whose inputs have arrived.
  void advance(int t) {
    Half& h = halves_[t];
    auto arrived = [](MPI_Request q) { return q == MPI_REQUEST_NULL; };
    while (h.up < n_ && arrived(h.l[h.up]) && arrived(h.r[h.up])) up(t, h.up++);
    while (h.down < h.up && arrived(h.pr[h.down])) down(t, h.down++);
  }

  void up(int t, int64_t b) {
    const Half& h = halves_[t];
    const Block k = block(h, b);
    copy(a_buf_.data(), a_.sendbuf, k);
    if (h.role.left >= 0) combine(l_, a_buf_, k);  // A = L ⊕ V
    if (h.role.parent < 0) return;
    // S = A ⊕ R goes up from R's buffer: A changes in the down phase while
    // the send may still be in flight.
    if (h.role.right >= 0)
      combine(a_buf_, r_, k);
    else
      copy(r_.data(), a_buf_.data(), k);
    isend(r_, k, h.role.parent, tag(t, false));
  }

  void down(int t, int64_t b) {
    const Half& h = halves_[t];
    const Block k = block(h, b);
    char* result = static_cast<char*>(a_.buf);
    if (exclusive_) {  // [0, x-1] = P ⊕ L; rank 0 (no P, no L) has none
      if (h.role.has_prefix && h.role.left >= 0) combine(p_buf_, l_, k);
      if (h.role.left >= 0)
        copy(result, l_.data(), k);
      else if (h.role.has_prefix)
        copy(result, p_buf_.data(), k);
    }
    if (h.role.has_prefix) {
      combine(p_buf_, a_buf_, k);  // [0, x] = P ⊕ A
      if (h.role.left >= 0) isend(p_buf_, k, h.role.left, tag(t, true));
    }
    if (h.role.right >= 0) isend(a_buf_, k, h.role.right, tag(t, true));
    if (!exclusive_) copy(result, a_buf_.data(), k);
  }

  const CollArgs& a_;
  bool exclusive_;
  int p_ = 0, rank_ = 0;
  int64_t elem_ = 1, n_ = 1;
  Scratch l_, r_, a_buf_, p_buf_;
  Half halves_[2];
  std::vector<MPI_Request> sends_;
};

void run_two_tree(const CollArgs& a, bool exclusive) {
  int p = 0;
  MPI_Comm_size(a.comm, &p);
  if (a.count == 0) return;
  if (p == 1) {
    if (!exclusive) copy_real(a.buf, a.sendbuf, a.bytes);
    return;
  }
  TwoTreeScan(a, exclusive).run();
}

}  // namespace

void scan_two_tree(const CollArgs& a) { run_two_tree(a, false); }
void exscan_two_tree(const CollArgs& a) { run_two_tree(a, true); }
#endif  // COLLSIM_RANK

// 4h − 2 + 2(N − 2) steps of one block of ⌈m/N⌉ bytes, N = 2n (see above).
double model_scan_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p <= 1 || bytes == 0) return 0;
  int64_t h = 0;
  while ((int64_t{1} << h) - 1 < p) ++h;
  const int64_t big_n = 2 * blocks, block = (bytes + big_n - 1) / big_n;
  const double steps = static_cast<double>(4 * h - 2 + 2 * (big_n - 2));
  return steps * (net.message(block) + net.gamma * static_cast<double>(block));
}


double model_exscan_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return model_scan_two_tree(net, p, bytes, blocks);  // the same steps; only the last ⊕ differs
}

}  // namespace collsim::sim
