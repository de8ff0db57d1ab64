// Starting programs from the collsim process: always from an argument
// vector (execvp), never through a shell, so paths with spaces, quotes,
// `$(...)` or newlines are only ever file names.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace collsim::sim {

struct Command {
  std::vector<std::string> argv;     // argv[0] is looked up in PATH
  std::filesystem::path dir;         // working directory; empty: ours
  std::filesystem::path stdout_to;   // a file; empty: ours
  std::filesystem::path stderr_to;   // a file; empty: ours; "/dev/null" to drop
  std::vector<std::pair<std::string, std::string>> env;  // added to ours
};

// How a finished process ended.
struct ExitStatus {
  int code = -1;    // exit code, or -1 if killed by a signal
  int signal = 0;   // the signal that killed it, else 0
  bool ok() const { return code == 0; }
  std::string describe() const;  // "exit status 3", "killed by signal 9 (Killed)"
};

// Starts `cmd`; throws std::runtime_error when it cannot (no such program,
// an output file that cannot be opened).
pid_t start_process(const Command& cmd);
// Waits for `pid`; with `poll`, calls poll() between non-blocking checks.
ExitStatus wait_process(pid_t pid, const std::function<void()>& poll = {});
// start_process + wait_process.
ExitStatus run_process(const Command& cmd);

// The command as one line for a person to read and paste into a shell
// (every word single-quoted where needed). Never executed by us.
std::string display_command(const Command& cmd);

}  // namespace collsim::sim
