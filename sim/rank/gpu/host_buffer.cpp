#include "host_buffer.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <new>
#include <stdexcept>

namespace collsim::sim::gpu {

namespace {

constexpr int64_t kPage = 4096;
constexpr int64_t kPerPage = kPage / 8;  // doubles per page

// The block every sampled buffer's shared pages map, grown on demand. One
// per smpirun on purpose: under -no-privatize all ranks share this static.
int shared_block(size_t bytes) {
  static int fd = -1;
  static size_t size = 0;
  if (fd < 0 && (fd = memfd_create("collsim-shared", 0)) < 0) throw std::runtime_error("memfd_create failed");
  if (bytes > size) {
    if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) throw std::runtime_error("cannot grow the shared block");
    size = bytes;
  }
  return fd;
}

void* map_private(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}

}  // namespace

HostBuffer::HostBuffer(int64_t n)
    : n_(n), bytes_(static_cast<size_t>(std::max<int64_t>(1, (n + kPerPage - 1) / kPerPage) * kPage)) {
  data_ = static_cast<double*>(map_private(bytes_));
  private_ = {{0, n}};
}

HostBuffer::HostBuffer(int64_t n, const std::vector<Elements>& keep) : HostBuffer(n) {
  sampled_ = true;
  const int64_t pages = static_cast<int64_t>(bytes_) / kPage;
  std::vector<char> own(static_cast<size_t>(pages), 0);
  for (const Elements& e : keep)
    for (int64_t pg = e.begin / kPerPage; pg < std::min(pages, (e.end + kPerPage - 1) / kPerPage); ++pg) own[pg] = 1;
  private_.clear();
  for (int64_t a = 0; a < pages;) {
    int64_t b = a;
    while (b < pages && own[b] == own[a]) ++b;
    if (own[a]) {
      private_.push_back({a * kPerPage, std::min(n, b * kPerPage)});
    } else {
      const size_t len = static_cast<size_t>((b - a) * kPage);
      if (mmap(data_ + a * kPerPage, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, shared_block(len), 0) ==
          MAP_FAILED)
        throw std::bad_alloc();
    }
    a = b;
  }
}

HostBuffer::~HostBuffer() { munmap(data_, bytes_); }

std::unique_ptr<HostBuffer> like_layout(const HostBuffer& b) {
  return b.sampled() ? std::make_unique<HostBuffer>(b.size(), b.private_ranges()) : std::make_unique<HostBuffer>(b.size());
}

}  // namespace collsim::sim::gpu
