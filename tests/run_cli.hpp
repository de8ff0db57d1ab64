// Runs the built `collsim` binary (or any command) from a test and captures
// its output.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace collsim::test {

struct CliResult {
  int status;       // exit status
  std::string out;  // stdout, plus stderr when asked
};

// Runs `argv` (argv[0] looked up in PATH) with no shell: the words reach
// the program exactly as given, quotes and `$(...)` included. stdout, plus
// stderr when asked (else stderr goes to /dev/null); standard input from
// the file `stdin_from` where one is named.
inline CliResult run_argv(const std::vector<std::string>& words, bool with_stderr, const std::string& stdin_from = "") {
  std::vector<char*> argv;
  for (const auto& w : words) argv.push_back(const_cast<char*>(w.c_str()));
  argv.push_back(nullptr);
  int out[2];
  CliResult result{-1, ""};
  if (words.empty() || pipe(out) != 0) return result;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    const int err = with_stderr ? out[1] : open("/dev/null", O_WRONLY);
    dup2(err, 2);
    if (!stdin_from.empty()) dup2(open(stdin_from.c_str(), O_RDONLY), 0);
    close(out[0]);
    execvp(argv[0], argv.data());
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

// A command line of plain words (split at blanks, no quoting), run as
// run_argv does.
inline CliResult run_words(const std::string& line, bool with_stderr = false) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return run_argv(words, with_stderr);
}

// A shell command line: only for what needs a shell (pipes, redirections,
// ulimit, the mpirun wrapper script's environment); plain commands go
// through run_words or run_collsim_argv.
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

// Runs collsim with `args` as its argument vector; stdout and stderr
// together.
inline CliResult run_collsim_argv(const std::vector<std::string>& args) {
  std::vector<std::string> words{COLLSIM_BIN};
  words.insert(words.end(), args.begin(), args.end());
  return run_argv(words, true);
}

// `args`, plain words, after the collsim path (run_words).
inline CliResult run_collsim(const std::string& args, bool with_stderr = false) {
  return run_words(std::string(COLLSIM_BIN) + " " + args, with_stderr);
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
