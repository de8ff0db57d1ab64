// binary-blocks' cost model (reduce/ and allreduce/binary_blocks.cpp): the
// plan's steps replayed on the α-β-γ clocks.
#pragma once

#include <algorithm>
#include <vector>

#include "halving_ranges.hpp"
#include "reduction_phases.hpp"

namespace collsim::sim::phases {

using plan::halved_range;
using plan::RankBlock;
using plan::SegmentRange;

// The model replays the plan's steps member by member with SMPI's rules
// (a message starts when both ends have posted it, a step ends when its
// messages have, plus γ for what it folds in): the hand-over chain makes
// members of one block finish at different times (the last one a sender
// serves waits for the others), and with fewer elements than segments the
// cut is uneven, so no one member's path is the critical one. O(p log p)
// time, four doubles per rank.
class Replay {
 public:
  Replay(const Net& net, int64_t p, int64_t bytes)
      : net_(net), blocks_(plan::binary_blocks(p)), nseg_(blocks_[0].size), cut_{net, bytes, nseg_} {
    for (const RankBlock& b : blocks_) clock_.push_back(halving(b));
    fold_up();
  }

  double allreduce() {
    std::vector<std::vector<double>> sent(blocks_.size());  // a member's hand-down send done
    std::vector<double> got = clock_[0];                    // a member has its results
    for (size_t b = 1; b < blocks_.size(); ++b) {
      sent[b - 1] = got;
      got = hand_down(b, got, sent[b - 1]);
    }
    sent.back() = got;
    double end = 0;
    for (size_t b = 0; b < blocks_.size(); ++b) end = std::max(end, allgather(blocks_[b], sent[b]));
    return end;
  }

  // Reduce to rank 0: block 0's binomial gather.
  double reduce() {
    std::vector<double> clock = clock_[0];
    double end = last(clock);
    for (size_t b = 1; b < blocks_.size(); ++b) end = std::max(end, last(clock_[b]));
    for (int64_t d = nseg_ / 2, width = 1; d >= 1; d /= 2, width *= 2)
      for (int64_t v = d; v < 2 * d; ++v) {  // the senders (the others have sent, or receive)
        const int64_t lo = halved_range(v, lg(nseg_), nseg_).lo & ~(width - 1);
        clock[v] = std::max(clock[v], clock[v ^ d]) + oneway(net_, cut_.of(lo, lo + width));
        clock[v ^ d] = clock[v];
        end = std::max(end, clock[v]);
      }
    return end;
  }

 private:
  static int lg(int64_t size) { return __builtin_ctzll(static_cast<uint64_t>(size)); }
  static double last(const std::vector<double>& clock) { return *std::max_element(clock.begin(), clock.end()); }
  // The bytes of member v's range after a block of `size` has halved.
  double bytes(int64_t v, int64_t size) const {
    const SegmentRange r = halved_range(v, lg(size), nseg_);
    return cut_.of(r.lo, r.hi);
  }

  // A block's halving reduce-scatter: per member, when it ends.
  std::vector<double> halving(const RankBlock& b) const {
    std::vector<double> clock(b.size, 0.0), next(b.size);
    std::vector<SegmentRange> range(b.size, SegmentRange{0, nseg_});
    for (int64_t d = 1; d < b.size; d *= 2) {
      for (int64_t v = 0; v < b.size; ++v) {
        const SegmentRange r = range[v], low{r.lo, r.mid()}, high{r.mid(), r.hi};
        const bool lower = (v & d) == 0;
        const double keep = cut_.of(lower ? low.lo : high.lo, lower ? low.hi : high.hi);
        const double give = cut_.of(lower ? high.lo : low.lo, lower ? high.hi : low.hi);
        next[v] = std::max(clock[v], clock[v ^ d]) + pair(net_, give, keep) + net_.gamma * keep;
      }
      for (int64_t v = 0; v < b.size; ++v) {
        const SegmentRange r = range[v];
        range[v] = (v & d) ? SegmentRange{r.mid(), r.hi} : SegmentRange{r.lo, r.mid()};
      }
      clock.swap(next);
    }
    return clock;
  }

  // The hand-over chain up, smallest block first: member w of block b + 1
  // serves w, w + S, .. of block b in turn, each folding its piece in.
  // Afterwards clock_[b][v] is when member v is through with the chain.
  void fold_up() {
    for (size_t b = blocks_.size() - 1; b-- > 0;) {
      const int64_t size = blocks_[b].size, smaller = blocks_[b + 1].size;
      for (int64_t w = 0; w < smaller; ++w) {
        double posted = clock_[b + 1][w];
        for (int64_t u = w; u < size; u += smaller) {
          const double piece = bytes(u, size);
          posted = std::max(posted, clock_[b][u]) + oneway(net_, piece);
          clock_[b][u] = posted + net_.gamma * piece;
        }
        clock_[b + 1][w] = posted;
      }
    }
  }

  // Allreduce's way down into block b: member u takes its pieces from
  // u, u + s, .. of block b − 1 (which have theirs at `above`), in turn;
  // `sent` learns when each of those sends ends. Returns when block b's
  // members have their whole ranges.
  std::vector<double> hand_down(size_t b, const std::vector<double>& above, std::vector<double>& sent) const {
    const int64_t size = blocks_[b].size, larger = blocks_[b - 1].size;
    std::vector<double> got(size);
    for (int64_t u = 0; u < size; ++u) {
      double posted = clock_[b][u];
      for (int64_t x = u; x < larger; x += size) {
        posted = std::max(posted, above[x]) + oneway(net_, bytes(x, larger));
        sent[x] = posted;
      }
      got[u] = posted;
    }
    return got;
  }

  // A block's doubling allgather from per-member start times; its end.
  double allgather(const RankBlock& b, std::vector<double> clock) const {
    std::vector<double> next(b.size);
    for (int64_t d = b.size / 2, width = nseg_ / b.size; d >= 1; d /= 2, width *= 2) {
      for (int64_t v = 0; v < b.size; ++v) {
        const int64_t lo = halved_range(v, lg(b.size), nseg_).lo & ~(width - 1), other = lo ^ width;
        next[v] = std::max(clock[v], clock[v ^ d]) + pair(net_, cut_.of(lo, lo + width), cut_.of(other, other + width));
      }
      clock.swap(next);
    }
    return last(clock);
  }

  const Net& net_;
  std::vector<RankBlock> blocks_;
  int64_t nseg_;
  SegmentBytes cut_;
  std::vector<std::vector<double>> clock_;  // per block, per member
};

}  // namespace collsim::sim::phases
