#include "process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace collsim::sim {

namespace {

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
  if (poll) {
    while (waitpid(pid, &status, WNOHANG) == 0) poll();
  } else {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ExitStatus s;
  if (WIFEXITED(status)) s.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) s.signal = WTERMSIG(status);
  return s;
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
