// A min-queue of events whose due ones are taken in order, many at once
// without a pop each: the engine's lock-step sweeps post every rank's step
// at one instant (2^20 pops of a heap of 2^20 each missed the cache at
// every level: issue 33's 60 s at 2^20 ranks).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

namespace collsim::engine {

// Whether the events due at an instant that are left should be taken by
// one pass over the queue, once `taken` of them have been popped from a
// queue now holding `queued`: from a sixteenth of it on (and 256 popped),
// a pass, a sort and a heapify cost less than popping the rest, each pop
// missing the cache at every level of a large heap. Both the network's
// event heap (FluidNetwork::pop_due) and DueQueue ask this.
inline bool scan_pays(size_t taken, size_t queued) { return taken >= 256 && taken * 16 >= queued; }

// Does E say its tie-break as a number (order_key(): E's order is by time,
// then by that key)?
template <class E, class = void>
struct HasOrderKey : std::false_type {};
template <class E>
struct HasOrderKey<E, std::void_t<decltype(std::declval<const E&>().order_key())>> : std::true_type {};

// E: an event with operator>, a total order (ties broken, so the order
// taken never depends on how the heap was built); optionally with
// `uint64_t order_key() const`, the tie-break among equal times, so that a
// batch due at one time is sorted by a radix sort on it (O(n)) instead of
// std::sort (a lock-step plan's 2^20 posts at one instant: a sixth of the
// sweep's time went in that sort).
template <class E>
class DueQueue {
 public:
  bool empty() const { return heap_.empty(); }
  const E& top() const { return heap_.front(); }
  void push(const E& e) {
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  }

  // Calls visit(e) for every event that is due, in order, events that
  // visit pushes included. due(e) must hold for a prefix of the order
  // (e.time <= now). A few are popped one by one; once scan_pays, the
  // due ones left are taken by one pass, sorted,
  // and the rest heapified, O(queue + due·log due) instead of
  // O(due·log queue); visit's pushes go to the heap, and each next event
  // is the lesser of the heap's top and the sorted batch's next.
  template <class Due, class Visit>
  void drain(Due due, Visit visit) {
    for (size_t popped = 0; !heap_.empty() && due(heap_.front()); ++popped) {
      if (scan_pays(popped, heap_.size())) {
        drain_by_scan(due, visit);
        return;
      }
      visit(pop());
    }
  }

 private:
  E pop() {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const E e = heap_.back();
    heap_.pop_back();
    return e;
  }

  template <class Due, class Visit>
  void drain_by_scan(Due due, Visit visit) {
    batch_.clear();
    size_t kept = 0;
    for (const E& e : heap_)
      if (due(e))
        batch_.push_back(e);
      else
        heap_[kept++] = e;
    heap_.resize(kept);
    std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
    if (!sort_by_key()) std::sort(batch_.begin(), batch_.end(), [](const E& a, const E& b) { return b > a; });
    for (size_t next = 0;;) {
      const bool from_heap =
          !heap_.empty() && due(heap_.front()) && (next == batch_.size() || batch_[next] > heap_.front());
      if (from_heap)
        visit(pop());
      else if (next < batch_.size())
        visit(batch_[next++]);
      else
        break;
    }
  }

  // batch_ in order where all of it is due at one time and the keys are
  // under 2^33 (E with order_key): least significant digit first, 11 bits a
  // pass, each pass stable; false (batch_ untouched) otherwise.
  bool sort_by_key() {
    if constexpr (!HasOrderKey<E>::value) {
      return false;
    } else {
      if (batch_.size() < 256) return false;
      const double time = batch_.front().time;
      uint64_t bits = 0;
      for (const E& e : batch_) {
        if (e.time != time) return false;
        bits |= e.order_key();
      }
      if (bits >> 33) return false;
      constexpr int kDigit = 11;
      constexpr uint64_t kMask = (uint64_t{1} << kDigit) - 1;
      scratch_.resize(batch_.size(), batch_.front());
      for (int shift = 0; (bits >> shift) != 0; shift += kDigit) {
        std::vector<size_t> start(kMask + 2, 0);
        for (const E& e : batch_) ++start[((e.order_key() >> shift) & kMask) + 1];
        for (size_t d = 0; d <= kMask; ++d) start[d + 1] += start[d];
        for (const E& e : batch_) scratch_[start[(e.order_key() >> shift) & kMask]++] = e;
        batch_.swap(scratch_);
      }
      return true;
    }
  }

  std::vector<E> heap_;
  std::vector<E> batch_, scratch_;
};

}  // namespace collsim::engine
