// Runs the built `collsim` binary (or any command) from a test and captures
// its output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

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

// Runs collsim with `args` as its argument vector (no shell: the words reach
// collsim exactly as given, quotes and `$(...)` included); stdout and stderr
// together.
inline CliResult run_collsim_argv(const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(COLLSIM_BIN)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int out[2];
  CliResult result{-1, ""};
  if (pipe(out) != 0) return result;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(out[1], 2);
    close(out[0]);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(out[1]);
  std::array<char, 4096> buf;
  for (ssize_t got; (got = read(out[0], buf.data(), buf.size())) > 0;) result.out.append(buf.data(), size_t(got));
  close(out[0]);
  int raw = 0;
  waitpid(pid, &raw, 0);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return result;
}

// `args` is appended to the collsim path as shell words.
inline CliResult run_collsim(const std::string& args, bool with_stderr = false) {
  return run_command(std::string(COLLSIM_BIN) + " " + args, with_stderr);
}

// The whole file, or "" when it cannot be read.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A path under the test's temporary directory with nothing at it: an output
// left there by an earlier run is removed, so a test that reads what a
// command wrote cannot pass on a stale file.
inline std::string fresh_path(const std::string& name) {
  const std::string path = std::string(TEST_TMPDIR) + "/" + name;
  std::filesystem::remove_all(path);
  return path;
}

// Writes `text` to a fresh file under the test's temporary directory.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = std::string(TEST_TMPDIR) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace collsim::test
