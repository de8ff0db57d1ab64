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
// Waits for `pid`, checking every 10 ms or, with `poll`, calling poll()
// between checks. Throws Terminated where stop_children_on_termination's
// signal came meanwhile, the child's process tree killed and reaped (or
// already ended).
ExitStatus wait_process(pid_t pid, const std::function<void()>& poll = {});
// start_process + wait_process.
ExitStatus run_process(const Command& cmd);

// `root` and all its descendants, from the parent ids in /proc/PID/stat.
std::vector<pid_t> process_tree(pid_t root);

// SIGTERM, SIGINT or SIGHUP to collsim (`timeout`, a batch system's
// limit, `kill`, a closed terminal) while wait_process waits: the child's
// whole process tree is killed with SIGKILL and wait_process throws
// Terminated, so that nothing of ours runs on (an smpirun's smpimain, left
// an orphan, simulated on for an hour) and scratch directories are removed
// as the stack unwinds. With no child running the signal ends the process
// at once, as it would by default. Called once, first thing in main.
void stop_children_on_termination();
// Not a std::exception, so that no handler for failed cases (compare
// skips those) takes it for one: main catches it, then ends by `signal`.
struct Terminated {
  int signal;
};

// The command as one line for a person to read and paste into a shell
// (every word single-quoted where needed). Never executed by us.
std::string display_command(const Command& cmd);

}  // namespace collsim::sim
