// The classes of outcome a collsim command reports, one exit code each
// (docs/hardening.md, "Exit codes"). Bad input is std::invalid_argument (or any other
// std::exception that is not one of these); an output that cannot be
// written is sim::OutputError.
#pragma once

#include <stdexcept>
#include <string>

namespace collsim {

enum ExitCode : int {
  kExitOk = 0,
  kExitWrong = 1,     // a wrong result, a failed check, an output not written
  kExitBadInput = 2,  // bad or contradictory input: nothing was run
  kExitDeadlock = 3,  // the simulated ranks waited for each other forever
  kExitLimit = 4,     // a documented limit (file size, memory, work) was hit
};

// A documented limit was hit: the message names the limit and, where there
// is one, the option that raises it.
struct LimitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A simulation deadlocked (SimGrid's report, or the plan executor's).
struct DeadlockError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace collsim
