// Reading an input file whole, within a stated size: every reader of a file a
// user names (plan, GOAL, schedule CSV, platform, rules) goes through here, so
// /dev/zero, a directory or a 100 GB file gives one line instead of growing
// memory without bound.
#pragma once

#include <cstdint>
#include <string>

namespace collsim {

// The documented limits (docs/hardening.md, "Limits"). Text size only: a reader's
// parsed form is at most a small multiple of it (a plan file: about 14x,
// measured on a 106 MB plan in `verify plan`, so 128 MiB stays within 2 GB).
inline constexpr int64_t kMaxPlanFileBytes = int64_t{128} << 20;    // plan and GOAL files: 128 MiB
inline constexpr int64_t kMaxScheduleCsvBytes = int64_t{1} << 30;   // verify --file CSV: 1 GiB
inline constexpr int64_t kMaxPlatformFileBytes = int64_t{64} << 20; // platform XML: 64 MiB
inline constexpr int64_t kMaxSmallFileBytes = int64_t{1} << 20;     // .platform, rules, GPU platform text: 1 MiB

// The whole of `path`, which must be a regular file or a pipe (a plan may
// come from /dev/stdin) of at most `limit` bytes. `what` names the file's
// kind in messages ("plan file"). Throws std::invalid_argument for a file
// that cannot be opened or is no regular file or pipe (a directory, a
// device such as /dev/zero, a symlink loop), LimitError (errors.hpp) past
// `limit`, each with the path and the reason in one line.
std::string read_bounded_file(const std::string& path, int64_t limit, const std::string& what);

// "1 GiB", "64 MiB", "1000 bytes": a limit as messages print it.
std::string limit_text(int64_t bytes);

}  // namespace collsim
