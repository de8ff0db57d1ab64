// Writing what collsim produces (CSV, scripts, pictures, standard output):
// a failed open, write or close is an OutputError, reported by main as one
// line with exit status 1, never passed over in silence.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace collsim::sim {

struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes `text` to `path` (created or truncated).
void write_file(const std::filesystem::path& path, const std::string& text);
// Claims the file `path` before a long computation whose result goes there
// (calibrate's measurement): opens it for writing now, creating it where
// missing and leaving an existing file as it is, so that an unwritable path
// is an OutputError before the work instead of after it. A file the claim
// created is removed again unless keep() is called (the result is written).
class OutputClaim {
 public:
  explicit OutputClaim(const std::filesystem::path& path);
  ~OutputClaim();
  OutputClaim(const OutputClaim&) = delete;
  OutputClaim& operator=(const OutputClaim&) = delete;
  void keep() { created_ = false; }

 private:
  std::filesystem::path path_;
  bool created_ = false;
};
// Creates `dir` and its parents where missing; an existing directory is fine.
void make_directories(const std::filesystem::path& dir);
// Flushes standard output and throws if any write to it failed (a full
// disk, a closed pipe, /dev/full).
void finish_stdout();

// Runs `gnuplot SCRIPT` in `dir` (scripts name their files relative to it,
// so no path is ever spliced into gnuplot's own language); its messages go
// to dir/gnuplot.log. A failure is an OutputError naming that log.
void run_gnuplot(const std::filesystem::path& dir, const std::string& script);

// A gnuplot string expression whose value is `text`, byte for byte: the
// one way any name (algorithm, plan file, platform, output file) enters a
// script. gnuplot substitutes backquotes (shell commands) and `@` macros in
// double-quoted strings and bare words, never in single-quoted ones; so
// plain text goes in single quotes, and the bytes that cannot stand there
// (a control character: a newline cannot stand in a string; and ', whose
// '' escape gnuplot 5.4 misreads at a string's start or twice in a row)
// as octal escapes in double quotes, which then hold no backquote:
// "a'b\n" is 'a' . "\047" . 'b' . "\012". Text drawn from it is safe from
// enhanced-text markup only under a `noenhanced` terminal, as ours are.
std::string gnuplot_quote(const std::string& text);
// `name = [...]`, a gnuplot array of the quoted `items` (not empty: gnuplot
// has no array of size 0); `|name|` is its length, name[i] an item.
std::string gnuplot_array(const std::string& name, const std::vector<std::string>& items);

}  // namespace collsim::sim
