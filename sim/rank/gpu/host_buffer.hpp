// A rank's host buffer of n doubles, either all private (every element is
// checked) or sampled: only the pages holding given element ranges are
// private, the others map one block of memory shared by every rank of the
// simulation (what SMPI_PARTIAL_SHARED_MALLOC does, here with a memfd). The
// shared pages hold garbage; the timing is the same, as SMPI's times do not
// depend on the bytes moved. 160 ranks then fit 32 MiB vectors in a few GB.
//
// Buffers that exchange elements must keep the same element offsets private
// (like_layout below), so that a private element is only ever computed from
// private elements and its check is meaningful.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "vector_data.hpp"

namespace collsim::sim::gpu {

class HostBuffer {
 public:
  explicit HostBuffer(int64_t n);                               // all private
  HostBuffer(int64_t n, const std::vector<Elements>& keep);     // sampled: pages of `keep` private
  ~HostBuffer();
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  double* data() const { return data_; }
  int64_t size() const { return n_; }
  bool sampled() const { return sampled_; }
  // Sorted, disjoint element ranges backed by private memory ([0, n) unless sampled).
  const std::vector<Elements>& private_ranges() const { return private_; }

 private:
  double* data_ = nullptr;
  int64_t n_ = 0;
  size_t bytes_ = 0;  // mapped, whole pages
  bool sampled_ = false;
  std::vector<Elements> private_;
};

// A buffer of the same size as `b` and, if `b` is sampled, the same private pages.
std::unique_ptr<HostBuffer> like_layout(const HostBuffer& b);

}  // namespace collsim::sim::gpu
