#include "workload.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>

#include "window.hpp"

namespace collsim::sim {

namespace {

__extension__ typedef __int128 int128;  // total · r(r+1)/2 needs up to 92 bits

static_assert(sizeof(long) == 8, "bxor uses MPI_LONG as a 64-bit word");

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

uint64_t a_of(int64_t i, int rep) { return mix(static_cast<uint64_t>(i) * 1000003u + static_cast<uint64_t>(rep)); }
uint64_t b_of(int64_t r, int rep) {
  return mix(~(static_cast<uint64_t>(r) * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(rep)));
}

// 2 × 2 matrices over Z/2^64, row-major: one matmul element.
struct Mat {
  uint64_t a, b, c, d;
};
static_assert(sizeof(Mat) == 32, "a matmul element is four words");

Mat mul(const Mat& x, const Mat& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}
// [[1 + xy, x], [y, 1]] = [[1, x], [0, 1]]·[[1, 0], [y, 1]]: determinant 1.
Mat r_of(int64_t r, int rep) {
  const uint64_t x = b_of(2 * r, rep), y = b_of(2 * r + 1, rep + 7919);
  return {1 + x * y, x, y, 1};
}
// D⁻¹ m D with D = [[1, d], [0, 1]].
Mat conjugate(const Mat& m, uint64_t d) { return mul(mul({1, 0 - d, 0, 1}, m), {1, d, 0, 1}); }

void charge(int64_t bytes) {
#ifdef COLLSIM_SMPI
  smpi_execute_flops(static_cast<double>(bytes));
#else
  (void)bytes;
#endif
}

// Calls f(i) for each element i of [0, len) (of `size` bytes) that is real
// in both buffers: all of them but in scale mode's window memory, where the
// others are never checked and must not be written (window.hpp).
template <class F>
void each_real(const void* in, const void* inout, int len, int64_t size, F f) {
  for (const Span& s : real_spans(in, inout, int64_t{len} * size))
    for (int64_t i = (s.begin + size - 1) / size; i < s.end / size; ++i) f(i);
}

// The user functions: inout[i] = in[i] ⊕ inout[i] (MPI's order), charged
// for every element.
void bxor_fn(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* x = static_cast<const uint64_t*>(in);
  auto* y = static_cast<uint64_t*>(inout);
  each_real(in, inout, *len, 8, [&](int64_t i) { y[i] ^= x[i]; });
  charge(int64_t{*len} * 8);
}

void matmul_fn(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* x = static_cast<const Mat*>(in);
  auto* y = static_cast<Mat*>(inout);
  each_real(in, inout, *len, 32, [&](int64_t i) { y[i] = mul(x[i], y[i]); });
  charge(int64_t{*len} * 32);
}

// Byte j of the broadcast/allgatherv pattern is byte j % 8 of a(j / 8).
void fill_pattern(uint8_t* buf, int64_t bytes, int rep, bool complement) {
  const uint64_t flip = complement ? ~uint64_t{0} : 0;
  for (int64_t w = 0; w * 8 < bytes; ++w) {
    const uint64_t v = a_of(w, rep) ^ flip;
    std::memcpy(buf + w * 8, &v, static_cast<size_t>(std::min<int64_t>(8, bytes - w * 8)));
  }
}

uint8_t pattern_byte(int64_t j, int rep) { return static_cast<uint8_t>(a_of(j / 8, rep) >> (8 * (j % 8))); }

std::string wrong(const char* what, int64_t index, uint64_t is, uint64_t want) {
  char line[160];
  std::snprintf(line, sizeof line, "%s %" PRId64 " is %#" PRIx64 ", expected %#" PRIx64, what, index, is, want);
  return line;
}

}  // namespace

Partition partition(int64_t total, int p, Layout layout, int root) {
  Partition part{std::vector<int>(static_cast<size_t>(p), 0), std::vector<int>(static_cast<size_t>(p), 0)};
  // Element boundary before rank r: the layout's share of ranks [0, r).
  auto boundary = [&](int64_t r) -> int64_t {
    switch (layout) {
      case Layout::even:
        return r * (total / p) + std::min<int64_t>(r, total % p);
      case Layout::ramp:  // total · (1 + … + r) / (1 + … + p), in 128 bits
        return static_cast<int64_t>(static_cast<int128>(total) * (r * (r + 1) / 2) / (int64_t{p} * (p + 1) / 2));
      case Layout::single:
        return r <= root ? 0 : total;
      case Layout::mod3: {  // total · S(r) / S(p), S(r) = Σ_{i<r} (i mod 3); p = 1: rank 0 gets all
        const auto weight = [](int64_t n) { return 3 * (n / 3) + (n % 3 == 2 ? 1 : 0); };
        const int64_t all = weight(p);
        if (all == 0) return r == 0 ? 0 : total;
        return static_cast<int64_t>(static_cast<int128>(total) * weight(r) / all);
      }
    }
    return 0;
  };
  for (int r = 0; r < p; ++r) {
    part.displs[r] = static_cast<int>(boundary(r));
    part.counts[r] = static_cast<int>(boundary(r + 1) - boundary(r));
  }
  return part;
}

std::shared_ptr<const Partition> shared_partition(int64_t total, int p, Layout layout, int root) {
  struct Made {
    int64_t total;
    int p;
    Layout layout;
    int root;
    std::shared_ptr<const Partition> part;
  };
  static std::mutex lock;
  static Made last{0, 0, Layout::even, 0, nullptr};
  const std::lock_guard<std::mutex> hold(lock);
  if (!last.part || last.total != total || last.p != p || last.layout != layout || last.root != root)
    last = {total, p, layout, root, std::make_shared<const Partition>(partition(total, p, layout, root))};
  return last.part;
}

Buffer::Buffer(int64_t words, Kind kind, int64_t unit) : bytes_(static_cast<size_t>(std::max<int64_t>(words, 1) * 8)) {
#ifdef COLLSIM_SMPI
  // Under a page stays private: SimGrid 3.32 maps its shared file over the
  // whole of such a buffer when the last shared block ends at its end.
  if (kind == Kind::window && bytes_ >= 4096) {
    std::vector<size_t> shared = window_shared_blocks(bytes_, unit);
    data_ = static_cast<uint64_t*>(SMPI_PARTIAL_SHARED_MALLOC(bytes_, shared.data(), static_cast<int>(shared.size() / 2)));
    kind_ = kind;
    return;
  }
#else
  (void)unit;  // without SMPI nothing is shared: a window is private
#endif
  if (kind == Kind::lazy) {  // fresh anonymous pages: untouched ones are the zero page
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<uint64_t*>(p);
    kind_ = kind;
    return;
  }
  data_ = new uint64_t[bytes_ / 8];  // fill() writes what is read
}

Buffer::~Buffer() {
  switch (kind_) {
#ifdef COLLSIM_SMPI
    case Kind::window:
      SMPI_SHARED_FREE(data_);
      return;
#endif
    case Kind::lazy:
      munmap(data_, bytes_);
      return;
    default:
      delete[] data_;
  }
}

Workload::Workload(Collective c, Operator op, Layout layout, MPI_Comm comm, int root, int64_t bytes, bool scale)
    : c_(c), op_(op), comm_(comm), root_(root), bytes_(bytes), scale_(scale) {
  MPI_Comm_size(comm, &p_);
  MPI_Comm_rank(comm, &rank_);
  const int64_t elem = element_bytes(c, op);
  if (bytes % elem != 0)
    throw std::invalid_argument(std::to_string(bytes) + " bytes is no whole number of " + std::to_string(elem) +
                                "-byte " + operator_name(op) + " elements");
  count_ = bytes / elem;
  if (c == Collective::reduce_scatter || c == Collective::allgatherv) part_ = shared_partition(count_, p_, layout, root);
  if (reduces(c)) {
    if (op == Operator::bxor) {
      type_ = MPI_LONG;
      MPI_Op_create(bxor_fn, 1, &mpi_op_);
    } else {
      MPI_Type_contiguous(4, MPI_UINT64_T, &type_);
      MPI_Type_commit(&type_);
      MPI_Op_create(matmul_fn, 0, &mpi_op_);
    }
  }
  const int64_t words_per_elem = reduces(c) ? elem / 8 : 1;
  const int64_t in_words = c == Collective::bcast ? 0 : c == Collective::allgatherv ? (part_->counts[rank_] + 7) / 8
                                                                                     : count_ * words_per_elem;
  const int64_t out_words = c == Collective::bcast || c == Collective::allgatherv ? (bytes + 7) / 8
                                                                                  : out_count() * words_per_elem;
  // Whole-vector results get a window, reduction inputs lazy pages; a rank's share stays private.
  using Kind = Buffer::Kind;
  const int64_t unit = reduces(c) ? elem : 1;
  in_ = std::make_unique<Buffer>(in_words, scale && reduces(c) ? Kind::lazy : Kind::own);
  out_ = std::make_unique<Buffer>(out_words, scale && c != Collective::reduce_scatter ? Kind::window : Kind::own, unit);
}

Workload::~Workload() {
  if (mpi_op_ != MPI_OP_NULL) MPI_Op_free(&mpi_op_);
  if (op_ == Operator::matmul && reduces(c_)) MPI_Type_free(&type_);
}

bool Workload::has_output() const { return c_ != Collective::reduce || rank_ == root_; }

int64_t Workload::out_first() const { return c_ == Collective::reduce_scatter ? part_->displs[rank_] : 0; }

int64_t Workload::out_count() const { return c_ == Collective::reduce_scatter ? part_->counts[rank_] : count_; }

int64_t Workload::filled_units() const {
  const int64_t units = reduces(c_) ? count_ : bytes_;
  return scale_ ? std::min(units, 2 * kWindowUnits) : units;
}

bool Workload::real(int64_t u) const { return !scale_ || (u < 2 * kWindowUnits && u % 2 == 0); }

bool Workload::checks_something() const {
  if (!reduces(c_)) return bytes_ > 0;
  // The first even unit of the result, if it lies in the window.
  const int64_t first_even = out_first() + out_first() % 2;
  const bool in_window = !scale_ || first_even < std::min(out_first() + out_count(), 2 * kWindowUnits);
  return has_output() && ranks_combined() > 0 && out_count() > 0 && in_window;
}

int Workload::ranks_combined() const {
  return c_ == Collective::scan ? rank_ + 1 : c_ == Collective::exscan ? rank_ : p_;
}

CollArgs Workload::args(int64_t blocks) {
  CollArgs a{has_output() ? out_->data() : nullptr, bytes_, root_, comm_, blocks};
  a.scale = scale_;
  if (c_ == Collective::bcast) return a;
  a.sendbuf = in_->data();
  a.count = count_;
  a.type = type_;
  a.op = mpi_op_;
  a.counts = part_ ? part_->counts.data() : nullptr;
  a.displs = part_ ? part_->displs.data() : nullptr;
  a.scale = scale_;
  return a;
}

void Workload::fill(int rep) {
  auto* in = reinterpret_cast<uint8_t*>(in_->data());
  auto* out = reinterpret_cast<uint8_t*>(out_->data());
  switch (c_) {
    case Collective::bcast:
      fill_pattern(out, filled_units(), rep, rank_ != root_);
      return;
    case Collective::allgatherv:
      fill_pattern(out, filled_units(), rep, true);
      for (int j = 0; j < part_->counts[rank_]; ++j) in[j] = pattern_byte(part_->displs[rank_] + j, rep);
      return;
    default:
      break;
  }
  const int64_t words_per_elem = element_bytes(c_, op_) / 8;
  const int64_t poisoned = std::min(out_count(), std::max<int64_t>(filled_units() - out_first(), 0));
  std::fill(out_->data(), out_->data() + poisoned * words_per_elem, 0xA5A5A5A5A5A5A5A5ULL);
  const int64_t real = filled_units();
  if (op_ == Operator::bxor) {
    for (int64_t i = 0; i < real; ++i) in_->data()[i] = a_of(i, rep) ^ b_of(rank_, rep);
  } else {
    const Mat r = r_of(rank_, rep);
    auto* m = reinterpret_cast<Mat*>(in_->data());
    for (int64_t i = 0; i < real; ++i) m[i] = conjugate(r, a_of(i, rep));
  }
}

std::string Workload::check(int rep) const {
  if (!reduces(c_)) {
    const auto* out = reinterpret_cast<const uint8_t*>(out_->data());
    const int64_t bytes = filled_units();
    for (int64_t w = 0; w * 8 < bytes; ++w) {
      const uint64_t v = a_of(w, rep);
      const int64_t len = std::min<int64_t>(8, bytes - w * 8);
      if (std::memcmp(out + w * 8, &v, static_cast<size_t>(len)) == 0) continue;
      for (int64_t j = w * 8; j < w * 8 + len; ++j)
        if (real(j) && out[j] != pattern_byte(j, rep)) return wrong("byte", j, out[j], pattern_byte(j, rep));
    }
    return "";
  }
  const int k = ranks_combined();
  if (!has_output() || k == 0) return "";  // exscan: rank 0's result is undefined
  const int64_t first = out_first();
  // Elements [0, end) of the result can be real (scale mode: the window's).
  const int64_t end = std::min(out_count(), std::max<int64_t>(filled_units() - first, 0));
  if (op_ == Operator::bxor) {
    uint64_t bs = 0;
    for (int r = 0; r < k; ++r) bs ^= b_of(r, rep);
    const uint64_t* out = out_->data();
    for (int64_t j = 0; j < end; ++j) {
      if (!real(first + j)) continue;
      const uint64_t want = ((k & 1) ? a_of(first + j, rep) : 0) ^ bs;
      if (out[j] != want) return wrong("element", first + j, out[j], want);
    }
    return "";
  }
  Mat prefix{1, 0, 0, 1};
  for (int r = 0; r < k; ++r) prefix = mul(prefix, r_of(r, rep));
  const auto* m = reinterpret_cast<const Mat*>(out_->data());
  for (int64_t j = 0; j < end; ++j) {
    if (!real(first + j)) continue;
    const Mat want = conjugate(prefix, a_of(first + j, rep));
    if (std::memcmp(&m[j], &want, sizeof want) != 0) return wrong("element (entry a)", first + j, m[j].a, want.a);
  }
  return "";
}

}  // namespace collsim::sim
