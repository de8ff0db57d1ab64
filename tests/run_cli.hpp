// Runs the built `collsim` binary (or any command) from a test and captures
// its output.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

namespace collsim::test {

struct CliResult {
  int status;       // exit status
  std::string out;  // stdout, plus stderr when asked
};

// Runs a shell command line.
inline CliResult run_command(const std::string& command, bool with_stderr = false) {
  const std::string cmd = command + (with_stderr ? " 2>&1" : " 2>/dev/null");
  CliResult result{-1, ""};
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buf;
  size_t got;
  while ((got = fread(buf.data(), 1, buf.size(), pipe)) > 0) result.out.append(buf.data(), got);
  const int raw = pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return result;
}

// `args` is appended to the collsim path as shell words.
inline CliResult run_collsim(const std::string& args, bool with_stderr = false) {
  return run_command(std::string(COLLSIM_BIN) + " " + args, with_stderr);
}

// Writes `text` to a fresh file under the test's temporary directory.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = std::string(TEST_TMPDIR) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace collsim::test
