#include "process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace collsim::sim {

namespace {

// The child wait_process waits for (0: none), and the stopping signal that
// came while it did (0: none); see stop_children_on_termination.
volatile std::sig_atomic_t waited_child = 0;
volatile std::sig_atomic_t stop_signal = 0;

void on_stop_signal(int sig) {
  if (waited_child == 0) {  // nothing of ours to stop: end as by default
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  stop_signal = sig;
}

// Kills `pid`'s process tree, reaps `pid` and throws Terminated.
[[noreturn]] void stop_tree(pid_t pid) {
  for (pid_t p : process_tree(pid)) kill(p, SIGKILL);
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  waited_child = 0;
  throw Terminated{static_cast<int>(stop_signal)};
}

// In the child: opens `path` for writing as file descriptor `fd`.
void redirect(const std::filesystem::path& path, int fd) {
  if (path.empty()) return;
  const int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (file < 0 || dup2(file, fd) < 0) _exit(126);
}

}  // namespace

std::string ExitStatus::describe() const {
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit status " + std::to_string(code);
}

pid_t start_process(const Command& cmd) {
  if (cmd.argv.empty()) throw std::logic_error("start_process: empty argument vector");
  std::vector<char*> argv;
  for (const auto& a : cmd.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // A pipe closed by exec tells the parent whether exec worked (errno).
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) throw std::runtime_error("cannot start " + cmd.argv[0] + ": pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot start " + cmd.argv[0] + ": fork failed");
  if (pid == 0) {
    close(report[0]);
    // Files first: their paths are the caller's, relative to its directory.
    redirect(cmd.stdout_to, STDOUT_FILENO);
    redirect(cmd.stderr_to, STDERR_FILENO);
    if (!cmd.dir.empty() && chdir(cmd.dir.c_str()) != 0) _exit(126);
    for (const auto& [key, value] : cmd.env) setenv(key.c_str(), value.c_str(), 1);
    execvp(argv[0], argv.data());
    const int error = errno;
    ssize_t ignored = write(report[1], &error, sizeof error);
    (void)ignored;
    _exit(127);
  }
  close(report[1]);
  int error = 0;
  const ssize_t got = read(report[0], &error, sizeof error);
  close(report[0]);
  if (got == static_cast<ssize_t>(sizeof error)) {
    waitpid(pid, nullptr, 0);
    throw std::runtime_error("cannot start '" + cmd.argv[0] + "': " + std::strerror(error));
  }
  return pid;
}

ExitStatus wait_process(pid_t pid, const std::function<void()>& poll) {
  int status = 0;
  waited_child = pid;
  for (;;) {
    const pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid || (got < 0 && errno != EINTR)) break;
    if (stop_signal != 0) stop_tree(pid);
    if (poll)
      poll();
    else
      usleep(10000);
  }
  waited_child = 0;
  // A signal that came as the child ended still stops us: nothing is left
  // to kill, but collsim must not carry on as if it had not come.
  if (stop_signal != 0) throw Terminated{static_cast<int>(stop_signal)};
  ExitStatus s;
  if (WIFEXITED(status)) s.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) s.signal = WTERMSIG(status);
  return s;
}

std::vector<pid_t> process_tree(pid_t root) {
  std::multimap<pid_t, pid_t> children;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat;
    std::getline(std::ifstream(entry.path() / "stat"), stat);
    const size_t paren = stat.rfind(')');  // the command name may hold spaces
    if (paren == std::string::npos) continue;
    std::istringstream rest(stat.substr(paren + 1));
    char state = 0;
    pid_t parent = 0;
    if (rest >> state >> parent) children.emplace(parent, std::stoi(name));
  }
  std::vector<pid_t> tree{root};
  for (size_t i = 0; i < tree.size(); ++i)
    for (auto [it, end] = children.equal_range(tree[i]); it != end; ++it) tree.push_back(it->second);
  return tree;
}

void stop_children_on_termination() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a sleep or wait returns early
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaction(sig, &action, nullptr);
}

ExitStatus run_process(const Command& cmd) { return wait_process(start_process(cmd)); }

std::string display_command(const Command& cmd) {
  auto quote = [](const std::string& word) {
    if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%") ==
                             std::string::npos)
      return word;
    std::string q = "'";
    for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  std::string line = cmd.dir.empty() ? "" : "cd " + quote(cmd.dir.string()) + " && ";
  for (const auto& [key, value] : cmd.env) line += key + "=" + quote(value) + " ";
  for (size_t i = 0; i < cmd.argv.size(); ++i) line += (i ? " " : "") + quote(cmd.argv[i]);
  if (!cmd.stdout_to.empty()) line += " > " + quote(cmd.stdout_to.string());
  if (!cmd.stderr_to.empty()) line += " 2> " + quote(cmd.stderr_to.string());
  return line;
}

}  // namespace collsim::sim
