// Writing what collsim produces (CSV, scripts, pictures, standard output):
// a failed open, write or close is an OutputError, reported by main as one
// line with exit status 1, never passed over in silence.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace collsim::sim {

struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes `text` to `path` (created or truncated).
void write_file(const std::filesystem::path& path, const std::string& text);
// Creates `dir` and its parents where missing; an existing directory is fine.
void make_directories(const std::filesystem::path& dir);
// Flushes standard output and throws if any write to it failed (a full
// disk, a closed pipe, /dev/full).
void finish_stdout();

// Runs `gnuplot SCRIPT` in `dir` (scripts name their files relative to it,
// so no path is ever spliced into gnuplot's own language); its messages go
// to dir/gnuplot.log. A failure is an OutputError naming that log.
void run_gnuplot(const std::filesystem::path& dir, const std::string& script);

}  // namespace collsim::sim
