// collsim: the one command-line entry point. The table of subcommands drives
// dispatch, `collsim --help` and the "unknown name" error.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>

#include "args.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "output.hpp"
#include "process.hpp"

namespace {

constexpr collsim::cli::Entry kSubcommands[] = {
    {"schedule", collsim::schedule_command, "print a schedule (circulant, ...) as a table or CSV"},
    {"plan", collsim::plan_command,
     "an algorithm's plan (its messages, rank by rank) as a plan file or LogGOPSim GOAL"},
    {"verify", collsim::verify_command, "check schedules exhaustively over a range of p, or from a file"},
    {"bench", collsim::bench_command, "benchmarks of the schedule computations"},
    {"algorithms", collsim::algorithms_command,
     "every algorithm per collective (ours, then SimGrid's): kind, restrictions, source files"},
    {"run", collsim::run_command, "simulate one collective algorithm with SMPI"},
    {"timeline", collsim::timeline_command,
     "every message and combine of one collective call (engine or SMPI): CSV, picture, critical path"},
    {"compare", collsim::compare_command, "sweep sizes x algorithms (ours and SimGrid's), CSV + plot"},
    {"map", collsim::map_command, "fastest algorithm per (p, size) and ratio to SimGrid's best (seed 004 Fig. 3, 4)"},
    {"tune", collsim::tune_command, "decision tables from simulation: Open MPI dynamic rules or COLLSIM_RULES"},
    {"calibrate", collsim::calibrate_command, "measure LogGP's L, o, g, G with Open MPI and write a platform file"},
    {"viz", collsim::viz_command, "pictures of schedules (Graphviz: .dot, .svg, .png)"},
};

}  // namespace

// Exit status (common/errors.hpp): the subcommand's own (0 done, 1 a wrong
// result or a failed check), 1 when an output could not be written
// (standard output included), 3 for a deadlocked simulation, 4 for a limit
// hit, 2 for bad input and everything else that stopped the command.
int main(int argc, char** argv) {
  collsim::sim::stop_children_on_termination();
  try {
    const int status = collsim::cli::dispatch("collsim", kSubcommands, argc, argv);
    collsim::sim::finish_stdout();
    return status;
  } catch (const collsim::sim::Terminated& t) {  // its children killed, its scratch removed: end by the signal
    std::fprintf(stderr, "collsim: stopped by signal %d (%s); the program it ran was killed\n", t.signal,
                 strsignal(t.signal));
    std::signal(t.signal, SIG_DFL);
    std::raise(t.signal);
    return 128 + t.signal;
  } catch (const collsim::sim::OutputError& e) {
    std::fprintf(stderr, "collsim: error: %s\n", e.what());
    return collsim::kExitWrong;
  } catch (const collsim::DeadlockError& e) {
    std::fprintf(stderr, "collsim: error: %s\n", e.what());
    return collsim::kExitDeadlock;
  } catch (const collsim::LimitError& e) {
    std::fprintf(stderr, "collsim: error: %s\n", e.what());
    return collsim::kExitLimit;
  } catch (const std::filesystem::filesystem_error& e) {  // a path that cannot be looked at (a symlink loop, ...)
    std::fprintf(stderr, "collsim: error: '%s': %s\n", e.path1().c_str(), e.code().message().c_str());
    return collsim::kExitBadInput;
  } catch (const std::bad_alloc&) {  // a limit that should have been checked first: still one line
    std::fprintf(stderr, "collsim: error: out of memory (a limit was not checked before allocating)\n");
    return collsim::kExitLimit;
  } catch (const std::exception& e) {  // cli::UsageError, std::invalid_argument, ...
    std::fprintf(stderr, "collsim: error: %s\n", e.what());
    return collsim::kExitBadInput;
  }
}
