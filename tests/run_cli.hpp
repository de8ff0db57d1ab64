// Runs the built `collsim` binary (or any command) from a test and captures
// its output. Every process starts from an argument vector (execvp), never
// through a shell: what a shell line did with `|`, `>`, `2>&1`, `ulimit` or
// `VAR=value` is an option of Child, done in the child before exec.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace collsim::test {

struct CliResult {
  int status;       // exit status, or 128 + the signal that ended it (as a shell says)
  std::string out;  // stdout, plus stderr when asked
  std::string err;  // stderr when captured on its own (Stderr::err)
};

// Where a child's stderr goes.
enum class Stderr {
  drop,  // /dev/null
  out,   // captured into CliResult::out, with stdout (`2>&1`)
  err,   // captured into CliResult::err on its own
};

// One process to run: the argument vector and what a shell line would have
// arranged around it.
struct Child {
  std::vector<std::string> argv;                           // argv[0] looked up in PATH
  std::vector<std::pair<std::string, std::string>> env;    // added to ours (`VAR=value cmd`)
  std::string dir;                                         // working directory; empty: ours
  std::string stdin_file;                                  // standard input from this file (`< file`)
  std::optional<std::string> stdin_text;                   // or this text, through a pipe (`echo | cmd`)
  std::string stdout_to;                                   // stdout to this file instead of `out` (`> file`)
  Stderr stderr_to = Stderr::drop;
  size_t head_lines = 0;      // keep this many lines of stdout, then close the pipe (`| head -n`); 0: all
  rlim_t address_space = 0;   // RLIMIT_AS in bytes (`ulimit -v`); 0: ours
  unsigned wall_seconds = 0;  // SIGALRM after this long (alarm survives exec); 0: none
};

namespace detail {

// In the child: `path` opened with `flags` as file descriptor `fd`.
inline void open_as(const std::string& path, int flags, int fd) {
  const int file = open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (file < 0 || dup2(file, fd) < 0) _exit(126);
}

// In the child, between fork and exec: descriptors, limits, directory and
// environment as `run` asks, then the program. Exits 126 when the setup
// fails, 127 when there is no such program.
[[noreturn]] inline void exec_child(const Child& run, int in_read, int out_write, int err_write,
                                    const struct sigaction& sigpipe) {
  sigaction(SIGPIPE, &sigpipe, nullptr);  // the parent ignores it while it feeds stdin
  if (in_read >= 0 && dup2(in_read, 0) < 0) _exit(126);
  if (!run.stdin_file.empty()) open_as(run.stdin_file, O_RDONLY, 0);
  if (!run.stdout_to.empty())
    open_as(run.stdout_to, O_WRONLY | O_CREAT | O_TRUNC, 1);
  else if (dup2(out_write, 1) < 0)
    _exit(126);
  if (run.stderr_to == Stderr::drop) open_as("/dev/null", O_WRONLY, 2);
  if (run.stderr_to == Stderr::out && dup2(out_write, 2) < 0) _exit(126);
  if (run.stderr_to == Stderr::err && dup2(err_write, 2) < 0) _exit(126);
  if (run.address_space > 0) {
    const rlimit bound{run.address_space, run.address_space};
    if (setrlimit(RLIMIT_AS, &bound) != 0) _exit(126);
  }
  if (!run.dir.empty() && chdir(run.dir.c_str()) != 0) _exit(126);
  for (const auto& [name, value] : run.env) setenv(name.c_str(), value.c_str(), 1);
  if (run.wall_seconds > 0) alarm(run.wall_seconds);
  std::vector<char*> argv;
  for (const auto& w : run.argv) argv.push_back(const_cast<char*>(w.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  _exit(127);
}

// The first `lines` lines of `text` when it has more; whether it had.
inline bool keep_lines(std::string& text, size_t lines) {
  size_t at = 0;
  for (size_t n = 0; n < lines; ++n) {
    at = text.find('\n', at);
    if (at == std::string::npos) return false;
    ++at;
  }
  text.resize(at);
  return true;
}

// In the parent: feeds `input` to `in` and reads `out` and `err` until
// each is done, all at once so that no pipe fills while another waits.
inline void pump(const Child& run, int in, int out, int err, CliResult& result) {
  size_t fed = 0;
  const std::string input = run.stdin_text.value_or("");
  std::array<char, 65536> buf;
  while (in >= 0 || out >= 0 || err >= 0) {
    std::array<pollfd, 3> fds{{{in, POLLOUT, 0}, {out, POLLIN, 0}, {err, POLLIN, 0}}};
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].revents) {
      const ssize_t put = write(in, input.data() + fed, input.size() - fed);  // non-blocking: what fits
      fed += put > 0 ? size_t(put) : 0;
      if (fed == input.size() || (put < 0 && errno != EAGAIN)) close(std::exchange(in, -1));  // done, or EPIPE
    }
    for (auto [fd, text] : {std::pair{&out, &result.out}, std::pair{&err, &result.err}}) {
      if (!fds[fd == &out ? 1 : 2].revents) continue;
      const ssize_t got = read(*fd, buf.data(), buf.size());
      if (got > 0) text->append(buf.data(), size_t(got));
      const bool enough = fd == &out && run.head_lines > 0 && keep_lines(*text, run.head_lines);
      if (got <= 0 || enough) close(std::exchange(*fd, -1));  // the child's next write gets SIGPIPE
    }
  }
  for (int fd : {in, out, err})  // only after a failed poll
    if (fd >= 0) close(fd);
}

}  // namespace detail

// Starts `run.argv` with no shell, so the words reach the program exactly
// as given (quotes and `$(...)` included), and waits for it.
inline CliResult run_child(const Child& run) {
  CliResult result{-1, "", ""};
  if (run.argv.empty()) return result;
  // Every pipe end is close-on-exec: a child holds only its own 0, 1 and 2,
  // so closing our end of its stdout reaches it as SIGPIPE.
  std::array<int, 2> in{-1, -1}, out{-1, -1}, err{-1, -1};
  // Our end of stdin does not block: a child that writes while it reads
  // must find us reading its output, not stuck in a write.
  if ((run.stdin_text && (pipe2(in.data(), O_CLOEXEC) != 0 || fcntl(in[1], F_SETFL, O_NONBLOCK) != 0)) ||
      pipe2(out.data(), O_CLOEXEC) != 0 || (run.stderr_to == Stderr::err && pipe2(err.data(), O_CLOEXEC) != 0))
    return result;
  // A child that exits before reading all of stdin_text must not kill us.
  struct sigaction ignore {}, sigpipe {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &sigpipe);
  const pid_t pid = fork();
  if (pid == 0) detail::exec_child(run, in[0], out[1], err[1], sigpipe);
  for (int fd : {in[0], out[1], err[1]})
    if (fd >= 0) close(fd);
  if (pid > 0) detail::pump(run, in[1], out[0], err[0], result);
  sigaction(SIGPIPE, &sigpipe, nullptr);
  int raw = 0;
  if (pid < 0 || waitpid(pid, &raw, 0) < 0) return result;
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  return result;
}

// The words of `line`, split at blanks (no quoting).
inline std::vector<std::string> split_words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// `words` with stdout, plus stderr when asked (else stderr is dropped);
// standard input from the file `stdin_from` where one is named.
inline CliResult run_argv(const std::vector<std::string>& words, bool with_stderr, const std::string& stdin_from = "") {
  Child r;
  r.argv = words;
  r.stderr_to = with_stderr ? Stderr::out : Stderr::drop;
  r.stdin_file = stdin_from;
  return run_child(r);
}

// A command line of plain words (split at blanks, no quoting), run as
// run_argv does.
inline CliResult run_words(const std::string& line, bool with_stderr = false) {
  return run_argv(split_words(line), with_stderr);
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
