#include "window.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

#include "scale.hpp"

#ifdef COLLSIM_SMPI
#include <sys/mman.h>
#endif

namespace collsim::sim {

std::vector<size_t> window_shared_blocks(size_t bytes, int64_t unit) {
  const size_t u = static_cast<size_t>(unit), window = static_cast<size_t>(2 * kWindowUnits) * u;
  std::vector<size_t> shared;
  for (size_t odd = u; odd < std::min(window, bytes); odd += 2 * u) {
    shared.push_back(odd);
    shared.push_back(std::min(odd + u, bytes));
  }
  if (bytes > window) {  // all beyond the window, joined to the last odd unit's block
    if (!shared.empty() && shared.back() == window)
      shared.back() = bytes;
    else {
      shared.push_back(window);
      shared.push_back(bytes);
    }
  }
  return shared;
}

namespace {

#ifdef COLLSIM_SMPI
// Intersection of two sorted lists of disjoint ranges.
std::vector<Span> intersect(const std::vector<Span>& x, const std::vector<Span>& y) {
  std::vector<Span> both;
  for (size_t i = 0, j = 0; i < x.size() && j < y.size();) {
    const int64_t begin = std::max(x[i].begin, y[j].begin), end = std::min(x[i].end, y[j].end);
    if (begin < end) both.push_back({begin, end});
    (x[i].end < y[j].end ? i : j)++;
  }
  return both;
}

// `bytes` bytes of fresh anonymous pages, registered with SMPI as partial
// shared memory whose shared blocks are `shared` unless that is empty (all
// private: nothing for SMPI to know).
char* map_pages(size_t bytes, std::vector<size_t>& shared) {
  void* p = nullptr;
  if (!shared.empty()) {
    p = SMPI_PARTIAL_SHARED_MALLOC(bytes, shared.data(), static_cast<int>(shared.size() / 2));
    // SMPI mapped its shared file over the shared blocks' whole pages: back
    // to anonymous pages over the whole range (nothing is written yet).
    p = mmap(p, bytes, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  } else {
    p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  }
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<char*>(p);
}
#endif

}  // namespace

std::vector<Span> real_spans(const void* x, const void* y, int64_t bytes) {
  std::vector<Span> real{{0, bytes}};
  if (bytes <= 0) return {};
#ifdef COLLSIM_SMPI
  std::vector<std::pair<size_t, size_t>> blocks;
  for (const void* ptr : {x, y}) {
    size_t offset = 0;
    if (ptr == nullptr || !smpi_is_shared(ptr, blocks, &offset)) continue;
    std::vector<Span> mine;
    const int64_t from = static_cast<int64_t>(offset);
    for (const auto& [begin, end] : blocks) {
      const int64_t b = std::max<int64_t>(static_cast<int64_t>(begin) - from, 0);
      const int64_t e = std::min<int64_t>(static_cast<int64_t>(end) - from, bytes);
      if (b < e) mine.push_back({b, e});
    }
    real = intersect(real, mine);
  }
#else
  (void)x;
  (void)y;
#endif
  return real;
}

void copy_real(void* dst, const void* src, int64_t bytes) {
  for (const Span& s : real_spans(dst, src, bytes))
    std::memcpy(static_cast<char*>(dst) + s.begin, static_cast<const char*>(src) + s.begin,
                static_cast<size_t>(s.end - s.begin));
}

void copy_units(void* dst, const void* src, int64_t first, int64_t count, int64_t unit, bool scale) {
  auto* to = static_cast<char*>(dst);
  const auto* from = static_cast<const char*>(src);
  if (!scale) {
    std::memcpy(to, from, static_cast<size_t>(count * unit));
    return;
  }
  for (int64_t u = first + first % 2; u < std::min(first + count, 2 * kWindowUnits); u += 2)
    std::memcpy(to + (u - first) * unit, from + (u - first) * unit, static_cast<size_t>(unit));
}

Scratch::Scratch(const CollArgs& a, Kind kind, int64_t bytes) : kind_(kind) {
#ifdef COLLSIM_SMPI
  if (a.scale) {
    int unit = 1;
    MPI_Type_size(a.type, &unit);
    if (kind == Kind::block) bytes = a.bytes;  // the whole vector, blocks at their own offsets
    if (bytes <= 0) return;
    const size_t size = static_cast<size_t>(bytes), window = static_cast<size_t>(2 * kWindowUnits * unit);
    std::vector<size_t> shared;
    if (kind != Kind::packed)
      shared = window_shared_blocks(size, unit);
    else if (size > window)
      shared = {window, size};
    data_ = map_pages(size, shared);
    windowed_ = true;
    registered_ = !shared.empty();
    size_ = size;
    return;
  }
#endif
  (void)a;
  own_.resize(static_cast<size_t>(std::max<int64_t>(bytes, 0)));
  data_ = own_.data();
}

Scratch::~Scratch() { release(); }

Scratch::Scratch(Scratch&& other) noexcept { *this = std::move(other); }

Scratch& Scratch::operator=(Scratch&& other) noexcept {
  if (this == &other) return *this;
  release();
  own_ = std::move(other.own_);
  data_ = std::exchange(other.data_, nullptr);
  kind_ = other.kind_;
  windowed_ = std::exchange(other.windowed_, false);
  registered_ = std::exchange(other.registered_, false);
  size_ = std::exchange(other.size_, 0);
  return *this;
}

void Scratch::release() {
#ifdef COLLSIM_SMPI
  if (registered_)
    SMPI_SHARED_FREE(data_);  // unmaps all of it
  else if (windowed_)
    munmap(data_, size_);
#endif
  windowed_ = registered_ = false;
  data_ = nullptr;
  own_.clear();
}

}  // namespace collsim::sim
