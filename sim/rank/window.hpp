// Scale mode's window for the algorithms' own temporaries (the harness's
// buffers and why the window works: workload.hpp).
//
// An algorithm that needs memory for vector data asks for a Scratch instead
// of a std::vector<char>, and copies vector data with copy_real instead of
// std::memcpy:
//
//   Scratch tmp(a, Scratch::Kind::vector, a.bytes);  // tmp.data() + i is byte i of the vector
//   Scratch blk(a, Scratch::Kind::block, b);         // one block of up to b bytes at a time;
//                                                    // blk.at(s.begin) holds the block at s
//   Scratch msg(a, Scratch::Kind::packed, b);        // a message packed from pieces of the vector
//   copy_real(tmp.data() + s.begin, src + s.begin, s.count());
//
// Outside scale mode (CollArgs::scale false, which the harness sets, or any
// build without SMPI) a Scratch is a zeroed private buffer of the size asked
// for, as a std::vector<char> was, block.at() is its start, and copy_real is
// std::memcpy.
//
// In scale mode (a.scale) every Scratch is registered with SMPI as partial
// shared memory, so that SMPI moves only its private units, and its pages are
// fresh anonymous ones (SMPI's shared-file mapping is replaced right after
// the registration), so a page costs memory only once written:
//   vector  a.bytes or fewer bytes at the vector's own offsets, in the
//           harness's window pattern (window_shared_blocks): the even units
//           of the first 2·kWindowUnits private, everything else shared;
//   block   in scale mode a vector scratch of the whole vector, used at each
//           block's own offsets (at(offset) = data() + offset), so that
//           blocks keep their positions as in the harness's buffers;
//   packed  private only in its first 2·kWindowUnits units, shared beyond.
//           Right for messages packed from pieces in increasing vector order
//           and sent from their start: a piece's packed offset is then at most
//           its vector offset, so every window unit of a piece lands in the
//           private prefix (where SMPI copies all, real or not).
// Nothing writes to the shared parts: SMPI's copies skip them, and so do
// copy_real and the harness's operators (real_spans). A rank's temporaries
// thus cost their window pages and one memory mapping each, which the kernel
// merges with neighbouring anonymous mappings (vm.max_map_count = 65530 is
// ~4 mappings per rank at 16,384 ranks; a file-backed window buffer costs 2).
//
// Rule that keeps results right: a registered buffer (the harness's window
// buffers, vector and block scratch) is only addressed at vector positions,
// so its private units are real data and its shared units never are. An
// element is then worth computing or copying only where it is private in
// every registered operand; unregistered memory (the harness's private
// buffers, a rank's own share) counts as private throughout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collective.hpp"

namespace collsim::sim {

// SMPI_PARTIAL_SHARED_MALLOC's shared blocks (begin, end, begin, end, ..)
// for a buffer of `bytes` bytes holding the vector from its start in units
// of `unit` bytes: each odd unit of the window, then all from its end.
std::vector<size_t> window_shared_blocks(size_t bytes, int64_t unit);

// The byte ranges of [0, bytes), counted from x and from y alike, that are
// private in each of x and y that is SMPI partial shared memory; [0, bytes)
// where neither is (outside scale mode, and in builds without SMPI).
std::vector<Span> real_spans(const void* x, const void* y, int64_t bytes);

// std::memcpy of the real_spans of dst and src.
void copy_real(void* dst, const void* src, int64_t bytes);

// Copies the real units among the vector's units [first, first + count) (of
// `unit` bytes) from src to dst, both holding them from their start: all of
// them, or in scale mode the even units of the window, the private ones of
// window_shared_blocks and of a packed scratch's prefix; SMPI is not asked.
// For hot loops over many small pieces of known vector position (circulant's
// packed messages), where copy_real's lookups would cost more than the copy.
void copy_units(void* dst, const void* src, int64_t first, int64_t count, int64_t unit, bool scale);

class Scratch {
 public:
  enum class Kind { vector, block, packed };
  Scratch() = default;
  // `bytes`: what the algorithm asks for (vector: up to a.bytes; block: its
  // largest block; packed: its largest message).
  Scratch(const CollArgs& a, Kind kind, int64_t bytes);
  ~Scratch();
  Scratch(Scratch&& other) noexcept;
  Scratch& operator=(Scratch&& other) noexcept;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  char* data() { return data_; }
  // Where the block that starts at byte `offset` of the vector lives.
  char* at(int64_t offset) { return kind_ == Kind::block && !windowed_ ? data_ : data_ + offset; }

 private:
  void release();
  std::vector<char> own_;  // outside scale mode
  char* data_ = nullptr;
  size_t size_ = 0;
  Kind kind_ = Kind::vector;
  bool windowed_ = false;    // scale mode: mapped pages
  bool registered_ = false;  // and SMPI knows them (not when all are private)
};

}  // namespace collsim::sim
